#include "engine/core/row_bands.h"

#include "engine/core/error.h"
#include "engine/core/tile.h"

namespace gol {

int64_t tile_rows_of(int64_t height) { return height / kTileSize; }

std::vector<RowBand> split_into_row_bands(int64_t height, int bands) {
  const int64_t tile_rows = tile_rows_of(height);
  GOL_CHECK(bands >= 1 && bands <= tile_rows);
  std::vector<RowBand> split;
  int64_t next_row = 0;
  for (int band = 0; band < bands; ++band) {
    const int64_t tiles = tile_rows / bands + (band < tile_rows % bands ? 1 : 0);
    split.push_back({next_row, tiles * kTileSize});
    next_row += tiles * kTileSize;
  }
  return split;
}

}  // namespace gol
