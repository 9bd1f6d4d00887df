// The 64x64 bit-packed tile and the coordinate conventions every path shares.
//
// Coordinates are int64_t: x grows to the right, y grows downward (row 0 is
// the top, as in RLE). The tile at tile coordinates (tx, ty) covers cells
// x in [64*tx, 64*tx + 63] and y in [64*ty, 64*ty + 63].
//
// Bit order: bit i of rows[r] is the cell (64*tx + i, 64*ty + r). Bit 0 is
// the least significant bit, so the west-most cell of a row is bit 0 and the
// east-most is bit 63. A tile is exactly 512 bytes with no padding.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/bit_count.h"
#include "gol/geometry.h"  // Cell, BBox

namespace gol {

inline constexpr int kTileBits = 6;
inline constexpr int kTileSize = 1 << kTileBits;  // 64 cells a side

// Cache-line aligned: eight rows are one line, so SIMD row blocks never
// straddle two (misaligned pools cost the AVX-512 kernel about 20%).
struct alignas(64) Tile {
  std::array<uint64_t, kTileSize> rows{};

  bool get(int x, int y) const { return (rows[y] >> x) & 1u; }
  void set(int x, int y, bool alive) {
    const uint64_t bit = uint64_t{1} << x;
    rows[y] = alive ? (rows[y] | bit) : (rows[y] & ~bit);
  }
  // Bit x set: a live cell in column x.
  uint64_t live_columns() const {
    uint64_t columns = 0;
    for (uint64_t row : rows) columns |= row;
    return columns;
  }
  bool empty() const { return live_columns() == 0; }
  // Out of line (tile.cpp), where it is compiled for AVX-512's and
  // popcnt's population counts as well: a population or hash of a large
  // world reads every tile.
  uint64_t population() const;
  friend bool operator==(const Tile&, const Tile&) = default;
};
static_assert(sizeof(Tile) == 512, "a tile is 64 rows of 64 bits, no padding");

// Every way of counting a tile's cells that this CPU runs, the one
// population() uses first: each must count alike.
using TileCellCounter = uint64_t (*)(const uint64_t* rows);
std::vector<TileCellCounter> tile_cell_counters();

struct TileCoord {
  int64_t tx = 0;
  int64_t ty = 0;
  // Row-major order (by ty, then tx) so ordered containers list tiles as a
  // reader scans the plane.
  friend auto operator<=>(const TileCoord& a, const TileCoord& b) {
    if (auto c = a.ty <=> b.ty; c != 0) return c;
    return a.tx <=> b.tx;
  }
  friend bool operator==(const TileCoord&, const TileCoord&) = default;
};

// Floor division and modulo by a power-of-two tile size, correct for
// negative coordinates (plain / and % truncate toward zero).
constexpr int64_t tile_of(int64_t coordinate) { return coordinate >> kTileBits; }
constexpr int offset_in_tile(int64_t coordinate) {
  return static_cast<int>(coordinate & (kTileSize - 1));
}
constexpr TileCoord tile_coord_of(Cell c) { return {tile_of(c.x), tile_of(c.y)}; }

// Floor modulo for any positive modulus (torus wrapping).
constexpr int64_t wrap(int64_t value, int64_t modulus) {
  const int64_t r = value % modulus;
  return r < 0 ? r + modulus : r;
}

}  // namespace gol
