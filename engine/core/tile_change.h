// The change record of a stepped tile: how its next generation differs from
// the generation it replaces. The SIMD kernel notes it while the new rows
// are still in registers, and the sparse world reads its sleep, wake and
// create decisions from it without touching the tile again.
//
// Bands. A tile's 64 rows form kTileBands bands of kBandRows rows; the
// sparse world steps only the bands whose inputs changed (a spark or a
// glider touching a tile costs a band or two, not the whole tile), and a
// band mask says which (bit b: rows kBandRows * b to kBandRows * b + 7).
#pragma once

#include <cstdint>

#include "engine/core/tile.h"

namespace gol {

inline constexpr int kBandRows = 8;
inline constexpr int kTileBands = kTileSize / kBandRows;
using BandMask = uint8_t;
inline constexpr BandMask kAllBands = 0xFF;
static_assert(kTileBands == 8, "a band mask is one byte");

// The bands set in `bands`.
constexpr int band_count(BandMask bands) { return bit_count(bands); }
static_assert(band_count(0) == 0 && band_count(0xFF) == 8 && band_count(0x5A) == 4);

struct TileChange {
  uint64_t changed_columns = 0;  // OR over the rows of (new ^ replaced)
  uint64_t live_columns = 0;     // OR over the rows of new
  uint64_t top_change = 0;       // row 0: new ^ replaced
  uint64_t bottom_change = 0;    // row 63: new ^ replaced
  // Bands known to equal what they replaced; 0 (nothing known) is always
  // safe, as every band then counts as changed where changed_columns is set.
  BandMask unchanged_bands = 0;
};

}  // namespace gol
