// The tiles of a world in a slot pool: two generations of every tile (the
// current one and the one before it), each held in one contiguous array,
// with each slot's eight neighbour slots cached so stepping never hashes.
// Slot 0 is a permanent empty tile that stands in for absent neighbours, so
// reading a neighbourhood takes no branches.
// On the plane, tiles are created and freed as activity moves; on a torus,
// every tile exists and neighbours wrap.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/core/tile.h"
#include "sparse/coord_index.h"

namespace gol::sparse {

// The eight neighbour directions, clockwise from north. A tile's border
// "facing" a direction is its row 0 (N), column 63 (E), row 63 (S),
// column 0 (W), or the corner cell between two of them.
enum Direction : int { kN, kNE, kE, kSE, kS, kSW, kW, kNW };
inline constexpr int kDirections = 8;
inline constexpr std::array<int, kDirections> kDirectionDx = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::array<int, kDirections> kDirectionDy = {-1, -1, 0, 1, 1, 1, 0, -1};
constexpr int opposite(int direction) { return (direction + 4) & 7; }

// Bit d set: the border facing direction d has a set bit, given a tile's
// top row, bottom row and the OR of all its rows.
constexpr uint8_t border_bits(uint64_t top, uint64_t bottom, uint64_t columns) {
  constexpr uint64_t kWest = 1;
  constexpr uint64_t kEast = uint64_t{1} << (kTileSize - 1);
  return static_cast<uint8_t>((top != 0) << kN | ((top & kEast) != 0) << kNE |
                              ((columns & kEast) != 0) << kE | ((bottom & kEast) != 0) << kSE |
                              (bottom != 0) << kS | ((bottom & kWest) != 0) << kSW |
                              ((columns & kWest) != 0) << kW | ((top & kWest) != 0) << kNW);
}
// Bit d set: the tile has a live cell on its border facing direction d.
uint8_t border_occupancy(const Tile& tile);

// Plane tiles are kept within this many tiles of the origin, so every cell
// coordinate of a tile fits in int64_t; activity beyond it is dropped.
inline constexpr int64_t kMaxTileCoordinate = (int64_t{1} << 56);

class TileMap {
 public:
  static constexpr int32_t kAbsent = CoordIndex::kAbsent;
  // The shared empty tile: never stepped, written, listed or freed.
  static constexpr int32_t kEmptySlot = 0;

  // What neighbours and the scheduler know about one generation of a slot
  // without reading its 512 bytes.
  struct Summary {
    uint8_t border = 0;    // border_occupancy()
    uint8_t nonempty = 0;  // any live cell
  };

  // An empty plane.
  void reset_plane();
  // A torus of tiles_x x tiles_y tiles, all present and empty.
  void reset_torus(int64_t tiles_x, int64_t tiles_y);
  // Room for `slots` tiles without reallocating.
  void reserve(size_t slots);

  bool is_torus() const { return torus_; }
  int32_t find(TileCoord coord) const;
  // Creates an empty tile (both generations zero) and links it with its
  // neighbours. Returns kAbsent, creating nothing, outside the plane's range.
  int32_t create(TileCoord coord);
  // Unlinks and recycles a plane tile.
  void free(int32_t slot);

  Tile& tile(int parity, int32_t slot) { return tiles_[parity][slot]; }
  const Tile& tile(int parity, int32_t slot) const { return tiles_[parity][slot]; }
  Summary& summary(int parity, int32_t slot) { return summaries_[parity][slot]; }
  const Summary& summary(int parity, int32_t slot) const { return summaries_[parity][slot]; }
  // Neighbour slots indexed by Direction; kEmptySlot where no tile exists.
  const std::array<int32_t, kDirections>& neighbours(int32_t slot) const {
    return neighbours_[slot];
  }
  TileCoord coord(int32_t slot) const { return coords_[slot]; }
  bool in_use(int32_t slot) const { return in_use_[slot] != 0; }

  // Slots ever allocated (in use, free or the empty slot): the valid range.
  size_t slot_count() const { return coords_.size(); }
  // Tiles held now.
  size_t size() const { return index_.size(); }

 private:
  TileCoord neighbour_coord(TileCoord coord, int direction) const;
  int32_t allocate_slot(TileCoord coord);

  bool torus_ = false;
  int64_t tiles_x_ = 0;
  int64_t tiles_y_ = 0;
  std::array<std::vector<Tile>, 2> tiles_;
  std::array<std::vector<Summary>, 2> summaries_;
  std::vector<std::array<int32_t, kDirections>> neighbours_;
  std::vector<TileCoord> coords_;
  std::vector<uint8_t> in_use_;
  std::vector<int32_t> free_slots_;
  CoordIndex index_;
};

}  // namespace gol::sparse
