// TorusBlocks: a busy torus stepped several generations per pass over
// memory. A generation at a time, a dense torus streams every tile from
// memory and back each generation, and two cores wait on memory (about
// 38 GB/s) for most of it. A block of n generations sweeps down the tile
// rows once, stepping row r to generation t+1, row r-1 to t+2, ..., row
// r-n+1 to t+n, so the rows in flight stay in the core's cache and the
// world crosses memory once per block rather than once per generation.
//
// Each thread sweeps a strip of tile rows. A strip's first rows need the
// rows above it at every generation of the block, which the strip above
// writes meanwhile, so the strip keeps private copies of the n rows beyond
// each edge at generation t and steps them too, in a shrinking trapezoid
// (row e of the halo reaches only the generations that rows already in it
// allow): a little work done twice, no waiting between threads.
//
// The two buffers of each tile hold generations by parity, as the sparse
// world keeps them, and writing generation g over g-2 is safe in this order:
// the three reads of g-2 (rows r-1, r, r+1 at g-1) come earlier in the
// sweep. The last two generations are noted and committed to the grid as a
// generation at a time would, so sleep and wake resume exactly after it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu/simd/parallel_step.h"
#include "engine/core/rule.h"
#include "sparse/sparse_grid.h"

namespace gol {

class TorusBlocks {
 public:
  // The generations the next block of a torus `tiles_x` tiles wide should
  // take, in strips of at least `strip_rows` rows, at most `remaining`,
  // with `cache_bytes` of cache a core; below 2, a generation at a time is
  // as good.
  static uint64_t depth_for(int64_t tiles_x, int64_t strip_rows, uint64_t remaining,
                            size_t cache_bytes);
  // The strips a torus `tiles_y` tiles high is swept in on `threads`
  // threads (one each, at least a row each), and the fewest rows one gets.
  static int64_t strip_count(int64_t tiles_y, int threads);
  static int64_t strip_rows(int64_t tiles_y, int threads);
  // The cache a core has to itself here (its L2), or a cautious guess.
  static size_t core_cache_bytes();

  // Steps every tile of `grid` (grid.suits_blocks()) `depth` >= 2
  // generations on `threads` strips, ending with the grid's
  // finish_generation(). Returns the tile generations computed, the
  // strips' halos included.
  uint64_t step(sparse::SparseGrid& grid, const Rule& rule, uint64_t depth,
                cpu::ParallelTileStepper& workers);

 private:
  // One thread's rows, with n halo rows above and below (see above).
  struct Strip {
    int64_t first_row = 0;  // the torus row of its first own row
    int64_t rows = 0;       // its own rows
    // Both generations' buffers of the halo rows (private to the strip).
    std::vector<Tile> halo;
    // By parity, then extended row (halo rows first and last) and column,
    // each row from column -1 to the width (torus_blocks.cpp's place()).
    std::vector<Tile*> tiles[2];
  };
  struct Sweep;

  void lay_out(sparse::SparseGrid& grid, size_t strips, uint64_t depth);

  std::vector<Strip> strips_;
};

}  // namespace gol
