// The exchange between strips at the end of an epoch (GridStepper's
// strips, see sparse::SparseGrid::kMaxStripEpoch): each strip takes, of
// the columns beside its ends that a neighbour owns, what changed there,
// into its ghost and frozen copies.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/tile.h"
#include "sparse/sparse_grid.h"

namespace gol {

// What a strip takes of its neighbours between epochs, gathered while
// every strip is only read and then applied by each strip's own thread, so
// that the strips exchange concurrently: the tiles of the columns it
// ghosts or freezes that either side changed since they were made equal,
// both generations of each, and its own tiles there that the neighbour
// lacks (to be emptied).
struct StripImports {
  struct Taken {
    TileCoord coord;
    Tile current;
    Tile previous;
  };
  std::vector<Taken> taken;
  std::vector<int32_t> emptied;
  std::vector<int32_t> imported;  // the slots that changed, to plan near

  void clear() {
    taken.clear();
    emptied.clear();
    imported.clear();
  }
};

// Notes in `imports` what makes `into`'s tiles in `column` (ghosts or
// frozen) what `from` holds there (its own tiles, absent ones empty),
// given that at generation `since` the last exchange or cut made them
// equal: `into` then held every tile that `from` held there but empty
// ones, and each held the same. Only what changed since is looked at:
// `from`'s tiles changed or made since, `into`'s, and those `from` freed
// (SparseGrid::freed_near_ends()). Each tile held in the column is read
// for its generation stamp; the coordinate index, a cache miss a lookup,
// is asked only about those that changed.
void gather_column(const sparse::SparseGrid& into, const sparse::SparseGrid& from, int64_t column,
                   uint64_t since, StripImports& imports);

// Applies what gather_column() noted, the neighbour's tiles first:
// importing one may make an absent neighbour in a column (empty, beside a
// live border), which must then still take the neighbour's tile there; one
// made where the neighbour has none is empty already. Notes the slots that
// changed in imports.imported.
void apply_imports(sparse::SparseGrid& into, StripImports& imports);

}  // namespace gol
