#include "dist/band_layout.h"

#include <string>

#include "engine/core/error.h"
#include "engine/core/tile.h"

namespace gol::dist {

std::vector<Band> split_into_bands(int64_t height, int ranks) {
  const int64_t tile_rows = height / kTileSize;
  if (ranks < 1 || tile_rows < ranks) {
    throw UsageError("a torus " + std::to_string(height) + " rows high has " +
                     std::to_string(tile_rows) +
                     " rows of 64-cell tiles, so it cannot be split into " + std::to_string(ranks) +
                     " bands (one per MPI rank, each at least 64 rows): run with -np " +
                     std::to_string(tile_rows) + " or fewer, or a taller torus");
  }
  std::vector<Band> bands;
  int64_t next_row = 0;
  for (int rank = 0; rank < ranks; ++rank) {
    const int64_t tiles = tile_rows / ranks + (rank < tile_rows % ranks ? 1 : 0);
    bands.push_back({next_row, tiles * kTileSize});
    next_row += tiles * kTileSize;
  }
  return bands;
}

}  // namespace gol::dist
