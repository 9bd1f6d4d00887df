// The change record of a stepped tile: how its next generation differs from
// the generation it replaces. The SIMD kernel notes it while the new rows
// are still in registers, and the sparse world reads its sleep, wake and
// create decisions from it without touching the tile again.
//
// Bands. A tile's 64 rows form kTileBands bands of kBandRows rows; the
// sparse world steps only the bands whose inputs changed (a spark or a
// glider touching a tile costs a band or two, not the whole tile), and a
// band mask says which (bit b: rows kBandRows * b to kBandRows * b + 7).
// A band's inputs are its rows and the row beside each edge, so a change
// inside a band wakes that band alone.
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
  // Rows 0 and 63 of new, read where they are still in the writer's cache:
  // the commit decides its border from them, and a tile stepped in one
  // band would otherwise be read again there, from lines the step wrote
  // or kept a while before.
  uint64_t top_row = 0;
  uint64_t bottom_row = 0;
  // Rows known to equal what they replaced (bit r: row r); 0 (nothing
  // known) is always safe, as every row then counts as changed where
  // changed_columns is set.
  uint64_t unchanged_rows = 0;
  // Rows whose column 0 (west) or column 63 (east) is known unchanged:
  // they decide which bands of the west and east neighbours wake. 0 is
  // safe here too.
  uint64_t west_unchanged_rows = 0;
  uint64_t east_unchanged_rows = 0;
};

// What a tile's neighbours read of it, for a step that notes no more:
// its first and last rows, and the OR of its rows (bits 0 and 63 say
// whether its west and east columns hold a live cell); and where those
// borders differ from the generation the step wrote over (two before),
// which is what wakes a sleeping neighbour.
struct TileEdges {
  uint64_t top = 0;
  uint64_t bottom = 0;
  uint64_t live_columns = 0;
  uint64_t top_change = 0;
  uint64_t bottom_change = 0;
  uint64_t changed_columns = 0;  // OR over rows of (new ^ old)
};

// Bit b set where `rows` has a row of band b (bit r: row r).
constexpr BandMask bands_of_rows(uint64_t rows) {
  rows |= rows >> 4;
  rows |= rows >> 2;
  rows |= rows >> 1;
  // Bit 8b of `rows` now says whether band b has one; the product moves
  // it to bit 56 + b, and no two partial products meet or carry.
  constexpr uint64_t kFirstRows = 0x0101010101010101u;
  constexpr uint64_t kGather = 0x0102040810204080u;
  return static_cast<BandMask>(((rows & kFirstRows) * kGather) >> 56);
}

// Every row of the bands in `bands`.
constexpr uint64_t rows_of_bands(BandMask bands) {
  // Byte b of the product keeps bit b of its copy of `bands`; adding 0x7F
  // to each byte's low bits carries any of them into the byte's top bit.
  constexpr uint64_t kBytes = 0x0101010101010101u;
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Fu;
  const uint64_t picked = (bands * kBytes) & 0x8040201008040201u;
  const uint64_t nonzero = (((picked & kLow7) + kLow7) | picked) & ~kLow7;
  return (nonzero >> 7) * 0xFF;
}
static_assert(bands_of_rows(0) == 0 && bands_of_rows(~uint64_t{0}) == kAllBands);
static_assert(bands_of_rows(uint64_t{1} << 63 | uint64_t{1} << 8) == 0x82);
static_assert(rows_of_bands(0x81) == 0xFF000000000000FFu &&
              rows_of_bands(kAllBands) == ~uint64_t{0});

}  // namespace gol
