// The slot pool of tiles with cached neighbour links (see tile_map.h).
#include "sparse/tile_map.h"

#include "engine/core/error.h"

namespace gol::sparse {
namespace {

bool within_plane_range(TileCoord coord) {
  return coord.tx >= -kMaxTileCoordinate && coord.tx < kMaxTileCoordinate &&
         coord.ty >= -kMaxTileCoordinate && coord.ty < kMaxTileCoordinate;
}

}  // namespace

uint8_t border_occupancy(const Tile& tile) {
  uint64_t columns = 0;
  for (uint64_t row : tile.rows) columns |= row;
  return border_bits(tile.rows[0], tile.rows[kTileSize - 1], columns);
}

void TileMap::reset_plane() {
  torus_ = false;
  tiles_x_ = tiles_y_ = 0;
  for (int parity = 0; parity < 2; ++parity) {
    tiles_[parity].clear();
    summaries_[parity].clear();
  }
  neighbours_.clear();
  coords_.clear();
  in_use_.clear();
  free_slots_.clear();
  index_.clear();
  allocate_slot({});
  in_use_[kEmptySlot] = 0;
}

void TileMap::reset_torus(int64_t tiles_x, int64_t tiles_y) {
  reset_plane();
  reserve(static_cast<size_t>(tiles_x * tiles_y) + 1);
  torus_ = true;
  tiles_x_ = tiles_x;
  tiles_y_ = tiles_y;
  for (int64_t ty = 0; ty < tiles_y; ++ty) {
    for (int64_t tx = 0; tx < tiles_x; ++tx) create({tx, ty});
  }
}

void TileMap::reserve(size_t slots) {
  for (int parity = 0; parity < 2; ++parity) {
    tiles_[parity].reserve(slots);
    summaries_[parity].reserve(slots);
  }
  neighbours_.reserve(slots);
  coords_.reserve(slots);
  in_use_.reserve(slots);
}

int32_t TileMap::find(TileCoord coord) const { return index_.find(coord); }

TileCoord TileMap::neighbour_coord(TileCoord coord, int direction) const {
  TileCoord next{coord.tx + kDirectionDx[direction], coord.ty + kDirectionDy[direction]};
  if (torus_) next = {wrap(next.tx, tiles_x_), wrap(next.ty, tiles_y_)};
  return next;
}

int32_t TileMap::allocate_slot(TileCoord coord) {
  int32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
    for (int parity = 0; parity < 2; ++parity) {
      tiles_[parity][slot] = Tile{};
      summaries_[parity][slot] = Summary{};
    }
  } else {
    // Grow by a quarter, not the default doubling: the pool is most of the
    // engine's memory.
    if (coords_.size() == coords_.capacity()) reserve(coords_.size() + coords_.size() / 4 + 64);
    slot = static_cast<int32_t>(coords_.size());
    for (int parity = 0; parity < 2; ++parity) {
      tiles_[parity].emplace_back();
      summaries_[parity].emplace_back();
    }
    neighbours_.emplace_back();
    coords_.emplace_back();
    in_use_.push_back(0);
  }
  coords_[slot] = coord;
  in_use_[slot] = 1;
  return slot;
}

int32_t TileMap::create(TileCoord coord) {
  GOL_DCHECK(find(coord) == kAbsent);
  if (!torus_ && !within_plane_range(coord)) return kAbsent;
  const int32_t slot = allocate_slot(coord);
  index_.insert(coord, slot);
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = find(neighbour_coord(coord, direction));
    neighbours_[slot][direction] = other == kAbsent ? kEmptySlot : other;
    if (other != kAbsent) neighbours_[other][opposite(direction)] = slot;
  }
  return slot;
}

void TileMap::free(int32_t slot) {
  GOL_CHECK(!torus_ && in_use(slot));
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = neighbours_[slot][direction];
    if (other != kEmptySlot) neighbours_[other][opposite(direction)] = kEmptySlot;
  }
  index_.erase(coords_[slot]);
  in_use_[slot] = 0;
  free_slots_.push_back(slot);
}

}  // namespace gol::sparse
