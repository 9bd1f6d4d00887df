// Steps a batch of tiles on oneTBB workers with the SIMD kernel. No TBB
// types here; results never depend on the thread count.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cpu/simd/tile_step.h"

namespace gol::cpu {

// One spin of a waiting thread: tells the core (and a hyperthread sibling)
// that this is a wait loop.
void spin_pause();

// Workers kept spinning through a run of short parallel passes (one per
// generation of a sparse world), so that handing out a pass costs about a
// cache line's trip rather than waking sleeping threads, which takes
// microseconds and dominated generations of a few thousand tiles. Each
// member first takes the chunks of its own share of a pass (the same part
// of the range every pass, so a world's tiles stay in the caches of the
// core that steps them), then helps with what others have left; small
// passes go to fewer members. Made by
// ParallelTileStepper::with_crew(); its passes run on the caller's thread.
class ParallelTileStepper;

class WorkerCrew {
 public:
  // Runs body(begin, end) over [0, count) in chunks of at most `chunk`, on
  // the crew and the calling thread, and returns when every chunk is done.
  // `body` must not throw (a throw ends the program).
  void parallel_for(size_t count, size_t chunk, const std::function<void(size_t, size_t)>& body);
  // Runs task(i) for each i < count, member i taking task i (pass after
  // pass the same thread, so a task's data stays in its core's cache; with
  // more tasks than members, each takes a run of them), and a member done
  // early taking what is left of a late one's. For a few long pieces of
  // work, such as a world's strips, that parallel_for() would give to
  // fewer members. What a task throws is thrown here once every task is
  // done (the lowest task's, where several throw), as without a crew.
  void run_tasks(size_t count, const std::function<void(size_t)>& task);
  // Whether workers spin for the passes; if not, each pass wakes them.
  bool spinning() const { return fallback_ == nullptr && threads_ > 1; }

 private:
  friend class ParallelTileStepper;
  // `fallback`: the stepper whose parallel_for() runs the passes of a crew
  // with no spinning workers; null when it has them.
  WorkerCrew(int threads, ParallelTileStepper* fallback);
  // Member `member`'s side (1..threads-1; the caller is 0): takes chunks
  // of each pass until stop().
  void serve(int member);
  void stop();
  // Publishes a pass of `count` items in chunks of `chunk` among `members`
  // and takes part in it until every chunk is done.
  void run_pass(size_t count, size_t chunk, int members,
                const std::function<void(size_t, size_t)>& body);
  // Takes and runs chunks of pass `pass`, this member's own share first,
  // then what is left of the others', while any remain.
  void take_chunks(int member, uint64_t pass);
  // Takes the next chunk of `owner`'s share of pass `pass`; false when the
  // share is spent or holds another pass.
  bool take_from(int owner, uint64_t pass, uint64_t& chunk);
  // Where member `member`'s share of a pass of `chunks` among `members`
  // begins (and member - 1's ends).
  static uint64_t share_begin(int member, int members, uint64_t chunks);

  // A member's share of the current pass: the pass, the next chunk to take
  // and the share's end, in one word (parallel_step.cpp) so that a chunk is
  // taken only from the pass it belongs to. A cache line each: every take
  // writes it.
  struct alignas(64) Share {
    std::atomic<uint64_t> next{0};
  };

  int threads_;
  ParallelTileStepper* fallback_;
  // The current pass's number: a new one is what wakes the members.
  std::atomic<uint64_t> pass_{0};
  std::vector<Share> shares_;
  // The members taking part in the current pass (0..members-1): passes of
  // a few chunks are shared among few.
  std::atomic<int> members_{1};
  // A line of its own: the members' counts and the caller's wait for them
  // would otherwise move the line the spinning members read pass_ from.
  alignas(64) std::atomic<uint32_t> chunks_done_{0};
  std::atomic<bool> stopping_{false};
  // Set before a pass is published; read by members only after taking one
  // of its chunks, so never while the next pass's are written.
  const std::function<void(size_t, size_t)>* body_ = nullptr;
  size_t count_ = 0;
  size_t chunk_ = 0;
};

class ParallelTileStepper {
 public:
  // threads == 0: one worker per hardware thread.
  ParallelTileStepper(int threads, SimdLibrary library);
  ~ParallelTileStepper();
  ParallelTileStepper(const ParallelTileStepper&) = delete;
  ParallelTileStepper& operator=(const ParallelTileStepper&) = delete;

  // step_tiles over the batch, split into chunks across the workers.
  void step(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule);
  // Runs body(begin, end) over [0, count) on the same workers; for the
  // scheduler's bookkeeping passes.
  void parallel_for(size_t count, const std::function<void(size_t, size_t)>& body);
  // Runs task(i) for each i < count, each its own task on the workers: for
  // a few long pieces of work (a torus's strips), which parallel_for()
  // would hand to one thread as one chunk.
  void run_tasks(size_t count, const std::function<void(size_t)>& task) const;
  // Runs session(crew) with the other threads() - 1 workers spinning in
  // `crew` meanwhile, ready for its passes. With one thread, or more
  // threads than the hardware runs at once (where spinning would take the
  // cores the others need), the crew has no spinning workers and its
  // passes run as parallel_for() does.
  void with_crew(const std::function<void(WorkerCrew&)>& session);
  // Runs session(crew) with a crew of the calling thread alone, whose
  // passes wake no worker: for work shorter than waking them takes.
  static void alone(const std::function<void(WorkerCrew&)>& session);
  int threads() const;
  SimdLibrary library() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gol::cpu
