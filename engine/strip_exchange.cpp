// The strips' exchange between epochs (see strip_exchange.h).
#include "engine/strip_exchange.h"

namespace gol {

void gather_column(const sparse::SparseGrid& into, const sparse::SparseGrid& from, int64_t column,
                   uint64_t since, StripImports& imports) {
  const int parity = static_cast<int>(into.generation() & 1);
  const auto take = [&](TileCoord coord, int32_t there) {
    imports.taken.push_back(
        {coord, from.map().tile(parity, there), from.map().tile(parity ^ 1, there)});
  };
  for (int32_t there : from.column_tiles(column, column)) {
    if (from.changed_in(there) > since) take(from.map().coord(there), there);
  }
  for (int32_t slot : into.column_tiles(column, column)) {
    if (into.changed_in(slot) <= since) continue;
    const TileCoord coord = into.map().coord(slot);
    const int32_t there = from.map().find(coord);
    if (there == sparse::TileMap::kAbsent) {
      imports.emptied.push_back(slot);
    } else if (from.changed_in(there) <= since) {
      take(coord, there);
    }
  }
  // A tile `from` changed and then freed, where `into`'s copy did not
  // change: what it still holds is what both held at `since`.
  for (const TileCoord coord : from.freed_near_ends()) {
    if (coord.tx != column || from.map().find(coord) != sparse::TileMap::kAbsent) continue;
    const int32_t slot = into.map().find(coord);
    if (slot != sparse::TileMap::kAbsent && into.changed_in(slot) <= since) {
      imports.emptied.push_back(slot);
    }
  }
}

void apply_imports(sparse::SparseGrid& into, StripImports& imports) {
  for (const StripImports::Taken& tile : imports.taken) {
    int32_t slot = into.map().find(tile.coord);
    if (slot == sparse::TileMap::kAbsent) slot = into.ensure_tile(tile.coord);
    if (into.import_tile(slot, tile.current, tile.previous)) imports.imported.push_back(slot);
  }
  const Tile empty{};
  for (int32_t slot : imports.emptied) {
    if (into.import_tile(slot, empty, empty)) imports.imported.push_back(slot);
  }
}

}  // namespace gol
