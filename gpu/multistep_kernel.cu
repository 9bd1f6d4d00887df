// The multi-step kernel: many generations per launch on a bit-packed field,
// with rows held in registers, horizontal neighbours by warp shuffles and
// vertical ones between warps through shared memory once a generation.
//
// Shapes (H100, 1024 generations on N^2 tori, bench/RESULTS.md has the
// sweeps): one word a lane beat two at every side from 4096 to 65536 (at
// 65536^2: 36.2 T CUpS against 35.2 T for the best two-word shape; two words
// and 32 rows a thread also spill). The rows a thread and warps a block that
// fit a field best differ with its size (1024^2: 4 rows x 12 warps, 2.7 T;
// 4096^2: 8 x 24, 19 T; 16384^2: 24 x 12, two blocks an SM, 31.9 T;
// 65536^2: 24 x 24, 36.2 T), so the launcher picks them per field from a
// cost model.
//
// How a thread's rows get into and out of registers is the kernel's Field
// template parameter: FlatField (a row-major packed field, below), BandField
// (a window of a band on one of several GPUs, below) or TiledField (the
// tile pool's 512-byte tiles through a region's tile table,
// gpu/tile_field.cuh). A Field provides
//   load(cells, rows)               fills a thread's registers (ThreadRows,
//                                   gpu/thread_rows.cuh) from the source;
//   kStoresBeforeLast, stores_at(g) whether the exact rows are also stored
//                                   after generation g < last (only
//                                   g >= last - 2 may answer yes), then by
//   store_early(g, cells, rows);
//   store(last, cells, rows)        stores the exact rows at the end;
//   finish()                        after the last store (every thread).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <compare>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "gpu/cuda_check.cuh"
#include "gpu/kernel_config.cuh"
#include "gpu/kernels.cuh"
#include "gpu/life_logic.cuh"
#include "gpu/thread_rows.cuh"
#include "gpu/tile_field.cuh"

namespace gol::gpu {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kGens = kMultiStepGenerations;

// A row-major packed field (layout in gpu_backend.h): src in, dst out.
struct FlatField {
  static constexpr bool kStoresBeforeLast = false;
  const uint32_t* src;
  uint32_t* dst;

  template <int kRows>
  __device__ __forceinline__ void load(uint32_t (&cells)[kRows], const ThreadRows& t) const {
    const int64_t col = resolve(t.word, t.width_words, t.torus);
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      const int64_t row = resolve(t.first_row + i, t.height, t.torus);
      cells[i] = (row >= 0 && col >= 0) ? __ldg(src + row * t.width_words + col) : 0u;
    }
  }

  template <int kRows>
  __device__ __forceinline__ void store(int, const uint32_t (&cells)[kRows], const ThreadRows& t) {
    if (t.lane == 0 || t.lane == 31 || t.word >= t.width_words) return;
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      if (i >= t.store_from && i < t.store_to)
        dst[(t.first_row + i) * t.width_words + t.word] = cells[i];
    }
  }

  __device__ __forceinline__ void finish() {}
};

// A window of a band's strip (gpu/band_plan.h): its columns wrap around the
// torus's width, above and below it all is dead, and only the rows
// [keep_from, keep_to) are stored, so that the windows of one round, which
// overlap, never write the same row. It resolves its own edges: the
// kernel's torus flag is not read.
struct BandField {
  static constexpr bool kStoresBeforeLast = false;
  const uint32_t* src;
  uint32_t* dst;
  int64_t keep_from;
  int64_t keep_to;

  template <int kRows>
  __device__ __forceinline__ void load(uint32_t (&cells)[kRows], const ThreadRows& t) const {
    const int64_t col = resolve(t.word, t.width_words, true);
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      const int64_t row = t.first_row + i;
      cells[i] = (row >= 0 && row < t.height) ? __ldg(src + row * t.width_words + col) : 0u;
    }
  }

  template <int kRows>
  __device__ __forceinline__ void store(int, const uint32_t (&cells)[kRows], const ThreadRows& t) {
    if (t.lane == 0 || t.lane == 31 || t.word >= t.width_words) return;
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      const int64_t row = t.first_row + i;
      if (i >= t.store_from && i < t.store_to && row >= keep_from && row < keep_to)
        dst[row * t.width_words + t.word] = cells[i];
    }
  }

  __device__ __forceinline__ void finish() {}
};

