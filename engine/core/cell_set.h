// A sparse set of live cells stored as 64x64 tiles (see tile.h): the form in
// which patterns, backends and tests exchange cells. Memory grows with the
// number of occupied tiles, never with coordinates.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "engine/core/tile.h"

namespace gol {

// Cells in the box (0 for none), as a double: effective-CUpS arithmetic
// overflows int64 on large tori times many generations.
// The sides are taken as unsigned differences: a box more than 2^63 wide
// overflows BBox::width().
inline double bbox_area(const std::optional<BBox>& box) {
  if (!box) return 0.0;
  const auto side = [](int64_t lo, int64_t hi) {
    return static_cast<double>(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)) + 1.0;
  };
  return side(box->xmin, box->xmax) * side(box->ymin, box->ymax);
}

// The box around a tile's live cells, nullopt when it has none, and a box
// grown to cover another.
std::optional<BBox> tile_bbox(TileCoord coord, const Tile& tile);
void extend_bbox(std::optional<BBox>& box, const BBox& part);

class CellSet {
 public:
  // What one tile costs on the heap: a map node holding 512 bytes aligned
  // to 64 (688 bytes measured with glibc), for memory-budget checks made
  // before tiles are created.
  static constexpr uint64_t kBytesPerTile = 704;

  using TileMap = std::map<TileCoord, Tile>;

  CellSet() = default;
  // Takes tiles built elsewhere, e.g. appended in order with a hint, which
  // is far faster than tile() for millions of tiles.
  explicit CellSet(TileMap tiles) : tiles_(std::move(tiles)) {}

  bool get(int64_t x, int64_t y) const;
  void set(int64_t x, int64_t y, bool alive = true);
  void set(Cell c, bool alive = true) { set(c.x, c.y, alive); }

  // The tile at `coord`, created empty if absent.
  Tile& tile(TileCoord coord) { return tiles_[coord]; }
  const Tile* find_tile(TileCoord coord) const;
  // Stores `tile` at `coord`; an empty tile removes the entry.
  void put_tile(TileCoord coord, const Tile& tile);
  // ORs the cells of `tile` into the set with its top-left cell at
  // (64 * at.tx + dx, 64 * at.ty + dy), 0 <= dx, dy < 64: a tile placed off
  // the grid straddles up to four stored tiles, and only those that receive
  // live cells are created.
  void or_tile_at(TileCoord at, int dx, int dy, const Tile& tile);
  const TileMap& tiles() const { return tiles_; }
  // The tiles, moved out: for a consumer that frees them as it copies them.
  TileMap take_tiles() && { return std::move(tiles_); }

  // Drops tiles with no live cells (so equal sets compare equal).
  void prune_empty();
  bool empty() const;
  uint64_t population() const;
  std::optional<BBox> bbox() const;
  // Live cells in row-major order; for tests and small patterns.
  std::vector<Cell> cells() const;

  // The same cells moved by (dx, dy).
  CellSet translated(int64_t dx, int64_t dy) const;
  // Each cell wrapped into [0, width) x [0, height).
  CellSet wrapped(int64_t width, int64_t height) const;

  // Equal when the same cells are alive, whatever empty tiles are stored.
  friend bool operator==(const CellSet& a, const CellSet& b);

 private:
  TileMap tiles_;
};

}  // namespace gol
