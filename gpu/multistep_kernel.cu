// The multi-step kernel: many generations per launch on a bit-packed field,
// with rows held in registers, horizontal neighbours by warp shuffles and
// vertical ones between warps through shared memory once a generation.
//
// Where words are loaded from and stored to is the kernel's Field template
// parameter: FlatField (a row-major packed field, below) or TiledField (the
// tile pool's 512-byte tiles through a region's tile table,
// gpu/tile_field.cuh). A Field provides
//   load(row, word)                    a word of the launch's source, both
//                                      coordinates inside the field;
//   kStoresBeforeLast                  whether stores_at(gen) is asked;
//   stores_at(gen)                     whether the interior is also stored
//                                      after generation gen < last (only
//                                      gen >= last - 2 may answer yes);
//   stores_begin(first_row, first_word)  before each store phase, with the
//                                      thread's first row and word;
//   store(gen, row, word, value)       an interior word after generation gen;
//   finish()                           after the last store (all threads).
#include <cuda_runtime.h>

#include "gpu/cuda_check.cuh"
#include "gpu/kernel_config.cuh"
#include "gpu/kernels.cuh"
#include "gpu/life_logic.cuh"
#include "gpu/tile_field.cuh"

namespace gol::gpu {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// A row-major packed field (layout in gpu_backend.h): src in, dst out.
struct FlatField {
  static constexpr bool kStoresBeforeLast = false;
  const uint32_t* src;
  uint32_t* dst;
  int64_t width_words;

  __device__ __forceinline__ uint32_t load(int64_t row, int64_t word) const {
    return __ldg(src + row * width_words + word);
  }
  __device__ __forceinline__ void stores_begin(int64_t, int64_t) {}
  __device__ __forceinline__ void store(int, int64_t row, int64_t word, uint32_t value) {
    dst[row * width_words + word] = value;
  }
  __device__ __forceinline__ void finish() {}
};

// Wraps (torus) or flags as outside (dead edge, -1) one coordinate; the
// division runs only for coordinates outside [0, extent).
__device__ __forceinline__ int64_t resolve(int64_t index, int64_t extent, bool torus) {
  if (index >= 0 && index < extent) return index;
  if (!torus) return -1;
  const int64_t r = index % extent;
  return r < 0 ? r + extent : r;
}

// Row sums of one register row (two words a lane): the outer neighbour words
// come from the adjacent lanes. Lanes 0 and 31 receive their own words,
// which only feeds the halo words that are never stored.
__device__ __forceinline__ void lane_row_sums(uint32_t w0, uint32_t w1, RowSum& s0, RowSum& s1) {
  const uint32_t left = __shfl_up_sync(kFullMask, w1, 1);
  const uint32_t right = __shfl_down_sync(kFullMask, w0, 1);
  s0 = row_sum(west_of(left, w0), w0, east_of(w0, w1));
  s1 = row_sum(west_of(w0, w1), w1, east_of(w1, right));
}

// Row sums of a row published in shared memory by the neighbouring warp.
__device__ __forceinline__ void shared_row_sums(const uint32_t (&row)[kWordsPerLane][32], int lane,
                                                RowSum& s0, RowSum& s1) {
  const int left_lane = lane > 0 ? lane - 1 : lane;
  const int right_lane = lane < 31 ? lane + 1 : lane;
  const uint32_t w0 = row[0][lane];
  const uint32_t w1 = row[1][lane];
  s0 = row_sum(west_of(row[1][left_lane], w0), w0, east_of(w0, w1));
  s1 = row_sum(west_of(w0, w1), w1, east_of(w1, row[0][right_lane]));
}

// Stores the exact part of a thread's rows after `generation`: all but the
// first and last word of the block's span and the first and last kGens rows
// of the block (see multistep_kernel).
template <int kRows, int kWarps, int kGens, class Field>
__device__ __forceinline__ void store_interior(Field& field, int generation,
                                               const uint32_t (&w0)[kRows],
                                               const uint32_t (&w1)[kRows], int lane, int warp,
                                               int64_t first_word, int64_t first_row,
                                               int64_t width_words, int64_t height) {
  constexpr int kBlockRows = kRows * kWarps;
  field.stores_begin(first_row, first_word);
  const bool store0 = lane > 0 && first_word < width_words;
  const bool store1 = lane < 31 && first_word + 1 < width_words;
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const int local_row = warp * kRows + i;
    const int64_t row = first_row + i;
    if (local_row < kGens || local_row >= kBlockRows - kGens || row >= height) continue;
    if (store0) field.store(generation, row, first_word, w0[i]);
    if (store1) field.store(generation, row, first_word + 1, w1[i]);
  }
}

