// CellSet: live cells kept as bit-packed tiles in row-major tile order.
#include "engine/core/cell_set.h"

#include <algorithm>
#include <bit>

namespace gol {

bool CellSet::get(int64_t x, int64_t y) const {
  const Tile* t = find_tile({tile_of(x), tile_of(y)});
  return t != nullptr && t->get(offset_in_tile(x), offset_in_tile(y));
}

void CellSet::set(int64_t x, int64_t y, bool alive) {
  const TileCoord coord{tile_of(x), tile_of(y)};
  if (!alive) {
    auto it = tiles_.find(coord);
    if (it != tiles_.end()) it->second.set(offset_in_tile(x), offset_in_tile(y), false);
    return;
  }
  tiles_[coord].set(offset_in_tile(x), offset_in_tile(y), true);
}

const Tile* CellSet::find_tile(TileCoord coord) const {
  auto it = tiles_.find(coord);
  return it == tiles_.end() ? nullptr : &it->second;
}

void CellSet::put_tile(TileCoord coord, const Tile& tile) {
  if (tile.empty()) {
    tiles_.erase(coord);
  } else {
    tiles_[coord] = tile;
  }
}

void CellSet::prune_empty() {
  std::erase_if(tiles_, [](const auto& entry) { return entry.second.empty(); });
}

bool CellSet::empty() const {
  return std::all_of(tiles_.begin(), tiles_.end(),
                     [](const auto& entry) { return entry.second.empty(); });
}

uint64_t CellSet::population() const {
  uint64_t count = 0;
  for (const auto& [coord, tile] : tiles_) count += tile.population();
  return count;
}

std::optional<BBox> tile_bbox(TileCoord coord, const Tile& tile) {
  uint64_t columns = 0;
  int first_row = -1;
  int last_row = -1;
  for (int r = 0; r < kTileSize; ++r) {
    if (tile.rows[r] == 0) continue;
    columns |= tile.rows[r];
    if (first_row < 0) first_row = r;
    last_row = r;
  }
  if (columns == 0) return std::nullopt;
  const int64_t x0 = coord.tx * kTileSize;
  const int64_t y0 = coord.ty * kTileSize;
  return BBox{x0 + std::countr_zero(columns), y0 + first_row, x0 + 63 - std::countl_zero(columns),
              y0 + last_row};
}

void extend_bbox(std::optional<BBox>& box, const BBox& part) {
  if (!box) {
    box = part;
    return;
  }
  box->xmin = std::min(box->xmin, part.xmin);
  box->ymin = std::min(box->ymin, part.ymin);
  box->xmax = std::max(box->xmax, part.xmax);
  box->ymax = std::max(box->ymax, part.ymax);
}

std::optional<BBox> CellSet::bbox() const {
  std::optional<BBox> box;
  for (const auto& [coord, tile] : tiles_) {
    if (const std::optional<BBox> part = tile_bbox(coord, tile)) extend_bbox(box, *part);
  }
  return box;
}

std::vector<Cell> CellSet::cells() const {
  std::vector<Cell> out;
  for (const auto& [coord, tile] : tiles_) {
    for (int r = 0; r < kTileSize; ++r) {
      for (uint64_t bits = tile.rows[r]; bits != 0; bits &= bits - 1) {
        out.push_back({coord.tx * kTileSize + std::countr_zero(bits), coord.ty * kTileSize + r});
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void CellSet::or_tile_at(TileCoord at, int dx, int dy, const Tile& tile) {
  // Targets [row band][column]: row band 1 and column 1 are the tiles below
  // and to the right of `at`, found once each rather than per row.
  Tile* targets[2][2] = {};
  const auto target = [&](int band, int column) -> Tile& {
    Tile*& t = targets[band][column];
    if (t == nullptr) t = &tiles_[{at.tx + column, at.ty + band}];
    return *t;
  };
  for (int r = 0; r < kTileSize; ++r) {
    const uint64_t row = tile.rows[r];
    if (row == 0) continue;
    const int band = (dy + r) >> kTileBits;
    const int target_row = (dy + r) & (kTileSize - 1);
    const uint64_t left = row << dx;
    const uint64_t right = dx == 0 ? 0 : row >> (kTileSize - dx);
    if (left != 0) target(band, 0).rows[target_row] |= left;
    if (right != 0) target(band, 1).rows[target_row] |= right;
  }
}

CellSet CellSet::translated(int64_t dx, int64_t dy) const {
  CellSet out;
  for (const auto& [coord, tile] : tiles_) {
    const int64_t x = coord.tx * kTileSize + dx;
    const int64_t y = coord.ty * kTileSize + dy;
    out.or_tile_at({tile_of(x), tile_of(y)}, offset_in_tile(x), offset_in_tile(y), tile);
  }
  return out;
}

CellSet CellSet::wrapped(int64_t width, int64_t height) const {
  CellSet out;
  const bool aligned = width % kTileSize == 0;
  const bool rows_aligned = aligned && height % kTileSize == 0;
  for (const auto& [coord, tile] : tiles_) {
    if (rows_aligned) {
      // A whole tile lands on one tile, its rows in the same order.
      Tile& target = out.tile({tile_of(wrap(coord.tx * kTileSize, width)),
                               tile_of(wrap(coord.ty * kTileSize, height))});
      for (int r = 0; r < kTileSize; ++r) target.rows[r] |= tile.rows[r];
      continue;
    }
    if (aligned) {
      // Whole rows stay within one tile column when the width is a multiple of 64.
      for (int r = 0; r < kTileSize; ++r) {
        if (tile.rows[r] == 0) continue;
        const int64_t x = wrap(coord.tx * kTileSize, width);
        const int64_t y = wrap(coord.ty * kTileSize + r, height);
        out.tile({tile_of(x), tile_of(y)}).rows[offset_in_tile(y)] |= tile.rows[r];
      }
      continue;
    }
    for (int r = 0; r < kTileSize; ++r) {
      for (uint64_t bits = tile.rows[r]; bits != 0; bits &= bits - 1) {
        out.set(wrap(coord.tx * kTileSize + std::countr_zero(bits), width),
                wrap(coord.ty * kTileSize + r, height));
      }
    }
  }
  out.prune_empty();
  return out;
}

bool operator==(const CellSet& a, const CellSet& b) {
  auto ia = a.tiles_.begin();
  auto ib = b.tiles_.begin();
  const auto skip_empty = [](auto& it, auto end) {
    while (it != end && it->second.empty()) ++it;
  };
  while (true) {
    skip_empty(ia, a.tiles_.end());
    skip_empty(ib, b.tiles_.end());
    if (ia == a.tiles_.end() || ib == b.tiles_.end()) {
      return ia == a.tiles_.end() && ib == b.tiles_.end();
    }
    if (ia->first != ib->first || ia->second != ib->second) return false;
    ++ia;
    ++ib;
  }
}

}  // namespace gol
