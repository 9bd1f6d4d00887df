// ParallelTileStepper: oneTBB workers in a private arena, each stepping a
// contiguous chunk of the batch with one kernel dispatch per chunk.
#include "cpu/simd/parallel_step.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <optional>

namespace gol::cpu {

namespace {

// Tiles per chunk: a chunk is about a microsecond of work (a tile takes
// 15-25 ns with AVX-512), enough to amortise TBB's per-task cost, while a
// batch of a thousand tiles still gives every worker several chunks.
constexpr size_t kTilesPerChunk = 64;

}  // namespace

struct ParallelTileStepper::Impl {
  Impl(int threads, SimdLibrary simd_library) : library(simd_library) {
    // TBB keeps one worker per hardware thread unless told otherwise; more
    // threads than that were asked for explicitly, so allow them.
    if (threads > tbb::info::default_concurrency()) {
      allow_workers.emplace(tbb::global_control::max_allowed_parallelism,
                            static_cast<size_t>(threads));
    }
    arena.initialize(threads > 0 ? threads : tbb::task_arena::automatic);
  }
  std::optional<tbb::global_control> allow_workers;
  tbb::task_arena arena;
  SimdLibrary library;
};

ParallelTileStepper::ParallelTileStepper(int threads, SimdLibrary library)
    : impl_(std::make_unique<Impl>(threads, library)) {}

ParallelTileStepper::~ParallelTileStepper() = default;

void ParallelTileStepper::step(const TileNeighbourhood* in, Tile* out, size_t count,
                               const Rule& rule) {
  if (count <= kTilesPerChunk) {
    step_tiles(in, out, count, rule, impl_->library);
    return;
  }
  const SimdLibrary library = impl_->library;
  impl_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, count, kTilesPerChunk),
        [&](const tbb::blocked_range<size_t>& chunk) {
          step_tiles(in + chunk.begin(), out + chunk.begin(), chunk.size(), rule, library);
        },
        tbb::simple_partitioner());
  });
}

void ParallelTileStepper::parallel_for(size_t count,
                                       const std::function<void(size_t, size_t)>& body) {
  if (count == 0) return;
  impl_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, count, kTilesPerChunk),
        [&](const tbb::blocked_range<size_t>& chunk) { body(chunk.begin(), chunk.end()); });
  });
}

int ParallelTileStepper::threads() const { return impl_->arena.max_concurrency(); }

SimdLibrary ParallelTileStepper::library() const { return impl_->library; }

}  // namespace gol::cpu
