#include "dist/band_layout.h"

#include <string>

#include "engine/core/error.h"

namespace gol::dist {

std::vector<Band> split_into_bands(int64_t height, int ranks) {
  const int64_t tile_rows = tile_rows_of(height);
  if (ranks < 1 || tile_rows < ranks) {
    throw UsageError("a torus " + std::to_string(height) + " rows high has " +
                     std::to_string(tile_rows) +
                     " rows of 64-cell tiles, so it cannot be split into " + std::to_string(ranks) +
                     " bands (one per MPI rank, each at least 64 rows): run with -np " +
                     std::to_string(tile_rows) + " or fewer, or a taller torus");
  }
  return split_into_row_bands(height, ranks);
}

}  // namespace gol::dist
