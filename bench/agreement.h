// The check every bench run ends with (as rokicki/lifealg's driver does):
// all backends on a workload, and Golly where it ran, must agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_result.h"
#include "engine/core/cell_set.h"

namespace gol::bench {

// A hash of a set of cells fed one tile at a time, in any order: each
// non-empty tile's coordinates and rows are hashed alone and the tile
// hashes summed, so a world can be hashed where it is held (a backend's
// tiles in slot order) and equal cell sets hash equal whatever empty tiles
// they hold.
class CellHasher {
 public:
  void add(TileCoord coord, const Tile& tile);
  uint64_t value() const { return sum_; }

 private:
  uint64_t sum_ = 0;
};

// CellHasher over cells' tiles.
uint64_t cell_hash(const CellSet& cells);

// cell_hash of the cells moved so their bounding box starts at (0, 0): what
// can be compared with a pattern file that records no origin.
uint64_t shape_hash(const CellSet& cells);

struct Disagreement {
  std::string workload;
  std::string message;
};

// Per workload, compares every result with the first of our backends (or,
// where none ran, the first result):
// population always, cell_hash between our backends, shape_hash where both
// sides have one. Empty when all agree.
std::vector<Disagreement> check_agreement(const std::vector<RunResult>& results);

}  // namespace gol::bench
