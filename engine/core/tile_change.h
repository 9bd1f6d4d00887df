// The change record of a stepped tile: how its next generation differs from
// the generation it replaces. The SIMD kernel notes it while the new rows
// are still in registers, and the sparse world reads its sleep, wake and
// create decisions from it without touching the tile again.
#pragma once

#include <cstdint>

namespace gol {

struct TileChange {
  uint64_t changed_columns = 0;  // OR over the rows of (new ^ replaced)
  uint64_t live_columns = 0;     // OR over the rows of new
  uint64_t top_change = 0;       // row 0: new ^ replaced
  uint64_t bottom_change = 0;    // row 63: new ^ replaced
};

}  // namespace gol