// One generation of a thread's rows: the warp's top and bottom rows are
// published in `edge_rows` (this generation's parity) for the warps above
// and below.
template <int kRows, int kWarps, class Logic>
__device__ __forceinline__ void step_generation(uint32_t (&edge_rows)[2][kWarps][kWordsPerLane][32],
                                                uint32_t (&w0)[kRows], uint32_t (&w1)[kRows],
                                                int lane, int warp, const Logic& logic) {
  const int warp_above = warp > 0 ? warp - 1 : warp;
  const int warp_below = warp < kWarps - 1 ? warp + 1 : warp;
  edge_rows[0][warp][0][lane] = w0[0];
  edge_rows[0][warp][1][lane] = w1[0];
  edge_rows[1][warp][0][lane] = w0[kRows - 1];
  edge_rows[1][warp][1][lane] = w1[kRows - 1];
  __syncthreads();

  RowSum above0, above1, mid0, mid1;
  shared_row_sums(edge_rows[1][warp_above], lane, above0, above1);
  lane_row_sums(w0[0], w1[0], mid0, mid1);
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    RowSum below0, below1;
    if (i + 1 < kRows) {
      lane_row_sums(w0[i + 1], w1[i + 1], below0, below1);
    } else {
      shared_row_sums(edge_rows[0][warp_below], lane, below0, below1);
    }
    w0[i] = logic(above0, mid0, below0, w0[i]);
    w1[i] = logic(above1, mid1, below1, w1[i]);
    above0 = mid0;
    above1 = mid1;
    mid0 = below0;
    mid1 = below1;
  }
}

// Block (bx, by) covers words [62*bx - 1, 62*bx + 63) and rows
// [interior*by - G, interior*by - G + rows*warps): lane l holds words
// 2l and 2l+1 of that span, warp w rows [w*rows, (w+1)*rows). After g <= G
// generations the first and last word of the span and the first and last G
// rows are wrong (the light cone), the rest exact; only the rest is stored.
template <int kRows, int kWarps, int kGens, class Logic, class Field>
__global__ void __launch_bounds__(kWarps * 32, 1)
    multistep_kernel(Field field, int64_t width_words, int64_t height, bool torus, int generations,
                     Logic logic) {
  constexpr int kBlockRows = kRows * kWarps;
  constexpr int kInteriorRows = kBlockRows - 2 * kGens;
  // [generation parity][top row, bottom row][warp][word][lane]
  __shared__ uint32_t edge_rows[2][2][kWarps][kWordsPerLane][32];

  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int64_t first_word = int64_t{blockIdx.x} * kInteriorWords - 1 + kWordsPerLane * lane;
  const int64_t first_row = int64_t{blockIdx.y} * kInteriorRows - kGens + int64_t{warp} * kRows;

  const int64_t col0 = resolve(first_word, width_words, torus);
  const int64_t col1 = resolve(first_word + 1, width_words, torus);
  uint32_t w0[kRows];
  uint32_t w1[kRows];
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const int64_t row = resolve(first_row + i, height, torus);
    w0[i] = (row >= 0 && col0 >= 0) ? field.load(row, col0) : 0u;
    w1[i] = (row >= 0 && col1 >= 0) ? field.load(row, col1) : 0u;
  }

  // Fields that store before the last generation do so only after the two
  // before it: the last three generations get a loop of their own, which
  // keeps the store code (and its registers) out of the main loop.
  const int plain_generations =
      Field::kStoresBeforeLast ? (generations > 3 ? generations - 3 : 0) : generations;
  for (int gen = 0; gen < plain_generations; ++gen) {
    step_generation<kRows, kWarps>(edge_rows[gen & 1], w0, w1, lane, warp, logic);
  }
  if constexpr (Field::kStoresBeforeLast) {
    for (int gen = plain_generations; gen < generations; ++gen) {
      step_generation<kRows, kWarps>(edge_rows[gen & 1], w0, w1, lane, warp, logic);
      if (gen + 1 < generations && field.stores_at(gen + 1)) {
        store_interior<kRows, kWarps, kGens>(field, gen + 1, w0, w1, lane, warp, first_word,
                                             first_row, width_words, height);
      }
    }
  }
  store_interior<kRows, kWarps, kGens>(field, generations, w0, w1, lane, warp, first_word,
                                       first_row, width_words, height);
  field.finish();
}