// One row of a lane's word as the rules want it: its west and east
// neighbour planes and its three-cell sum.
struct RowPlanes {
  uint32_t west;
  uint32_t east;
  RowSum sum;
};

// The neighbour words come from the adjacent lanes. Lanes 0 and 31 receive
// their own words, which only feeds the halo words, never stored.
__device__ __forceinline__ RowPlanes row_planes(uint32_t word) {
  const uint32_t left = __shfl_up_sync(kFullMask, word, 1);
  const uint32_t right = __shfl_down_sync(kFullMask, word, 1);
  RowPlanes p;
  p.west = west_of(left, word);
  p.east = east_of(word, right);
  p.sum = row_sum(p.west, word, p.east);
  return p;
}

// One generation of a thread's rows. A warp publishes the three-cell sums
// of its top and bottom rows in `edges` (this generation's parity), which it
// needs itself anyway, for the warps above and below: they read them
// ready-made instead of recomputing them from the words.
template <int kRows, int kMaxWarps, class Logic>
__device__ __forceinline__ void step_generation(RowSum (&edges)[2][kMaxWarps][32],
                                                uint32_t (&cells)[kRows], int lane, int warp,
                                                int warps, const Logic& logic) {
  const int warp_above = warp > 0 ? warp - 1 : warp;
  const int warp_below = warp < warps - 1 ? warp + 1 : warp;
  RowPlanes current = row_planes(cells[0]);
  const RowPlanes last = row_planes(cells[kRows - 1]);
  edges[0][warp][lane] = current.sum;
  edges[1][warp][lane] = last.sum;
  __syncthreads();

  RowSum above = edges[1][warp_above][lane];
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    RowPlanes next;
    if (i + 2 < kRows) {
      next = row_planes(cells[i + 1]);
    } else if (i + 2 == kRows) {
      next = last;
    } else {
      next.sum = edges[0][warp_below][lane];
    }
    cells[i] = logic(above, next.sum, current.west, current.east, cells[i]);
    above = current.sum;
    current = next;
  }
}

