// ParallelTileStepper: oneTBB workers in a private arena, each stepping a
// contiguous chunk of the batch with one kernel dispatch per chunk.
#include "cpu/simd/parallel_step.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <utility>

#include "engine/core/error.h"

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

// The tokens of a crew's tasks' start (see with_crew) and of the chunks of
// fork_join_for. They are static because a chunk must acquire its token
// before it reads anything of its own closure.
int crew_tasks = 0;
int chunk_start = 0;
int chunk_done = 0;

// A parallel_for body that tells ThreadSanitizer about its copies: TBB
// copies the body into its task objects in instrumented header code and
// hands the tasks to workers through the uninstrumented libtbb, so a
// worker's first read of its copy would otherwise look like a race with
// the thread that made the copy.
template <typename Body>
class AnnotatedChunks {
 public:
  explicit AnnotatedChunks(const Body& body) : body_(&body) {}
  AnnotatedChunks(const AnnotatedChunks& other) : body_(other.body_) {
    fork_join_release(&chunk_start);
  }
  AnnotatedChunks& operator=(const AnnotatedChunks&) = delete;

  // A chunk that throws releases too: TBB carries its exception to the
  // caller through libtbb, and the caller destroys what this thread made.
  void operator()(const tbb::blocked_range<size_t>& chunk) const {
    fork_join_acquire(&chunk_start);
    try {
      (*body_)(chunk.begin(), chunk.end());
    } catch (...) {
      fork_join_release(&chunk_done);
      throw;
    }
    fork_join_release(&chunk_done);
  }

 private:
  const Body* body_;
};

// A task_group task annotated as AnnotatedChunks is: TBB moves the functor
// into its task object on the caller's thread.
template <typename Task>
class AnnotatedTask {
 public:
  explicit AnnotatedTask(Task task) : task_(std::move(task)) {}
  AnnotatedTask(const AnnotatedTask& other) : task_(other.task_) { fork_join_release(&crew_tasks); }
  AnnotatedTask(AnnotatedTask&& other) noexcept : task_(std::move(other.task_)) {
    fork_join_release(&crew_tasks);
  }
  AnnotatedTask& operator=(const AnnotatedTask&) = delete;

  void operator()() const {
    fork_join_acquire(&crew_tasks);
    task_();
  }

 private:
  Task task_;
};

// body(begin, end) over chunks of [0, count) of at least `grain`, on the
// arena's workers, with the fork and the join told to ThreadSanitizer.
template <typename Partitioner, typename Body>
void fork_join_for(tbb::task_arena& arena, size_t count, size_t grain,
                   const Partitioner& partitioner, const Body& body) {
  fork_join_release(&chunk_start);
  const AnnotatedChunks<Body> chunks(body);
  try {
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(0, count, grain), chunks, partitioner);
    });
  } catch (...) {
    fork_join_acquire(&chunk_done);
    throw;
  }
  fork_join_acquire(&chunk_done);
}

}  // namespace

void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

void ParallelTileStepper::step(const TileNeighbourhood* in, Tile* out, size_t count,
                               const Rule& rule) {
  if (count <= kTilesPerChunk) {
    step_tiles(in, out, count, rule, impl_->library);
    return;
  }
  const SimdLibrary library = impl_->library;
  fork_join_for(impl_->arena, count, kTilesPerChunk, tbb::simple_partitioner(),
                [&](size_t begin, size_t end) {
                  step_tiles(in + begin, out + begin, end - begin, rule, library);
                });
}

void ParallelTileStepper::parallel_for(size_t count,
                                       const std::function<void(size_t, size_t)>& body) {
  if (count == 0) return;
  fork_join_for(impl_->arena, count, kTilesPerChunk, tbb::auto_partitioner(), body);
}

void ParallelTileStepper::run_tasks(size_t count, const std::function<void(size_t)>& task) const {
  if (count == 0) return;
  fork_join_for(impl_->arena, count, 1, tbb::simple_partitioner(), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) task(i);
  });
}

