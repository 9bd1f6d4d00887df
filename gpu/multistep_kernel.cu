// The multi-step kernel: many generations per launch on a bit-packed field,
// with rows held in registers, horizontal neighbours by warp shuffles and
// vertical ones between warps through shared memory once a generation.
//
// How a thread's rows get into and out of registers is the kernel's Field
// template parameter: FlatField (a row-major packed field, below) or
// TiledField (the tile pool's 512-byte tiles through a region's tile table,
// gpu/tile_field.cuh). A Field provides
//   load(w0, w1, rows)              fills a thread's registers (ThreadRows,
//                                   gpu/thread_rows.cuh) from the source;
//   kStoresBeforeLast, stores_at(g) whether the exact rows are also stored
//                                   after generation g < last (only
//                                   g >= last - 2 may answer yes), then by
//   store_early(g, w0, w1, rows);
//   store(last, w0, w1, rows)       stores the exact rows at the end;
//   finish()                        after the last store (every thread).
#include <cuda_runtime.h>

#include "gpu/cuda_check.cuh"
#include "gpu/kernel_config.cuh"
#include "gpu/kernels.cuh"
#include "gpu/life_logic.cuh"
#include "gpu/thread_rows.cuh"
#include "gpu/tile_field.cuh"

namespace gol::gpu {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// A row-major packed field (layout in gpu_backend.h): src in, dst out.
struct FlatField {
  static constexpr bool kStoresBeforeLast = false;
  const uint32_t* src;
  uint32_t* dst;

  template <int kRows>
  __device__ __forceinline__ void load(uint32_t (&w0)[kRows], uint32_t (&w1)[kRows],
                                       const ThreadRows& t) const {
    const int64_t col0 = resolve(t.first_word, t.width_words, t.torus);
    const int64_t col1 = resolve(t.first_word + 1, t.width_words, t.torus);
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      const int64_t row = resolve(t.first_row + i, t.height, t.torus);
      const uint32_t* line = src + row * t.width_words;
      w0[i] = (row >= 0 && col0 >= 0) ? __ldg(line + col0) : 0u;
      w1[i] = (row >= 0 && col1 >= 0) ? __ldg(line + col1) : 0u;
    }
  }

  template <int kRows>
  __device__ __forceinline__ void store(int, const uint32_t (&w0)[kRows],
                                        const uint32_t (&w1)[kRows], const ThreadRows& t) {
    const bool store0 = t.lane > 0 && t.first_word < t.width_words;
    const bool store1 = t.lane < 31 && t.first_word + 1 < t.width_words;
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      if (i < t.store_from || i >= t.store_to) continue;
      uint32_t* line = dst + (t.first_row + i) * t.width_words;
      if (store0) line[t.first_word] = w0[i];
      if (store1) line[t.first_word + 1] = w1[i];
    }
  }

  __device__ __forceinline__ void finish() {}
};

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

  static_assert(kRows % 4 == 0 && kGens % 4 == 0, "ThreadRows promises row bounds in fours");

  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int64_t first_word = int64_t{blockIdx.x} * kInteriorWords - 1 + kWordsPerLane * lane;
  const int64_t first_row = int64_t{blockIdx.y} * kInteriorRows - kGens + int64_t{warp} * kRows;
  // Exact rows: all but the block's first and last kGens, within the field.
  const int64_t exact_end = kBlockRows - kGens - int64_t{warp} * kRows;
  const int64_t store_to = exact_end < height - first_row ? exact_end : height - first_row;
  const int store_from = kGens - warp * kRows;
  const ThreadRows rows{lane,
                        first_row,
                        first_word,
                        width_words,
                        height,
                        torus,
                        store_from > 0 ? store_from : 0,
                        static_cast<int>(store_to < kRows ? store_to : kRows)};

  uint32_t w0[kRows];
  uint32_t w1[kRows];
  field.load(w0, w1, rows);

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
        field.store_early(gen + 1, w0, w1, rows);
      }
    }
  }
  field.store(generations, w0, w1, rows);
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
  return launch_for_rule(FlatField{src, dst}, field, edge, generations, rule, stream);
}

uint64_t launch_multistep(const TiledField& field, PackedFieldView view, Edge edge, int generations,
                          const Rule& rule, cudaStream_t stream) {
  return launch_for_rule(field, view, edge, generations, rule, stream);
}

}  // namespace gol::gpu
