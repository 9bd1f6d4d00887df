// Torus placement and comment lines for the pattern writers.
#include "patterns/writer_support.h"

#include <algorithm>

namespace gol::patterns {

// Torus sides are multiples of 64, so moving a half back by W or H moves
// whole tiles; only the split at W/2 may fall inside a tile.
CellSet to_golly_window(const CellSet& cells, const Topology& torus) {
  const CellSet wrapped = cells.wrapped(torus.width, torus.height);
  const int64_t half_w = torus.width / 2;
  const int64_t half_h = torus.height / 2;
  const int64_t width_tiles = torus.width / kTileSize;
  const int64_t height_tiles = torus.height / kTileSize;
  CellSet out;
  for (const auto& [coord, tile] : wrapped.tiles()) {
    const int64_t cut = std::clamp<int64_t>(half_w - coord.tx * kTileSize, 0, kTileSize);
    const uint64_t left_mask = cut == kTileSize ? ~uint64_t{0} : (uint64_t{1} << cut) - 1;
    for (int r = 0; r < kTileSize; ++r) {
      const uint64_t row = tile.rows[r];
      if (row == 0) continue;
      const bool up = coord.ty * kTileSize + r >= half_h;
      const int64_t ty = up ? coord.ty - height_tiles : coord.ty;
      if (row & left_mask) out.tile({coord.tx, ty}).rows[r] |= row & left_mask;
      if (row & ~left_mask) out.tile({coord.tx - width_tiles, ty}).rows[r] |= row & ~left_mask;
    }
  }
  return out;
}

void append_comment_lines(std::string& out, std::string_view prefix, std::string_view text) {
  size_t start = 0;
  while (true) {
    const size_t end = text.find_first_of("\r\n", start);
    out += prefix;
    out += text.substr(start, end == std::string_view::npos ? end : end - start);
    out += '\n';
    if (end == std::string_view::npos) return;
    start = end + 1;
  }
}

}  // namespace gol::patterns
