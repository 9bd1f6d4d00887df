// CellSet <-> packed field images and the plane region choice.
#include "gpu/packed_layout.h"

#include <algorithm>

#include "engine/core/error.h"

namespace gol::gpu {

HostField pack_cells(const CellSet& cells, const TileRegion& region, bool wrap) {
  HostField field(static_cast<size_t>(region.tile_row_count()), 0);
  for (const auto& [coord, tile] : cells.tiles()) {
    int64_t col = coord.tx - region.origin_tx;
    int64_t row = coord.ty - region.origin_ty;
    if (wrap) {
      col = gol::wrap(col, region.tile_cols);
      row = gol::wrap(row, region.tile_rows);
    }
    GOL_CHECK(col >= 0 && col < region.tile_cols && row >= 0 && row < region.tile_rows);
    for (int r = 0; r < kTileSize; ++r) {
      field[static_cast<size_t>((row * kTileSize + r) * region.tile_cols + col)] |= tile.rows[r];
    }
  }
  return field;
}

CellSet unpack_cells(const HostField& field, const TileRegion& region) {
  CellSet cells;
  for (int64_t row = 0; row < region.tile_rows; ++row) {
    for (int64_t col = 0; col < region.tile_cols; ++col) {
      Tile tile;
      for (int r = 0; r < kTileSize; ++r) {
        tile.rows[r] = field[static_cast<size_t>((row * kTileSize + r) * region.tile_cols + col)];
      }
      if (!tile.empty()) {
        cells.put_tile({region.origin_tx + col, region.origin_ty + row}, tile);
      }
    }
  }
  return cells;
}

TileRegion plane_region_around(const std::optional<BBox>& live) {
  if (!live) return {-2, -2, 4, 4};
  const int64_t tx0 = tile_of(live->xmin);
  const int64_t ty0 = tile_of(live->ymin);
  const int64_t live_cols = tile_of(live->xmax) - tx0 + 1;
  const int64_t live_rows = tile_of(live->ymax) - ty0 + 1;
  const int64_t limit_tiles = kMaxRegionCells / (kTileSize * kTileSize);
  if (live_cols > limit_tiles || live_rows > limit_tiles) {
    throw RuntimeError("pattern spans too large a region for the GPU");
  }
  const int64_t margin = 2 + std::max(live_cols, live_rows) / 4;
  const TileRegion region{tx0 - margin, ty0 - margin, live_cols + 2 * margin,
                          live_rows + 2 * margin};
  if (region.tile_cols * region.tile_rows > limit_tiles) {
    throw RuntimeError("pattern spans too large a region for the GPU (" +
                       std::to_string(region.width()) + " x " + std::to_string(region.height()) +
                       " cells)");
  }
  return region;
}

}  // namespace gol::gpu
