// TorusBlocks: a busy torus stepped several generations per pass over
// memory. A generation at a time, a dense torus streams every tile from
// memory and back each generation, and two cores wait on memory (about
// 38 GB/s) for most of it. A block of n generations sweeps the tile rows
// once, stepping row r to generation t+1, the row before it to t+2, ...,
// the row n-1 before it to t+n, so the rows in flight stay in the core's
// cache and the world crosses memory once per block rather than once per
// generation.
//
// Strips. The torus's rows are split into an even number of strips,
// swept alternately downwards and upwards, so that where two strips meet
// both reach the rows they share at the same time: both start there, or
// both end there. A strip's row on such an edge reads the other strip's
// edge row one generation behind, and overwrites what that row read, so
// the first waits until the other's edge row has reached the generation
// before its own; nothing else is shared. No work is done twice and no
// strip copies another's rows. (Sweeping every strip the same way, the
// first row of each would need the last row of the strip above, which
// comes at the end of that strip's sweep.)
//
// The two buffers of each tile hold generations by parity, as the sparse
// world keeps them, and writing generation g over g-2 is safe in sweep
// order: the three reads of g-2 (the rows either side and the row itself,
// at g-1) come earlier. The last two generations are noted and committed
// to the grid as a generation at a time would, so sleep and wake resume
// after the block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/simd/parallel_step.h"
#include "engine/core/rule.h"
#include "sparse/sparse_grid.h"

namespace gol {

class TorusBlocks {
 public:
  TorusBlocks();
  ~TorusBlocks();
  TorusBlocks(const TorusBlocks&) = delete;
  TorusBlocks& operator=(const TorusBlocks&) = delete;

  // The generations the next block of a torus `tiles_x` tiles wide should
  // take, at most `remaining`, with `cache_bytes` of cache a core; below 2,
  // a generation at a time is as good.
  static uint64_t depth_for(int64_t tiles_x, uint64_t remaining, size_t cache_bytes);
  // The deeper of depth_for() with a core's own cache (`core_bytes`, its
  // L2) and with its share of the cache the cores share (`shared_bytes`,
  // the L3 over the threads). Rows read from L3 cost less than a sweep
  // over memory more often: on the dev machine, the 8192^2 torus (200
  // generations, two threads) took 0.059 s in the L2's blocks of 5 and
  // 0.052 s in blocks of 16, the 16384^2 torus 0.101 s in blocks of 5 and
  // 0.081 s in blocks of 16, and a 32768^2 torus 0.90 s a generation at a
  // time against 0.50 s in blocks of 16 (bench/RESULTS.md). Blocks are at
  // most 32 deep (torus_blocks.cpp's kMaxDepth says why).
  static uint64_t choose_depth(int64_t tiles_x, uint64_t remaining, size_t core_bytes,
                               size_t shared_bytes);
  // The cache a core has to itself here (its L2), or a cautious guess; the
  // cache the cores share (L3), or 0 where none is reported.
  static size_t core_cache_bytes();
  static size_t shared_cache_bytes();
  // The strips a torus `tiles_y` tiles high is swept in on `threads`
  // threads: an even number, at least the threads, at most the rows (one
  // strip where there is one row).
  static int64_t strip_count(int64_t tiles_y, int threads);

  // Steps every tile of `grid` (grid.suits_blocks()) `depth` >= 2
  // generations, ending with the grid's finish_generation().
  void step(sparse::SparseGrid& grid, const Rule& rule, uint64_t depth,
            cpu::ParallelTileStepper& workers);

 private:
  struct Strip;
  struct Sweep;

  // Lists every tile's buffers in tiles_, unless they are listed already.
  void list_tiles(sparse::SparseGrid& grid);

  // Every tile's buffers, by parity, then torus row and column, each row
  // from column -1 to the width (torus_blocks.cpp's place()), as they were
  // at the tile map's pairs_version() `listed_version_` (0: never).
  std::vector<Tile*> tiles_[2];
  uint64_t listed_version_ = 0;
  std::vector<std::unique_ptr<Strip>> strips_;
};

}  // namespace gol