// Block (bx, by) of a launch of `warps` warps a block covers the words
// [30*bx - 1, 30*bx + 31) and the rows [I*by - G, I*by - G + kRows*warps)
// with I = kRows*warps - 2G: lane l holds word l of that span, warp w rows
// [w*kRows, (w+1)*kRows). After g <= G generations the first and last word
// of the span and the first and last G rows are wrong (the light cone), the
// rest exact; only the rest is stored.
template <int kRows, int kMaxWarps, class Logic, class Field>
__global__ void __launch_bounds__(kMaxWarps * 32, 1)
    multistep_kernel(Field field, int64_t width_words, int64_t height, bool torus, int generations,
                     Logic logic) {
  static_assert(kRows >= 2, "a warp's top and bottom rows must differ");
  static_assert(kRows % 4 == 0 && kGens % 4 == 0, "ThreadRows promises row bounds in fours");
  // [generation parity][top row, bottom row][warp][lane]
  __shared__ RowSum edge_sums[2][2][kMaxWarps][32];

  const int warps = static_cast<int>(blockDim.x >> 5);
  const int block_rows = kRows * warps;
  const int interior_rows = block_rows - 2 * kGens;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int64_t word = int64_t{blockIdx.x} * kInteriorWords - 1 + lane;
  const int64_t first_row = int64_t{blockIdx.y} * interior_rows - kGens + int64_t{warp} * kRows;
  // Exact rows: all but the block's first and last kGens, within the field.
  const int64_t exact_end = block_rows - kGens - int64_t{warp} * kRows;
  const int64_t store_to = exact_end < height - first_row ? exact_end : height - first_row;
  const int store_from = kGens - warp * kRows;
  const ThreadRows rows{lane,
                        first_row,
                        word,
                        width_words,
                        height,
                        torus,
                        store_from > 0 ? store_from : 0,
                        static_cast<int>(store_to < kRows ? store_to : kRows)};

  // Launched as a programmatic dependent of the previous launch on the
  // stream: wait for it to finish (and its stores to be visible) before
  // reading, then let the next launch start its blocks early, so that its
  // launch overlaps this one's tail (1-3% at every size).
  asm volatile("griddepcontrol.wait;" ::: "memory");
  uint32_t cells[kRows];
  field.load(cells, rows);
  asm volatile("griddepcontrol.launch_dependents;");

  // Fields that store before the last generation do so only after the two
  // before it: the last three generations get a loop of their own, which
  // keeps the store code (and its registers) out of the main loop.
  const int plain_generations =
      Field::kStoresBeforeLast ? (generations > 3 ? generations - 3 : 0) : generations;
  for (int gen = 0; gen < plain_generations; ++gen) {
    step_generation<kRows>(edge_sums[gen & 1], cells, lane, warp, warps, logic);
  }
  if constexpr (Field::kStoresBeforeLast) {
    for (int gen = plain_generations; gen < generations; ++gen) {
      step_generation<kRows>(edge_sums[gen & 1], cells, lane, warp, warps, logic);
      if (gen + 1 < generations && field.stores_at(gen + 1)) {
        field.store_early(gen + 1, cells, rows);
      }
    }
  }
  field.store(generations, cells, rows);
  field.finish();
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

// A block shape: rows a thread and warps a block.
struct Shape {
  int rows;
  int warps;
};

dim3 grid_for(Shape s, PackedFieldView field) {
  const int64_t interior = int64_t{s.rows} * s.warps - 2 * kGens;
  return dim3(static_cast<unsigned>((field.width_words + kInteriorWords - 1) / kInteriorWords),
              static_cast<unsigned>((field.height + interior - 1) / interior));
}

template <int kRows, int kMaxWarps, class Logic, class Field>
uint64_t launch_shape(const Field& field, PackedFieldView view, Edge edge, int generations,
                      int warps, Logic logic, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid_for({kRows, warps}, view);
  config.blockDim = dim3(32 * warps);
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  GOL_CUDA_CHECK(cudaLaunchKernelEx(&config, multistep_kernel<kRows, kMaxWarps, Logic, Field>,
                                    field, view.width_words, view.height, edge == Edge::kTorus,
                                    generations, logic));
  GOL_CUDA_CHECK_LAUNCH();
  return uint64_t{config.gridDim.x} * config.gridDim.y * (kSpanWords * 32) *
         (uint64_t{kRows} * warps) * static_cast<uint64_t>(generations);
}

// A kernel instance for Life: its rows a thread and most warps a block
// (the register budget: 24 rows use 80 registers a thread).
template <class Field>
struct Candidate {
  int rows;
  int max_warps;
  uint64_t (*launch)(const Field&, PackedFieldView, Edge, int, int, cudaStream_t);
  const void* kernel;
};

template <class Field, int kRows, int kMaxWarps>
Candidate<Field> candidate() {
  return {kRows, kMaxWarps,
          [](const Field& field, PackedFieldView view, Edge edge, int generations, int warps,
             cudaStream_t stream) {
            return launch_shape<kRows, kMaxWarps>(field, view, edge, generations, warps,
                                                  ConwayLogic{}, stream);
          },
          reinterpret_cast<const void*>(multistep_kernel<kRows, kMaxWarps, ConwayLogic, Field>)};
}

template <class Field>
const std::array<Candidate<Field>, 5>& candidates() {
  static const std::array<Candidate<Field>, 5> list = {
      candidate<Field, 4, 32>(), candidate<Field, 8, 32>(), candidate<Field, 12, 32>(),
      candidate<Field, 16, 32>(), candidate<Field, 24, 24>()};
  return list;
}

// Blocks of `warps` warps an SM holds at once, asked once per kernel and
// block size.
int resident_blocks(const void* kernel, int warps) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto [it, inserted] = known.try_emplace({kernel, warps}, 0);
  if (inserted) {
    GOL_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&it->second, kernel, 32 * warps, 0));
  }
  return it->second;
}

// The cost model, fitted to sweeps of every candidate and block size at
// sides 1024 to 65536 (bench/RESULTS.md): an SM's time is the rows its
// blocks compute, a warp's generation costing its rows plus kPerWarpRows
// (the barrier, the shared-memory exchange, the edge rows), at the share of
// the integer pipe its resident warps keep busy (all of it from
// kSaturatingWarps). Below that share the predicted time no longer depends
// on the warps, and the smaller work an SM gets decides: small fields run
// fastest on many SMs with short blocks (1024^2: 4 rows x 12 warps on 128
// SMs, 2.7 T CUpS; 8 rows x 20 warps on 16 SMs, 1.35 T). Then the fewest
// rows in all. Against the sweeps its pick is the fastest shape measured
// at 2048, 4096, 16384 and 65536, 2% slower at 1024, about 3% at 32768 and
// 7% at 8192.
constexpr double kSaturatingWarps = 24;
constexpr double kPerWarpRows = 3;

