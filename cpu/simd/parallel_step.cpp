// ParallelTileStepper: oneTBB workers in a private arena, each stepping a
// contiguous chunk of the batch with one kernel dispatch per chunk.
#include "cpu/simd/parallel_step.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

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

namespace {

// oneTBB hands chunks to its workers and joins them through the
// uninstrumented libtbb, so ThreadSanitizer cannot see that what the caller
// wrote before a parallel_for happens before every chunk, and every chunk
// before the parallel_for returns. These tell it, so that what it reports
// is a race in our code; they compile to nothing in other builds.
#if defined(__SANITIZE_THREAD__)
void fork_join_acquire(void* token) { __tsan_acquire(token); }
void fork_join_release(void* token) { __tsan_release(token); }
#else
void fork_join_acquire(void*) {}
void fork_join_release(void*) {}
#endif

}  // namespace

void ParallelTileStepper::step(const TileNeighbourhood* in, Tile* out, size_t count,
                               const Rule& rule) {
  if (count <= kTilesPerChunk) {
    step_tiles(in, out, count, rule, impl_->library);
    return;
  }
  const SimdLibrary library = impl_->library;
  int start = 0;
  int done = 0;
  fork_join_release(&start);
  impl_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, count, kTilesPerChunk),
        [&](const tbb::blocked_range<size_t>& chunk) {
          fork_join_acquire(&start);
          step_tiles(in + chunk.begin(), out + chunk.begin(), chunk.size(), rule, library);
          fork_join_release(&done);
        },
        tbb::simple_partitioner());
  });
  fork_join_acquire(&done);
}

void ParallelTileStepper::parallel_for(size_t count,
                                       const std::function<void(size_t, size_t)>& body) {
  if (count == 0) return;
  int start = 0;
  int done = 0;
  fork_join_release(&start);
  impl_->arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, count, kTilesPerChunk),
                      [&](const tbb::blocked_range<size_t>& chunk) {
                        fork_join_acquire(&start);
                        body(chunk.begin(), chunk.end());
                        fork_join_release(&done);
                      });
  });
  fork_join_acquire(&done);
}

int ParallelTileStepper::threads() const { return impl_->arena.max_concurrency(); }

SimdLibrary ParallelTileStepper::library() const { return impl_->library; }

}  // namespace gol::cpu