dim3 grid_for(MultiStepConfig c, PackedFieldView field) {
  return dim3(static_cast<unsigned>((field.width_words + kInteriorWords - 1) / kInteriorWords),
              static_cast<unsigned>((field.height + interior_rows(c) - 1) / interior_rows(c)));
}

int multiprocessor_count() {
  static const int count = [] {
    int device = 0;
    int value = 0;
    GOL_CUDA_CHECK(cudaGetDevice(&device));
    GOL_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, device));
    return value;
  }();
  return count;
}

template <MultiStepConfig kConfig, class Logic, class Field>
uint64_t launch_config(const Field& field, PackedFieldView view, Edge edge, int generations,
                       Logic logic, cudaStream_t stream) {
  const dim3 block(32 * kConfig.warps_per_block);
  const dim3 grid = grid_for(kConfig, view);
  multistep_kernel<kConfig.rows_per_thread, kConfig.warps_per_block, kConfig.generations_per_launch>
      <<<grid, block, 0, stream>>>(field, view.width_words, view.height, edge == Edge::kTorus,
                                   generations, logic);
  GOL_CUDA_CHECK_LAUNCH();
  return uint64_t{grid.x} * grid.y * (uint64_t{kWarpWords} * 32) * block_rows(kConfig) *
         static_cast<uint64_t>(generations);
}

template <class Logic, class Field>
uint64_t launch_with(const Field& field, PackedFieldView view, Edge edge, int generations,
                     Logic logic, cudaStream_t stream) {
  const dim3 grid = grid_for(kMultiStep, view);
  if (uint64_t{grid.x} * grid.y < static_cast<uint64_t>(multiprocessor_count())) {
    return launch_config<kMultiStepSmall>(field, view, edge, generations, logic, stream);
  }
  return launch_config<kMultiStep>(field, view, edge, generations, logic, stream);
}

template <class Field>
uint64_t launch_for_rule(const Field& field, PackedFieldView view, Edge edge, int generations,
                         const Rule& rule, cudaStream_t stream) {
  if (rule.is_conway()) {
    return launch_with(field, view, edge, generations, ConwayLogic{}, stream);
  }
  // The generic rule needs more registers than the full-size block allows.
  return launch_config<kMultiStepSmall>(field, view, edge, generations,
                                        GenericLogic{rule.birth, rule.survival}, stream);
}

}  // namespace

uint64_t launch_multistep(const uint32_t* src, uint32_t* dst, PackedFieldView field, Edge edge,
                          int generations, const Rule& rule, cudaStream_t stream) {
  return launch_for_rule(FlatField{src, dst, field.width_words}, field, edge, generations, rule,
                         stream);
}

uint64_t launch_multistep(const TiledField& field, PackedFieldView view, Edge edge, int generations,
                          const Rule& rule, cudaStream_t stream) {
  return launch_for_rule(field, view, edge, generations, rule, stream);
}

}  // namespace gol::gpu