struct Cost {
  double predicted;
  double work;        // rows an SM computes, barrier included
  uint64_t all_rows;  // rows all blocks compute
  auto operator<=>(const Cost&) const = default;
};

Cost predicted_cost(const void* kernel, Shape s, PackedFieldView view) {
  const dim3 grid = grid_for(s, view);
  const int sms = multiprocessor_count();
  const uint64_t blocks = uint64_t{grid.x} * grid.y;
  const uint64_t per_sm = (blocks + sms - 1) / sms;
  const double work = static_cast<double>(per_sm) * s.warps * (s.rows + kPerWarpRows);
  const uint64_t all_rows = blocks * static_cast<uint64_t>(s.rows * s.warps);
  const int resident = resident_blocks(kernel, s.warps);
  if (resident == 0) return {1e300, work, all_rows};
  const double warps_at_once = static_cast<double>(std::min<uint64_t>(per_sm, resident)) * s.warps;
  const double busy = std::min(1.0, warps_at_once / kSaturatingWarps);
  return {work / busy, work, all_rows};
}

template <class Field>
struct Choice {
  const Candidate<Field>* candidate;
  Shape shape;
};

template <class Field>
Choice<Field> best_choice(PackedFieldView view) {
  Choice<Field> best{nullptr, {}};
  Cost best_cost{};
  for (const Candidate<Field>& c : candidates<Field>()) {
    // A block must store at least one row: rows x warps > 2G.
    for (int warps = 2 * kGens / c.rows + 1; warps <= c.max_warps; ++warps) {
      const Shape s{c.rows, warps};
      const Cost cost = predicted_cost(c.kernel, s, view);
      if (best.candidate == nullptr || cost < best_cost) {
        best = {&c, s};
        best_cost = cost;
      }
    }
  }
  return best;
}

// The choice for each field size met so far (callers step one size many
// times, and the model asks the occupancy of every shape).
template <class Field>
Choice<Field> choose(PackedFieldView view) {
  static std::mutex mutex;
  static std::map<std::pair<int64_t, int64_t>, Choice<Field>> chosen;
  const std::pair key{view.width_words, view.height};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto it = chosen.find(key);
    if (it != chosen.end()) return it->second;
  }
  const Choice<Field> best = best_choice<Field>(view);
  const std::lock_guard<std::mutex> lock(mutex);
  chosen.emplace(key, best);
  return best;
}

// Other rules: one shape, the generic logic needing more registers.
constexpr Shape kGenericShape{16, 8};

template <class Field>
uint64_t launch_for_rule(const Field& field, PackedFieldView view, Edge edge, int generations,
                         const Rule& rule, cudaStream_t stream) {
  if (rule.is_conway()) {
    const Choice<Field> c = choose<Field>(view);
    return c.candidate->launch(field, view, edge, generations, c.shape.warps, stream);
  }
  return launch_shape<kGenericShape.rows, kGenericShape.warps>(
      field, view, edge, generations, kGenericShape.warps, GenericLogic{rule.birth, rule.survival},
      stream);
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

uint64_t launch_multistep_window(const uint32_t* src, uint32_t* dst, PackedFieldView window,
                                 int64_t keep_from, int64_t keep_to, int generations,
                                 const Rule& rule, cudaStream_t stream) {
  return launch_for_rule(BandField{src, dst, keep_from, keep_to}, window, Edge::kDead, generations,
                         rule, stream);
}

std::string describe_multistep(PackedFieldView field, const Rule& rule) {
  const Shape s = rule.is_conway() ? choose<FlatField>(field).shape : kGenericShape;
  const dim3 grid = grid_for(s, field);
  return "1 word x " + std::to_string(s.rows) + " rows a thread, " + std::to_string(s.warps) +
         " warps a block, " + std::to_string(grid.x) + " x " + std::to_string(grid.y) +
         " blocks, " + std::to_string(kGens) + " generations a launch";
}

}  // namespace gol::gpu
