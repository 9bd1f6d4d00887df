#include "dist/row_words.h"

#include <limits>
#include <utility>

#include "engine/core/error.h"

namespace gol::dist {

std::vector<uint64_t> pack_rows(const CellSet& cells, int64_t width, int64_t first_row,
                                int64_t rows) {
  GOL_CHECK(width % kTileSize == 0 && first_row % kTileSize == 0 && rows % kTileSize == 0);
  const int64_t words_per_row = width / kTileSize;
  std::vector<uint64_t> words(static_cast<size_t>(words_per_row * rows));
  const int64_t first_tile_row = first_row / kTileSize;
  const int64_t end_tile_row = (first_row + rows) / kTileSize;
  // Tiles are ordered by row, so the band's tiles are one run of the map.
  const auto begin =
      cells.tiles().lower_bound({std::numeric_limits<int64_t>::min(), first_tile_row});
  for (auto it = begin; it != cells.tiles().end() && it->first.ty < end_tile_row; ++it) {
    const auto [tx, ty] = it->first;
    if (tx < 0 || tx >= words_per_row) continue;
    const int64_t top = (ty - first_tile_row) * kTileSize;
    for (int r = 0; r < kTileSize; ++r) {
      words[static_cast<size_t>((top + r) * words_per_row + tx)] = it->second.rows[r];
    }
  }
  return words;
}

void append_rows(CellSet::TileMap& tiles, const uint64_t* words, int64_t width, int64_t first_row,
                 int64_t rows) {
  GOL_CHECK(width % kTileSize == 0 && first_row % kTileSize == 0 && rows % kTileSize == 0);
  const int64_t words_per_row = width / kTileSize;
  for (int64_t top = 0; top < rows; top += kTileSize) {
    for (int64_t tx = 0; tx < words_per_row; ++tx) {
      Tile tile;
      for (int r = 0; r < kTileSize; ++r) {
        tile.rows[r] = words[(top + r) * words_per_row + tx];
      }
      if (!tile.empty())
        tiles.emplace_hint(tiles.end(), TileCoord{tx, (first_row + top) / kTileSize}, tile);
    }
  }
}

CellSet unpack_rows(const std::vector<uint64_t>& words, int64_t width, int64_t first_row) {
  CellSet::TileMap tiles;
  append_rows(tiles, words.data(), width, first_row,
              static_cast<int64_t>(words.size()) / (width / kTileSize));
  return CellSet(std::move(tiles));
}

}  // namespace gol::dist
