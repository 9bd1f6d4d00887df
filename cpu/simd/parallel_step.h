// Steps a batch of tiles on oneTBB workers with the SIMD kernel. No TBB
// types here; results never depend on the thread count.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "cpu/simd/tile_step.h"

namespace gol::cpu {

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
  int threads() const;
  SimdLibrary library() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gol::cpu