namespace {

// A share's word: the pass (24 bits), the next chunk to take and the end
// of the share (20 bits each), so that a member still finishing one pass
// can never take a chunk of the next, nor read one pass's share with the
// other's bounds.
constexpr int kSharePassShift = 40;
constexpr int kNextShift = 20;
constexpr uint64_t kChunkFieldMask = (uint64_t{1} << 20) - 1;
constexpr uint64_t kSharePassMask = (uint64_t{1} << 24) - 1;
// Chunks of a pass: a share's 20-bit fields.
constexpr uint64_t kMaxChunks = kChunkFieldMask;

uint64_t share_word(uint64_t pass, uint64_t next, uint64_t end) {
  return (pass & kSharePassMask) << kSharePassShift | next << kNextShift | end;
}
uint64_t share_pass(uint64_t word) { return word >> kSharePassShift; }
uint64_t share_next(uint64_t word) { return word >> kNextShift & kChunkFieldMask; }
uint64_t share_end(uint64_t word) { return word & kChunkFieldMask; }

// The fewest chunks a member's share holds: past that, another member's
// share of the tiles costs more in cache lines crossing between cores than
// it saves (on the 16-core H100 host, passes of 800 to 2400 tiles in chunks
// of 32 ran fastest with shares of about 100 to 300 tiles).
constexpr uint64_t kChunksPerMember = 4;

// How long a worker spins before it sleeps until the next pass: longer
// than the serial end of a busy generation (tens of microseconds), short
// enough that a sibling hyperthread or another process gets the core back
// soon when passes stop coming.
constexpr std::chrono::microseconds kSpinBeforeSleep{100};
// Pauses between looks at the clock.
constexpr int kPausesPerClockRead = 64;

}  // namespace

WorkerCrew::WorkerCrew(int threads, ParallelTileStepper* fallback)
    : threads_(threads),
      fallback_(fallback),
      shares_(fallback == nullptr ? static_cast<size_t>(threads) : 0) {}

uint64_t WorkerCrew::share_begin(int member, int members, uint64_t chunks) {
  return chunks * static_cast<uint64_t>(member) / static_cast<uint64_t>(members);
}

bool WorkerCrew::take_from(int owner, uint64_t pass, uint64_t& chunk) {
  std::atomic<uint64_t>& next = shares_[static_cast<size_t>(owner)].next;
  uint64_t word = next.load(std::memory_order_acquire);
  while (share_pass(word) == (pass & kSharePassMask) && share_next(word) < share_end(word)) {
    if (next.compare_exchange_weak(word, word + (uint64_t{1} << kNextShift),
                                   std::memory_order_acq_rel, std::memory_order_acquire)) {
      chunk = share_next(word);
      return true;
    }
  }
  return false;
}

void WorkerCrew::take_chunks(int member, uint64_t pass) {
  // Read after the pass: a newer pass's count only changes who helps,
  // never which chunks exist.
  const int members = members_.load(std::memory_order_relaxed);
  if (member >= members) return;
  // Counted once for all this member took: every count is a trip of the
  // counter's cache line between the cores.
  uint32_t done = 0;
  for (int offset = 0; offset < members; ++offset) {
    const int owner = (member + offset) % members;
    uint64_t chunk = 0;
    while (take_from(owner, pass, chunk)) {
      // The pass is not done while this chunk is not counted, so its
      // fields hold.
      const size_t begin = static_cast<size_t>(chunk) * chunk_;
      (*body_)(begin, std::min(count_, begin + chunk_));
      ++done;
    }
  }
  if (done != 0) chunks_done_.fetch_add(done, std::memory_order_release);
}

void WorkerCrew::serve(int member) {
  fork_join_acquire(this);
  while (!stopping_.load(std::memory_order_acquire)) {
    const uint64_t seen = pass_.load(std::memory_order_acquire);
    take_chunks(member, seen);
    const auto sleep_at = std::chrono::steady_clock::now() + kSpinBeforeSleep;
    bool sleepy = false;
    for (int spins = 1; pass_.load(std::memory_order_acquire) == seen &&
                        !stopping_.load(std::memory_order_acquire);
         ++spins) {
      if (sleepy) {
        pass_.wait(seen, std::memory_order_acquire);
      } else {
        spin_pause();
        if (spins % kPausesPerClockRead == 0) sleepy = std::chrono::steady_clock::now() >= sleep_at;
      }
    }
  }
  fork_join_release(this);
}

void WorkerCrew::stop() {
  stopping_.store(true, std::memory_order_release);
  // A new pass, so that sleeping workers wake and see the flag.
  pass_.fetch_add(1, std::memory_order_acq_rel);
  pass_.notify_all();
}

void WorkerCrew::parallel_for(size_t count, size_t chunk,
                              const std::function<void(size_t, size_t)>& body) {
  if (count == 0) return;
  if (fallback_ != nullptr) {
    fallback_->parallel_for(count, body);
    return;
  }
  chunk = std::max(chunk, (count + kMaxChunks - 1) / kMaxChunks);
  const uint64_t chunks = (count + chunk - 1) / chunk;
  run_pass(count, chunk,
           static_cast<int>(
               std::clamp<uint64_t>(chunks / kChunksPerMember, 1, static_cast<uint64_t>(threads_))),
           body);
}

void WorkerCrew::run_tasks(size_t count, const std::function<void(size_t)>& task) {
  if (count == 0) return;
  if (fallback_ != nullptr) {
    fallback_->run_tasks(count, task);
    return;
  }
  GOL_CHECK(count <= kMaxChunks);
  // A pass's body must not throw: each task's exception waits for the pass.
  std::vector<std::exception_ptr> errors(count);
  run_pass(count, 1, static_cast<int>(std::min<size_t>(count, static_cast<size_t>(threads_))),
           [&](size_t begin, size_t end) {
             for (size_t i = begin; i < end; ++i) {
               try {
                 task(i);
               } catch (...) {
                 errors[i] = std::current_exception();
               }
             }
           });
  for (const std::exception_ptr& error : errors) {
    if (error != nullptr) std::rethrow_exception(error);
  }
}

void WorkerCrew::run_pass(size_t count, size_t chunk, int members,
                          const std::function<void(size_t, size_t)>& body) {
  const uint64_t chunks = (count + chunk - 1) / chunk;
  body_ = &body;
  count_ = count;
  chunk_ = chunk;
  chunks_done_.store(0, std::memory_order_relaxed);
  const uint64_t pass = pass_.load(std::memory_order_relaxed) + 1;
  members_.store(members, std::memory_order_relaxed);
  for (int member = 0; member < members; ++member) {
    shares_[static_cast<size_t>(member)].next.store(
        share_word(pass, share_begin(member, members, chunks),
                   share_begin(member + 1, members, chunks)),
        std::memory_order_release);
  }
  pass_.store(pass, std::memory_order_release);
  pass_.notify_all();
  take_chunks(0, pass);
  while (chunks_done_.load(std::memory_order_acquire) < chunks) spin_pause();
}

void ParallelTileStepper::with_crew(const std::function<void(WorkerCrew&)>& session) {
  const int threads = this->threads();
  if (threads <= 1 || threads > tbb::info::default_concurrency()) {
    WorkerCrew crew(threads, this);
    session(crew);
    return;
  }
  WorkerCrew crew(threads, nullptr);
  fork_join_release(&crew);
  impl_->arena.execute([&] {
    tbb::task_group workers;
    for (int member = 1; member < threads; ++member) {
      workers.run(AnnotatedTask([&crew, member] { crew.serve(member); }));
    }
    try {
      session(crew);
    } catch (...) {
      crew.stop();
      workers.wait();
      throw;
    }
    crew.stop();
    workers.wait();
  });
  fork_join_acquire(&crew);
}

void ParallelTileStepper::alone(const std::function<void(WorkerCrew&)>& session) {
  WorkerCrew crew(1, nullptr);
  session(crew);
}

int ParallelTileStepper::threads() const { return impl_->arena.max_concurrency(); }

SimdLibrary ParallelTileStepper::library() const { return impl_->library; }

}  // namespace gol::cpu
