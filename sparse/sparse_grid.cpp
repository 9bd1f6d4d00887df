// Sleep, wake, create and free for the sparse tile world (see sparse_grid.h).
#include "sparse/sparse_grid.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <utility>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::sparse {
namespace {

// Wake records are stored by commits running in parallel. Each byte has one
// writer but the shared empty slot's, which every tile with an absent
// neighbour writes and nobody reads: relaxed atomic stores (plain moves)
// keep that well defined, and the join after the parallel pass orders them
// before planning reads them.
void store_bands(BandMask& record, BandMask bands) {
  std::atomic_ref<BandMask>(record).store(bands, std::memory_order_relaxed);
}

// A tile's eight wake records from its neighbours as one word, so they are
// tested and folded together, not byte by byte.
uint64_t as_word(const std::array<BandMask, kDirections>& from_neighbours) {
  uint64_t word;
  std::memcpy(&word, from_neighbours.data(), sizeof word);
  return word;
}

// The bands whose next generation reads a row that `change` changed: each
// band reads its rows and the row beside each edge.
constexpr BandMask spread_bands(uint64_t changed_rows) {
  return bands_of_rows(changed_rows | changed_rows << 1 | changed_rows >> 1);
}
constexpr BandMask kTopBand = 1;
constexpr BandMask kBottomBand = BandMask{1} << (kTileBands - 1);

struct ColumnMasks {
  uint64_t changed;              // OR over rows of (new ^ old)
  uint64_t live;                 // OR over rows of new
  uint64_t unchanged_rows;       // bit r: row r of new equals old
  uint64_t west_unchanged_rows;  // bit r: column 0 of row r unchanged
  uint64_t east_unchanged_rows;  // bit r: column 63 of row r unchanged
};

// Commit's inner loop, compiled for several instruction sets (the build
// has no -march): AVX-512 and AVX2 do it in a fraction of SSE2's time.
// Not under ThreadSanitizer: it instruments the ifunc resolver that picks
// the version, which runs before its runtime is up, and the process dies
// at load time.
#if defined(__SANITIZE_THREAD__)
#define GOL_COMMIT_TARGETS
#else
#define GOL_COMMIT_TARGETS __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
GOL_COMMIT_TARGETS ColumnMasks copy_and_compare(const uint64_t* __restrict source,
                                                uint64_t* __restrict target) {
  ColumnMasks masks{0, 0, 0, 0, 0};
  for (int row = 0; row < kTileSize; ++row) {
    const uint64_t change = source[row] ^ target[row];
    masks.changed |= change;
    masks.unchanged_rows |= uint64_t{change == 0} << row;
    masks.west_unchanged_rows |= (~change & 1) << row;
    masks.east_unchanged_rows |= (~change >> (kTileSize - 1)) << row;
    masks.live |= source[row];
    target[row] = source[row];
  }
  return masks;
}

// Bit d set: the borders of `a` and `b` facing direction d differ.
uint8_t facing_differences(const Tile& a, const Tile& b) {
  uint64_t columns = 0;
  for (int row = 0; row < kTileSize; ++row) columns |= a.rows[row] ^ b.rows[row];
  return border_bits(a.rows[0] ^ b.rows[0], a.rows[kTileSize - 1] ^ b.rows[kTileSize - 1], columns);
}

TileMap::Summary summarise(const Tile& tile) {
  return {border_occupancy(tile), static_cast<uint8_t>(!tile.empty())};
}

// The tiles a plane pattern of `pattern_tiles` tiles holds once loaded:
// its own and a ring of new neighbours around them.
uint64_t plane_tiles_for(uint64_t pattern_tiles) {
  return saturating_add(
      pattern_tiles, 4 * static_cast<uint64_t>(std::sqrt(static_cast<double>(pattern_tiles))) + 8);
}

}  // namespace

void SparseGrid::load(const CellSet& cells, const Topology& topology, bool keep_all_active) {
  load_cells(cells, topology, keep_all_active);
}

void SparseGrid::load(CellSet&& cells, const Topology& topology, bool keep_all_active) {
  load_cells(std::move(cells), topology, keep_all_active);
}

template <typename Cells>
void SparseGrid::load_cells(Cells&& cells, const Topology& topology, bool keep_all_active) {
  check_load_memory(cells, topology);
  beyond_edge_.clear();
  if (topology.is_torus()) {
    load_torus(cells, topology);
  } else {
    load_plane(std::forward<Cells>(cells));
  }
  finish_load(keep_all_active);
}

void SparseGrid::finish_load(bool keep_all_active) {
  generation_ = 0;
  keep_all_active_ = keep_all_active;
  // With no history, pretend generation -1 equalled generation 0: a tile
  // then sleeps only after a generation in which it did not change.
  active_.assign(map_.held().begin(), map_.held().end());
  std::sort(active_.begin(), active_.end());
  for (int32_t slot : active_) {
    map_.tile(1, slot) = map_.tile(0, slot);
    map_.summary(0, slot) = summarise(map_.tile(0, slot));
    map_.summary(1, slot) = map_.summary(0, slot);
  }
  active_bands_.assign(active_.size(), kAllBands);
  from_neighbours_.assign(map_.slot_count(), {});
  from_self_.assign(map_.slot_count(), 0);
  owners_.assign(map_.slot_count(), TileOwner::kCpu);
  tiles_not_cpu_ = 0;
  strip_first_ = -kNoColumnLimit;
  strip_last_ = kNoColumnLimit - 1;
  counting_columns_ = false;
  column_slots_.clear();
  outcomes_.assign(active_.size(), Outcome{});
  choose_next_plan();
}

void SparseGrid::check_load_memory(const CellSet& cells, const Topology& topology) {
  // A torus holds every tile; the plane its pattern's tiles and a ring.
  const uint64_t pattern_tiles = cells.tiles().size();
  const uint64_t tiles = topology.is_torus()
                             ? saturating_mul(static_cast<uint64_t>(topology.width / kTileSize),
                                              static_cast<uint64_t>(topology.height / kTileSize))
                             : plane_tiles_for(pattern_tiles);
  const std::string world =
      topology.is_torus() ? "the " + topology.to_string() : "a pattern on the plane";
  // The cells are held while the grid fills.
  check_runtime_memory(saturating_add(saturating_mul(tiles, kEngineBytesPerTile),
                                      saturating_mul(pattern_tiles, CellSet::kBytesPerTile)),
                       "stepping " + world + " (" + std::to_string(tiles) + " tiles of 64x64)");
}

void SparseGrid::load_torus(const CellSet& cells, const Topology& topology) {
  const int64_t tiles_x = topology.width / kTileSize;
  const int64_t tiles_y = topology.height / kTileSize;
  map_.reset_torus(tiles_x, tiles_y);
  torus_slots_.clear();
  torus_slots_.reserve(static_cast<size_t>(tiles_x * tiles_y));
  for (int64_t ty = 0; ty < tiles_y; ++ty) {
    for (int64_t tx = 0; tx < tiles_x; ++tx) torus_slots_.push_back(map_.find({tx, ty}));
  }
  for (const auto& [coord, tile] : cells.tiles()) {
    const int32_t slot = torus_slots_[static_cast<size_t>(wrap(coord.ty, tiles_y) * tiles_x +
                                                          wrap(coord.tx, tiles_x))];
    Tile& target = map_.tile(0, slot);
    for (int row = 0; row < kTileSize; ++row) target.rows[row] |= tile.rows[row];
  }
}

void SparseGrid::begin_plane_load(size_t pattern_tiles) {
  map_.reset_plane();
  torus_slots_.clear();
  map_.reserve(plane_tiles_for(pattern_tiles));
}

void SparseGrid::place_loaded(TileCoord coord, const Tile& tile, std::vector<int32_t>& loaded) {
  if (tile.empty()) return;
  const int32_t slot = map_.create(coord);
  if (slot == TileMap::kAbsent) {
    throw InputError("pattern has cells beyond the plane's range of +-2^62");
  }
  map_.tile(0, slot) = tile;
  loaded.push_back(slot);
}

void SparseGrid::create_load_ring(std::span<const int32_t> loaded) {
  for (int32_t slot : loaded) {
    const uint8_t border = border_occupancy(map_.tile(0, slot));
    for (int direction = 0; direction < kDirections; ++direction) {
      const TileCoord at = map_.coord(slot);
      const TileCoord next{at.tx + kDirectionDx[direction], at.ty + kDirectionDy[direction]};
      if ((border >> direction & 1) && map_.find(next) == TileMap::kAbsent &&
          map_.create(next) == TileMap::kAbsent) {
        beyond_edge_.push_back(next);
      }
    }
  }
}

void SparseGrid::load_plane(const CellSet& cells) {
  begin_plane_load(cells.tiles().size());
  std::vector<int32_t> loaded;
  loaded.reserve(cells.tiles().size());
  for (const auto& [coord, tile] : cells.tiles()) place_loaded(coord, tile, loaded);
  create_load_ring(loaded);
}

void SparseGrid::load_plane(CellSet&& cells) {
  // Freed pages go back every so many tiles (about 2.8 MB of map nodes):
  // often enough that the pattern and the grid are never both whole, rarely
  // enough that walking the heap costs little. The reader filled the map
  // in row-major order, as it is taken apart, so whole pages come free.
  constexpr size_t kTilesPerReturn = 4096;
  CellSet::TileMap tiles = std::move(cells).take_tiles();
  begin_plane_load(tiles.size());
  std::vector<int32_t> loaded;
  loaded.reserve(tiles.size());
  size_t since_return = 0;
  while (!tiles.empty()) {
    const auto node = tiles.extract(tiles.begin());
    place_loaded(node.key(), node.mapped(), loaded);
    if (++since_return == kTilesPerReturn) {
      return_freed_memory();
      since_return = 0;
    }
  }
  return_freed_memory();
  create_load_ring(loaded);
}

void SparseGrid::neighbourhood_at(TileCoord coord, const Tile* (&at)[3][3]) const {
  const int parity = current_parity();
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int32_t slot = map_.find({coord.tx + dx, coord.ty + dy});
      at[dy + 1][dx + 1] =
          &map_.tile(parity, slot == TileMap::kAbsent ? TileMap::kEmptySlot : slot);
    }
  }
}

void SparseGrid::wake(int32_t slot) { from_self_[slot] = kAllBands; }

bool SparseGrid::has_wake(int32_t slot) const {
  return (as_word(from_neighbours_[slot]) | from_self_[slot]) != 0;
}

void SparseGrid::share_if_asleep(int32_t slot) {
  if (owners_[slot] == TileOwner::kCpu && !has_wake(slot)) map_.share(slot);
}

void SparseGrid::own_listed_pairs() {
  if (map_.shared_slots() == 0) return;
  for (int32_t slot : active_) {
    if (map_.is_shared(slot)) map_.unshare(slot);
  }
}

BandMask SparseGrid::take_wake(int32_t slot) {
  if (!has_wake(slot)) return 0;
  uint64_t from_neighbours = as_word(from_neighbours_[slot]);
  from_neighbours |= from_neighbours >> 32;
  from_neighbours |= from_neighbours >> 16;
  from_neighbours |= from_neighbours >> 8;
  const auto bands = static_cast<BandMask>(from_neighbours | from_self_[slot]);
  from_neighbours_[slot] = {};
  from_self_[slot] = 0;
  return bands;
}

BandMask SparseGrid::take_bands_to_step(int32_t slot) {
  const BandMask bands = take_wake(slot);
  return bands != 0 && !stands_still(owners_[slot]) ? bands : 0;
}

void SparseGrid::commit(size_t index, const Tile& next) {
  uint64_t* __restrict target = commit_target(index)->rows.data();
  const uint64_t* __restrict source = next.rows.data();
  TileChange change;
  change.top_change = source[0] ^ target[0];
  change.bottom_change = source[kTileSize - 1] ^ target[kTileSize - 1];
  change.top_row = source[0];
  change.bottom_row = source[kTileSize - 1];
  const ColumnMasks masks = copy_and_compare(source, target);
  change.changed_columns = masks.changed;
  change.live_columns = masks.live;
  change.unchanged_rows = masks.unchanged_rows;
  change.west_unchanged_rows = masks.west_unchanged_rows;
  change.east_unchanged_rows = masks.east_unchanged_rows;
  commit_written(index, change);
}

inline void SparseGrid::commit_one(size_t index, const TileChange& change) {
  const int32_t slot = active_[index];
  const int next_parity = current_parity() ^ 1;
  const uint64_t live_columns = change.live_columns;
  const uint8_t border = border_bits(change.top_row, change.bottom_row, live_columns);
  map_.summary(next_parity, slot) = {border, static_cast<uint8_t>(live_columns != 0)};
  Outcome& outcome = outcomes_[index];
  outcome.create = border & map_.absent_neighbours(slot);
  // The older summary is read only for a tile left empty: loaded for every
  // tile, it was one of the commit's costliest loads.
  outcome.maybe_free = false;
  if (live_columns == 0) [[unlikely]] {
    outcome.maybe_free = map_.summary(next_parity ^ 1, slot).nonempty == 0 && !map_.is_torus();
  }
  outcome.woke = 0;
  outcome.dense = live_columns == ~uint64_t{0};
  outcome.changed = change.changed_columns != 0;
  if (change.changed_columns == 0) return;
  map_.changed_in(slot) = generation_ + 1;

  // What changed between generations t-1 and t+1 is what the next step
  // (t+2 from t+1, written over t) must look at: the changed bands and the
  // rows next to them here, and the facing rows of each neighbour whose
  // border changed. Every other band's t+2 equals its t, already in place.
  const BandMask spread = spread_bands(~change.unchanged_rows);
  const uint64_t top = change.top_change;
  const uint64_t bottom = change.bottom_change;
  const uint64_t columns = change.changed_columns;
  constexpr uint64_t kWest = 1;
  constexpr uint64_t kEast = uint64_t{1} << (kTileSize - 1);
  store_bands(from_self_.data()[slot], spread);
  // A change inside the tile gives its neighbours nothing. The records of
  // the neighbours of one that reaches its border are all stored
  // unconditionally, not in a data-dependent loop (its branch
  // mispredictions cost more); absent neighbours' land on the empty slot.
  if ((top | bottom | (columns & (kWest | kEast))) == 0) return;
  const BandMask north = top != 0 ? kBottomBand : 0;
  const BandMask south = bottom != 0 ? kTopBand : 0;
  const auto& neighbours = map_.neighbours(slot);
  std::array<BandMask, kDirections>* const records = from_neighbours_.data();
  auto give = [&](int direction, BandMask bands) {
    store_bands(records[neighbours[direction]][opposite(direction)], bands);
  };
  give(kN, north);
  give(kNE, (top & kEast) != 0 ? kBottomBand : 0);
  // A west or east neighbour reads only this tile's facing column.
  auto facing_column_bands = [&](uint64_t column_unchanged_rows) {
    return spread_bands(~(column_unchanged_rows | change.unchanged_rows));
  };
  give(kE, (columns & kEast) != 0 ? facing_column_bands(change.east_unchanged_rows) : 0);
  give(kSE, (bottom & kEast) != 0 ? kTopBand : 0);
  give(kS, south);
  give(kSW, (bottom & kWest) != 0 ? kTopBand : 0);
  give(kW, (columns & kWest) != 0 ? facing_column_bands(change.west_unchanged_rows) : 0);
  give(kNW, (top & kWest) != 0 ? kBottomBand : 0);
  // The neighbours given bands are those facing a changed border.
  if (gather_next_) outcome.woke = border_bits(top, bottom, columns);
}

void SparseGrid::commit_written(size_t index, const TileChange& change) {
  commit_one(index, change);
}

void SparseGrid::commit_written(size_t first, std::span<const TileChange> changes) {
  for (size_t i = 0; i < changes.size(); ++i) commit_one(first + i, changes[i]);
}

size_t SparseGrid::cpu_active_count() const {
  if (all_cpu()) return active_.size();
  return static_cast<size_t>(std::count_if(active_.begin(), active_.end(), [&](int32_t slot) {
    return owners_[slot] == TileOwner::kCpu;
  }));
}

void SparseGrid::reserve_tiles(size_t tiles) {
  map_.reserve(tiles);
  from_neighbours_.reserve(tiles);
  from_self_.reserve(tiles);
  owners_.reserve(tiles);
  column_place_.reserve(tiles);
}

void SparseGrid::fit_slot_arrays() {
  // Released slabs shrink the slot range and their slots come back as new
  // tiles, CPU-owned.
  from_neighbours_.resize(map_.slot_count());
  from_self_.resize(map_.slot_count(), 0);
  owners_.resize(map_.slot_count(), TileOwner::kCpu);
  column_place_.resize(map_.slot_count());
}

int32_t SparseGrid::create_awake(TileCoord coord, TileMap::Beside beside) {
  // A strip makes nothing beyond its ghost columns: those tiles are another
  // strip's, and what this one would compute there is wrong anyway.
  if (coord.tx < strip_first_ - kStripEdgeColumns || coord.tx > strip_last_ + kStripEdgeColumns) {
    return TileMap::kAbsent;
  }
  const int32_t created = map_.create(coord, beside);
  if (created == TileMap::kAbsent) {
    beyond_edge_.push_back(coord);  // beyond the plane's range
    return created;
  }
  fit_slot_arrays();
  wake(created);
  if (counting_columns_) add_to_column(created, coord.tx);
  owners_[created] = TileOwner::kCpu;
  map_.changed_in(created) = generation_ + 1;
  if (in_strip_edge(coord.tx)) set_owner(created, strip_owner(coord.tx));
  return created;
}

void SparseGrid::start_empty_plane(uint64_t generation, int64_t first, int64_t last) {
  GOL_CHECK(first < last && last - first + 1 >= kStripEdgeColumns);
  load(CellSet{}, Topology::plane(), false);
  generation_ = generation;
  strip_first_ = first;
  strip_last_ = last;
  counting_columns_ = first != -kNoColumnLimit || last != kNoColumnLimit - 1;
  freed_near_ends_.clear();
}

void SparseGrid::drain(const TileMover& visit) {
  GOL_CHECK(!map_.is_torus());
  const int parity = current_parity();
  // The bands each active tile steps next, by slot (from_self_ is free:
  // planning took every wake record).
  for (size_t i = 0; i < active_.size(); ++i) from_self_[active_[i]] = active_bands_[i];
  const TileMap& held = map_;
  map_.drain([&](int32_t slot) {
    visit(held.coord(slot), held.tile(parity, slot), held.tile(parity ^ 1, slot), owners_[slot],
          from_self_[slot]);
  });
  start_empty_plane(generation_);
}

int32_t SparseGrid::place_tile(TileCoord coord, const Tile& current, const Tile& previous,
                               BandMask bands) {
  int32_t slot = map_.find(coord);
  if (slot == TileMap::kAbsent) slot = create_awake(coord);
  if (slot == TileMap::kAbsent) return slot;  // beyond this strip
  const int parity = current_parity();
  map_.tile(parity, slot) = current;
  map_.tile(parity ^ 1, slot) = previous;
  map_.summary(parity, slot) = summarise(current);
  map_.summary(parity ^ 1, slot) = summarise(previous);
  from_self_[slot] = bands;
  // A dense tile placed asleep shares its pair as one stepped to sleep
  // does: a moved cut or a cut world brings an agar's tiles by hundreds.
  if (bands == 0 && current.live_columns() == ~uint64_t{0}) share_if_asleep(slot);
  return slot;
}

template <typename Unlist>
void SparseGrid::unlist_active_if(Unlist unlist) {
  size_t kept = 0;
  for (size_t i = 0; i < active_.size(); ++i) {
    if (unlist(active_[i])) continue;
    active_[kept] = active_[i];
    active_bands_[kept++] = active_bands_[i];
  }
  active_.resize(kept);
  active_bands_.resize(kept);
}

std::vector<int32_t> SparseGrid::set_strip_columns(int64_t first, int64_t last) {
  GOL_CHECK(first < last && last - first + 1 >= kStripEdgeColumns && !map_.is_torus());
  const auto beyond = [&](int32_t slot) {
    const int64_t tx = map_.coord(slot).tx;
    return tx < first - kStripEdgeColumns || tx > last + kStripEdgeColumns;
  };
  unlist_active_if(beyond);
  const int64_t old_first = strip_first_;
  const int64_t old_last = strip_last_;
  strip_first_ = first;
  strip_last_ = last;
  std::vector<int32_t> woken;
  const auto settle = [&](int32_t slot) {
    if (!map_.in_use(slot)) return;  // dropped already (the ranges overlap)
    if (beyond(slot)) {
      drop_tile(slot);
      return;
    }
    const TileOwner role = strip_owner(map_.coord(slot).tx);
    if (role == owners_[slot]) return;
    // A frozen tile's wake records were dropped while it stood still: one
    // that steps again starts awake. (Handing a tile to the CPU wakes it
    // too, though a ghost's sleep would stay valid.)
    if (stands_still(owners_[slot]) || role == TileOwner::kCpu) {
      wake(slot);
      woken.push_back(slot);
    }
    set_owner(slot, role);
  };
  // Only the columns within kStripEdgeColumns of an end that moved change:
  // those the strip no longer holds, and those whose role changes.
  if (first != old_first) {
    for (int32_t slot : column_tiles(std::min(first, old_first) - kStripEdgeColumns,
                                     std::max(first, old_first) + kStripEdgeColumns)) {
      settle(slot);
    }
  }
  if (last != old_last) {
    for (int32_t slot : column_tiles(std::min(last, old_last) - kStripEdgeColumns,
                                     std::max(last, old_last) + kStripEdgeColumns)) {
      settle(slot);
    }
  }
  map_.release_empty_slabs();
  return woken;
}

void SparseGrid::end_strip() {
  GOL_CHECK(!map_.is_torus());
  unlist_active_if([&](int32_t slot) { return owners_[slot] != TileOwner::kCpu; });
  for (int64_t edge = 1; edge <= kStripEdgeColumns; ++edge) {
    for (int64_t tx : {strip_first_ - edge, strip_last_ + edge}) {
      for (int32_t slot : column_tiles(tx, tx)) drop_tile(slot);
    }
  }
  strip_first_ = -kNoColumnLimit;
  strip_last_ = kNoColumnLimit - 1;
  counting_columns_ = false;
  column_slots_.clear();
  freed_near_ends_.clear();
  map_.release_empty_slabs();
}

void SparseGrid::adopt(SparseGrid& other) {
  GOL_CHECK(!map_.is_torus() && !counting_columns_ && !other.counting_columns_ &&
            other.generation_ == generation_ && other.tiles_not_cpu_ == 0 && !keep_all_active_ &&
            !other.keep_all_active_);
  const int32_t offset = map_.adopt(other.map_);
  fit_slot_arrays();
  // The adopted slots' records start clear: these arrays may have kept
  // entries for slots of slabs released since.
  for (auto slot = static_cast<size_t>(offset); slot < map_.slot_count(); ++slot) {
    from_neighbours_[slot] = {};
    from_self_[slot] = 0;
    owners_[slot] = TileOwner::kCpu;
  }
  for (size_t i = 0; i < other.active_.size(); ++i) {
    active_.push_back(other.active_[i] + offset);
    active_bands_.push_back(other.active_bands_[i]);
  }
  beyond_edge_.insert(beyond_edge_.end(), other.beyond_edge_.begin(), other.beyond_edge_.end());
  other.start_empty_plane(other.generation_);
}

void SparseGrid::add_to_column(int32_t slot, int64_t tx) {
  std::vector<int32_t>& column = column_slots_[tx];
  column_place_[static_cast<size_t>(slot)] = static_cast<int32_t>(column.size());
  column.push_back(slot);
}

void SparseGrid::note_freed(int32_t slot) {
  if (!counting_columns_) return;
  const TileCoord coord = map_.coord(slot);
  if (coord.tx < strip_first_ + kStripEdgeColumns || coord.tx > strip_last_ - kStripEdgeColumns) {
    freed_near_ends_.push_back(coord);
  }
}

void SparseGrid::remove_from_column(int32_t slot) {
  if (!counting_columns_) return;
  const auto found = column_slots_.find(map_.coord(slot).tx);
  std::vector<int32_t>& column = found->second;
  const int32_t place = column_place_[static_cast<size_t>(slot)];
  column[static_cast<size_t>(place)] = column.back();
  column_place_[static_cast<size_t>(column.back())] = place;
  column.pop_back();
  if (column.empty()) column_slots_.erase(found);
}

template <typename Visit>
void SparseGrid::for_each_column(int64_t first, int64_t last, Visit visit) const {
  // Column by column where the range is narrower than the columns held;
  // otherwise over those (a cut may jump across a wide gap).
  if (static_cast<uint64_t>(last - first) < column_slots_.size()) {
    for (int64_t tx = first; tx <= last; ++tx) {
      const auto found = column_slots_.find(tx);
      if (found != column_slots_.end()) visit(found->second);
    }
  } else {
    for (const auto& [tx, column] : column_slots_) {
      if (tx >= first && tx <= last) visit(column);
    }
  }
}

size_t SparseGrid::column_tile_count(int64_t first, int64_t last) const {
  size_t count = 0;
  for_each_column(first, last, [&](const std::vector<int32_t>& column) { count += column.size(); });
  return count;
}

void SparseGrid::drop_tile(int32_t slot) {
  take_wake(slot);
  set_owner(slot, TileOwner::kCpu);
  from_self_[slot] = 0;  // set_owner woke it
  remove_from_column(slot);
  map_.free(slot);
}

std::vector<int32_t> SparseGrid::column_tiles(int64_t first, int64_t last) const {
  GOL_CHECK(counting_columns_);
  std::vector<int32_t> slots;
  for_each_column(first, last, [&](const std::vector<int32_t>& column) {
    slots.insert(slots.end(), column.begin(), column.end());
  });
  return slots;
}

void SparseGrid::create_neighbours(int32_t slot, uint8_t directions) {
  for (int direction = 0; direction < kDirections; ++direction) {
    // Re-read each time: creating a tile may move the neighbour table.
    if (!(directions >> direction & 1) || map_.neighbours(slot)[direction] != TileMap::kEmptySlot) {
      continue;
    }
    // Beyond the plane's range the tile is not created but noted, so the
    // stepper can refuse a birth there (beyond_edge()).
    create_beside(slot, direction);
  }
}

int32_t SparseGrid::create_beside(int32_t slot, int direction) {
  const TileCoord at = map_.coord(slot);
  return create_awake({at.tx + kDirectionDx[direction], at.ty + kDirectionDy[direction]},
                      {slot, direction});
}

int32_t SparseGrid::ensure_tile(TileCoord coord) {
  const int32_t slot = map_.find(coord);
  return slot != TileMap::kAbsent || map_.is_torus() ? slot : create_awake(coord);
}

void SparseGrid::set_owner(int32_t slot, TileOwner owner) {
  if (owner == TileOwner::kCpu && owners_[slot] != TileOwner::kCpu) wake(slot);
  tiles_not_cpu_ += static_cast<size_t>(owner != TileOwner::kCpu);
  tiles_not_cpu_ -= static_cast<size_t>(owners_[slot] != TileOwner::kCpu);
  owners_[slot] = owner;
}

bool SparseGrid::import_tile(int32_t slot, const Tile& current, const Tile& previous) {
  const int parity = current_parity();
  const TileMap& held = map_;
  const Tile& held_current = held.tile(parity, slot);
  const Tile& held_previous = held.tile(parity ^ 1, slot);
  // Most of a region's edge is dead on both sides: the summaries say so of
  // the held tile, and one pass over what came back, still in cache, of the
  // new one, without reading the held copies.
  const bool held_empty =
      map_.summary(parity, slot).nonempty == 0 && map_.summary(parity ^ 1, slot).nonempty == 0;
  if (held_empty ? current.empty() && previous.empty()
                 : held_current == current && held_previous == previous) {
    return false;
  }
  const uint8_t differs =
      facing_differences(held_current, current) | facing_differences(held_previous, previous);
  map_.tile(parity, slot) = current;
  map_.tile(parity ^ 1, slot) = previous;
  map_.summary(parity, slot) = summarise(current);
  map_.summary(parity ^ 1, slot) = summarise(previous);
  wake(slot);
  const uint8_t live_border = map_.summary(0, slot).border | map_.summary(1, slot).border;
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = map_.neighbours(slot)[direction];
    if (other != TileMap::kEmptySlot) {
      if (differs >> direction & 1) wake(other);
    } else if ((live_border >> direction & 1) && !map_.is_torus()) {
      create_beside(slot, direction);
    }
  }
  return true;
}

void SparseGrid::replan() {
  fit_slot_arrays();
  for (size_t i = 0; i < active_.size(); ++i) from_self_[active_[i]] |= active_bands_[i];
  if (keep_all_active_) {
    // Every tile the CPU steps stays listed.
    for (int32_t slot : map_.held()) {
      if (!stands_still(owners_[slot])) wake(slot);
    }
  }
  take_wake(TileMap::kEmptySlot);
  plan_by_scan();
  outcomes_.assign(active_.size(), Outcome{});
  choose_next_plan();
}

void SparseGrid::replan_near(std::span<const int32_t> imported) {
  if (keep_all_active_ ||
      (active_.size() + imported.size() * (kDirections + 1)) * 2 >= map_.slot_count()) {
    replan();
    return;
  }
  fit_slot_arrays();
  for (size_t i = 0; i < active_.size(); ++i) from_self_[active_[i]] |= active_bands_[i];
  take_wake(TileMap::kEmptySlot);
  plan_from_candidates([&](auto take) {
    for (int32_t slot : active_) take(slot);
    // An import wakes only the tile and its neighbours (created ones
    // included, hence the links read after it).
    for (int32_t slot : imported) {
      take(slot);
      for (int32_t other : map_.neighbours(slot)) take(other);
    }
  });
  if (list_by_slot_ && in_slot_order_) {
    next_active_.swap(active_);
    next_bands_.swap(active_bands_);
    woken_.clear();
    list_in_slot_order(false);
  }
  own_listed_pairs();
  outcomes_.assign(active_.size(), Outcome{});
  choose_next_plan();
}

void SparseGrid::choose_next_plan() {
  // Every slot woken in a generation is a stepped tile or a neighbour it
  // handed bands to or created: while those are fewer than the slots,
  // planning looks only there, so it costs the active tiles, not the world.
  gather_next_ = active_.size() * (kDirections + 1) < map_.slot_count();
}

bool SparseGrid::shows_live_border(int32_t slot) const {
  const auto& neighbours = map_.neighbours(slot);
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = neighbours[direction];
    const uint8_t facing = static_cast<uint8_t>(1u << opposite(direction));
    if ((map_.summary(0, other).border | map_.summary(1, other).border) & facing) return true;
  }
  return false;
}

void SparseGrid::end_plane_block() {
  if (!in_plane_block_) return;
  for (int32_t slot : active_) block_place_[slot] = 0;
  in_plane_block_ = false;
}

void SparseGrid::finish_generation() {
  // A block's list stops here: tiles may be freed below.
  end_plane_block();
  ++generation_;
  if (keep_all_active_) return;  // every slot stays in active_
  const size_t stepped = active_.size();
  changed_last_ = 0;
  for (size_t i = 0; i < stepped; ++i) changed_last_ += outcomes_[i].changed;
  if (!map_.is_torus()) {
    // Create first, then free, so a slot freed now is not reused in the
    // same pass while active_ still names it.
    for (size_t i = 0; i < stepped; ++i) {
      if (outcomes_[i].create != 0) create_neighbours(active_[i], outcomes_[i].create);
    }
    for (size_t i = 0; i < stepped; ++i) {
      const int32_t slot = active_[i];
      if (outcomes_[i].maybe_free && owners_[slot] == TileOwner::kCpu && !shows_live_border(slot)) {
        note_freed(slot);
        remove_from_column(slot);
        map_.free(slot);
        take_wake(slot);
      } else if (outcomes_[i].dense != 0) {
        share_if_asleep(slot);
      }
    }
  }
  fit_slot_arrays();
  take_wake(TileMap::kEmptySlot);
  plan_from_wake_flags(stepped);
  // Planning read the links of the tiles freed above; now their slabs may go.
  map_.release_empty_slabs();
  fit_slot_arrays();
  outcomes_.resize(active_.size());
  choose_next_plan();
}

template <typename VisitCandidates>
void SparseGrid::plan_from_candidates(VisitCandidates visit_candidates) {
  next_active_.clear();
  next_bands_.clear();
  // Taking a slot's wake record clears it, so a slot visited twice is
  // listed once, where it was first visited.
  auto take = [&](int32_t slot) {
    const BandMask bands = take_bands_to_step(slot);
    if (bands == 0) return false;
    next_active_.push_back(slot);
    next_bands_.push_back(bands);
    return true;
  };
  visit_candidates(take);
  active_.swap(next_active_);
  active_bands_.swap(next_bands_);
}

void SparseGrid::plan_from_wake_flags(size_t previous_count) {
  if (!gather_next_) {
    plan_by_scan();
    return;
  }
  // Between the two bounds the list keeps the order it has, so that a
  // count going back and forth across one does not sort it each time.
  if (previous_count >= kSlotOrderTiles) {
    in_slot_order_ = true;
  } else if (previous_count < kSlotOrderTiles / 2) {
    in_slot_order_ = false;
  }
  if (list_by_slot_ && in_slot_order_) {
    plan_in_slot_order(previous_count);
    return;
  }
  plan_from_candidates([&](auto take) {
    for (size_t i = 0; i < previous_count; ++i) {
      take(active_[i]);
      // The tiles stepped are their own; a neighbour woken may share.
      for_each_woken_neighbour(i, [&](int32_t other) {
        if (take(other) && map_.is_shared(other)) map_.unshare(other);
      });
    }
  });
}

template <typename Visit>
void SparseGrid::for_each_woken_neighbour(size_t i, Visit visit) const {
  // A tile freed in this pass still lists its neighbours (slots are not
  // reused before the next pass).
  const auto& neighbours = map_.neighbours(active_[i]);
  for (unsigned bits = outcomes_[i].woke | outcomes_[i].create; bits != 0; bits &= bits - 1) {
    visit(neighbours[std::countr_zero(bits)]);
  }
}

void SparseGrid::plan_in_slot_order(size_t previous_count) {
  // The tiles stepped, in their order, take their wake records first; the
  // neighbours they woke or made, new to the list, are merged in by slot.
  next_active_.clear();
  next_bands_.clear();
  bool in_order = true;
  for (size_t i = 0; i < previous_count; ++i) {
    const int32_t slot = active_[i];
    const BandMask bands = take_bands_to_step(slot);
    if (bands == 0) continue;
    in_order = in_order && (next_active_.empty() || slot > next_active_.back());
    next_active_.push_back(slot);
    next_bands_.push_back(bands);
  }
  woken_.clear();
  for (size_t i = 0; i < previous_count; ++i) {
    for_each_woken_neighbour(i, [&](int32_t other) {
      const BandMask bands = take_bands_to_step(other);
      if (bands == 0) return;
      woken_.push_back({other, bands});
      if (map_.is_shared(other)) map_.unshare(other);
    });
  }
  list_in_slot_order(in_order);
}

void SparseGrid::list_in_slot_order(bool listed_in_order) {
  if (!listed_in_order) {
    for (size_t i = 0; i < next_active_.size(); ++i) {
      woken_.push_back({next_active_[i], next_bands_[i]});
    }
    next_active_.clear();
    next_bands_.clear();
  }
  const auto by_slot = [](const Planned& a, const Planned& b) { return a.slot < b.slot; };
  std::sort(woken_.begin(), woken_.end(), by_slot);
  if (woken_.empty()) {
    active_.swap(next_active_);
    active_bands_.swap(next_bands_);
    return;
  }
  // Merged with the tiles already listed in slot order, next_active_: a
  // few woken a generation among hundreds listed, so the listed ones go
  // in runs between them.
  active_.resize(next_active_.size() + woken_.size());
  active_bands_.resize(active_.size());
  size_t from = 0;
  size_t out = 0;
  const auto copy_listed_up_to = [&](size_t end) {
    std::copy(next_active_.begin() + static_cast<ptrdiff_t>(from),
              next_active_.begin() + static_cast<ptrdiff_t>(end),
              active_.begin() + static_cast<ptrdiff_t>(out));
    std::copy(next_bands_.begin() + static_cast<ptrdiff_t>(from),
              next_bands_.begin() + static_cast<ptrdiff_t>(end),
              active_bands_.begin() + static_cast<ptrdiff_t>(out));
    out += end - from;
    from = end;
  };
  for (const Planned& woken : woken_) {
    copy_listed_up_to(
        static_cast<size_t>(std::lower_bound(next_active_.begin() + static_cast<ptrdiff_t>(from),
                                             next_active_.end(), woken.slot) -
                            next_active_.begin()));
    active_[out] = woken.slot;
    active_bands_[out++] = woken.bands;
  }
  copy_listed_up_to(next_active_.size());
}

void SparseGrid::plan_by_scan() {
  active_.clear();
  active_bands_.clear();
  // Eight quiet slots are skipped with nine loads and ORs. The slot range
  // is whole slabs, so every group is whole: a group cut short at the end
  // had the compiler test each slot against it, and the scan then took 6%
  // of acorn-field's time on two threads (3% more than now).
  constexpr size_t kGroup = 8;
  const size_t slots = map_.slot_count();
  static_assert(TileMap::kSlabSlots % kGroup == 0);
  static_assert(sizeof(from_neighbours_[0]) == sizeof(uint64_t) && sizeof(BandMask) == 1);
  const auto* const records = reinterpret_cast<const unsigned char*>(from_neighbours_.data());
  const auto* const selves = reinterpret_cast<const unsigned char*>(from_self_.data());
  for (size_t first = 0; first < slots; first += kGroup) {
    uint64_t any;
    std::memcpy(&any, selves + first, sizeof any);
    for (size_t k = 0; k < kGroup; ++k) {
      uint64_t from_neighbours;
      std::memcpy(&from_neighbours, records + (first + k) * sizeof from_neighbours,
                  sizeof from_neighbours);
      any |= from_neighbours;
    }
    if (any == 0) continue;
    for (size_t slot = first; slot < first + kGroup; ++slot) {
      const auto s = static_cast<int32_t>(slot);
      if (const BandMask bands = take_bands_to_step(s); bands != 0) {
        active_.push_back(s);
        active_bands_.push_back(bands);
      }
    }
  }
  own_listed_pairs();
}

void SparseGrid::advance_asleep(uint64_t generations) {
  GOL_CHECK(active_.empty());
  generation_ += generations;
}

bool SparseGrid::suits_blocks() const {
  // Below this share of the tiles active, stepping them all costs more
  // than the passes over memory it saves.
  constexpr size_t kBusyEighths = 7;
  return map_.is_torus() && tiles_not_cpu_ == 0 &&
         active_.size() * 8 >= torus_slots_.size() * kBusyEighths;
}

bool SparseGrid::allows_plane_blocks() const {
  return !map_.is_torus() && !keep_all_active_ && (tiles_not_cpu_ == 0 || counting_columns_);
}

size_t SparseGrid::plane_block_size() const { return allows_plane_blocks() ? active_.size() : 0; }

void SparseGrid::begin_plane_block(uint64_t generations) {
  GOL_CHECK(generations <= kMaxPlaneBlock && allows_plane_blocks());
  // Planning took the wake records of every tile listed now. Whether a
  // tile changes inside the block is not noted, so each is taken to
  // change in its first generation (what a strip's exchange reads).
  own_listed_pairs();
  block_place_.resize(map_.slot_count(), 0);
  for (size_t i = 0; i < active_.size(); ++i) {
    block_place_[active_[i]] = static_cast<int32_t>(i + 1);
    map_.changed_in(active_[i]) = generation_ + 1;
  }
  active_bands_.assign(active_.size(), kAllBands);
  outcomes_.assign(active_.size(), Outcome{});
  block_watch_.assign(active_.size(), BorderWatch{});
  block_settling_.clear();
  for (size_t i = 0; i < active_.size(); ++i) watch_borders(i);
  in_plane_block_ = true;
  choose_next_plan();
}

void SparseGrid::watch_borders(size_t index) {
  constexpr uint64_t kWest = 1;
  constexpr uint64_t kEast = uint64_t{1} << (kTileSize - 1);
  constexpr uint64_t kRow = ~uint64_t{0};
  const int32_t slot = active_[index];
  const uint8_t absent = map_.absent_neighbours(slot);
  const auto facing = [&](int direction, uint64_t bits) {
    return (absent >> direction & 1) != 0 ? bits : 0;
  };
  uint8_t unlisted = 0;
  const auto& neighbours = map_.neighbours(slot);
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = neighbours[direction];
    if (other != TileMap::kEmptySlot && block_index(other) < 0 && !stands_still(owners_[other])) {
      unlisted |= static_cast<uint8_t>(1u << direction);
    }
  }
  BorderWatch& watch = block_watch_[index];
  watch.top = facing(kN, kRow) | facing(kNW, kWest) | facing(kNE, kEast);
  watch.bottom = facing(kS, kRow) | facing(kSW, kWest) | facing(kSE, kEast);
  watch.columns = facing(kW, kWest) | facing(kE, kEast);
  watch.unlisted = unlisted;
}

void SparseGrid::list_in_block(int32_t slot) {
  if (map_.is_shared(slot)) map_.unshare(slot);
  active_.push_back(slot);
  active_bands_.push_back(kAllBands);
  outcomes_.emplace_back();
  block_place_.resize(map_.slot_count(), 0);
  block_place_[slot] = static_cast<int32_t>(active_.size());
  map_.changed_in(slot) = generation_ + 1;
  block_watch_.emplace_back();
  watch_borders(active_.size() - 1);
  // Its listed neighbours no longer face an unlisted (or absent) tile there.
  rewatch_listed_around(slot);
}

void SparseGrid::rewatch_listed_around(int32_t slot) {
  for (int32_t other : map_.neighbours(slot)) {
    if (const int32_t at = block_index(other); at >= 0) watch_borders(static_cast<size_t>(at));
  }
}

void SparseGrid::note_block_edges(size_t first, std::span<const TileEdges> edges,
                                  bool keep_summaries) {
  GOL_CHECK(first + edges.size() <= block_watch_.size());
  const int written = current_parity() ^ 1;
  for (size_t i = 0; i < edges.size(); ++i) {
    const TileEdges& edge = edges[i];
    const int32_t slot = active_[first + i];
    if (keep_summaries) {
      map_.summary(written, slot) = {border_bits(edge.top, edge.bottom, edge.live_columns),
                                     static_cast<uint8_t>(edge.live_columns != 0)};
    }
    BorderWatch& noted = block_watch_[first + i];
    noted.changed = border_bits(edge.top_change, edge.bottom_change, edge.changed_columns);
    const bool quiet = edge.changed_columns == 0 && edge.live_columns != 0;
    noted.quiet = quiet ? static_cast<uint8_t>(std::min(noted.quiet + 1, 2)) : 0;
    if (noted.quiet == 2) block_settling_.push_back(first + i);
    // A copy: listing a tile below grows block_watch_.
    const BorderWatch watch = noted;
    // A sleeping neighbour whose facing border changed from two
    // generations back wakes, as a commit would wake it, and is stepped
    // from the next generation on: its generation now is the one it slept
    // in.
    const uint8_t woken = watch.changed & watch.unlisted;
    for (unsigned bits = woken; bits != 0; bits &= bits - 1) {
      const int32_t other = map_.neighbours(slot)[std::countr_zero(bits)];
      if (block_index(other) < 0) list_in_block(other);
    }
    if (((edge.top & watch.top) | (edge.bottom & watch.bottom) |
         (edge.live_columns & watch.columns)) == 0) {
      continue;
    }
    // The map's own record: a tile made earlier in this generation is no
    // longer absent, though this tile's watch may still say so.
    const uint8_t create =
        border_bits(edge.top, edge.bottom, edge.live_columns) & map_.absent_neighbours(slot);
    if (create == 0) continue;
    create_neighbours(slot, create);
    // Those directions were absent, so a tile there now was just made; a
    // strip's frozen copies are not stepped.
    for (int direction = 0; direction < kDirections; ++direction) {
      const int32_t made = map_.neighbours(slot)[direction];
      if (!(create >> direction & 1) || made == TileMap::kEmptySlot ||
          stands_still(owners_[made]) || block_index(made) >= 0) {
        continue;
      }
      list_in_block(made);
    }
  }
}

bool SparseGrid::disturbed_in_block(int32_t slot) const {
  const auto& neighbours = map_.neighbours(slot);
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t at = block_index(neighbours[direction]);
    if (at >= 0 &&
        (block_watch_[static_cast<size_t>(at)].changed >> opposite(direction) & 1) != 0) {
      return true;
    }
  }
  return false;
}

std::span<const std::pair<uint32_t, uint32_t>> SparseGrid::settle_block() {
  block_moves_.clear();
  block_settled_slots_.clear();
  block_moved_pairs_.clear();
  if (block_settling_.empty()) return block_moves_;
  for (const size_t i : block_settling_) {
    if (!disturbed_in_block(active_[i])) block_settled_slots_.push_back(active_[i]);
  }
  block_settling_.clear();
  // The last listed tile fills each place: keeping the order would move
  // every tile after the first to leave, and the caller's arrays with them.
  for (size_t k = block_settled_slots_.size(); k-- > 0;) {
    const auto index = static_cast<size_t>(block_index(block_settled_slots_[k]));
    const size_t last = active_.size() - 1;
    if (index != last) {
      active_[index] = active_[last];
      block_watch_[index] = block_watch_[last];
      block_place_[active_[index]] = static_cast<int32_t>(index + 1);
      block_moves_.emplace_back(static_cast<uint32_t>(last), static_cast<uint32_t>(index));
    }
    active_.pop_back();
    block_watch_.pop_back();
  }
  // In a block every tile steps all bands, and outcomes are noted only by
  // its last generation's commit.
  active_bands_.resize(active_.size());
  outcomes_.resize(active_.size());
  for (const int32_t slot : block_settled_slots_) {
    block_place_[slot] = 0;
    // Inside a block the summaries were not kept; a sleeping tile's are
    // read.
    for (int parity = 0; parity < 2; ++parity) {
      map_.summary(parity, slot) = summarise(std::as_const(map_).tile(parity, slot));
    }
    if (std::as_const(map_).tile(current_parity(), slot).live_columns() == ~uint64_t{0}) {
      share_if_asleep(slot);
      if (map_.is_shared(slot)) block_moved_pairs_.push_back(slot);
    }
  }
  // Their listed neighbours now face a sleeping tile there.
  for (const int32_t slot : block_settled_slots_) rewatch_listed_around(slot);
  return block_moves_;
}

void SparseGrid::finish_block_generation() {
  ++generation_;
  if (!beyond_edge_.empty()) {
    for (int32_t slot : active_) {
      for (int parity = 0; parity < 2; ++parity) {
        map_.summary(parity, slot) = summarise(std::as_const(map_).tile(parity, slot));
      }
    }
  }
}

void SparseGrid::begin_block(uint64_t generations) {
  GOL_CHECK(map_.is_torus() && generations >= 1);
  // Planning took every wake record of the tiles active now, and the
  // block steps every tile: the list is all of them, in the block's order.
  active_.assign(torus_slots_.begin(), torus_slots_.end());
  active_bands_.assign(active_.size(), kAllBands);
  outcomes_.assign(active_.size(), Outcome{});
  // commit_written() reads the parities from the generation it commits.
  generation_ += generations - 1;
  // The block writes through the tile lists TorusBlocks keeps.
  map_.forget_counts();
}

void SparseGrid::note_written(int32_t slot, int parity, const TileChange& change) {
  map_.summary(parity, slot) = {border_bits(change.top_row, change.bottom_row, change.live_columns),
                                static_cast<uint8_t>(change.live_columns != 0)};
}

template <typename Visit>
void SparseGrid::for_each_nonempty_in(size_t first, size_t end, bool cpu_only, Visit visit) const {
  const int parity = current_parity();
  for_each_nonempty_slot_in(first, end, cpu_only, [&](int32_t slot) {
    visit(map_.coord(slot), map_.tile(parity, slot));
  });
}

template <typename Visit>
void SparseGrid::for_each_nonempty_slot_in(size_t first, size_t end, bool cpu_only,
                                           Visit visit) const {
  const int parity = current_parity();
  const std::span<const int32_t> held = map_.held();
  for (size_t at = first; at < end; ++at) {
    const int32_t slot = held[at];
    if (!map_.summary(parity, slot).nonempty) continue;
    if (cpu_only && owners_[slot] != TileOwner::kCpu) continue;
    visit(slot);
  }
}

template <typename Visit>
void SparseGrid::for_each_nonempty(bool cpu_only, Visit visit) const {
  for_each_nonempty_in(0, map_.held().size(), cpu_only, visit);
}

uint64_t SparseGrid::population() const { return counted_population(false); }

uint64_t SparseGrid::cpu_population() const { return counted_population(true); }

uint64_t SparseGrid::counted_population(bool cpu_only) const {
  const int parity = current_parity();
  if (!cpu_only) return map_.population(parity);
  if (cpu_tiles_by_columns()) {
    // A strip's tiles not its own are those of its edge columns (a whole
    // world has none).
    uint64_t edge = 0;
    const auto count_edge = [&](const std::vector<int32_t>& column) {
      for (const int32_t slot : column) edge += map_.population(parity, slot);
    };
    for_each_column(strip_first_ - kStripEdgeColumns, strip_first_ - 1, count_edge);
    for_each_column(strip_last_ + 1, strip_last_ + kStripEdgeColumns, count_edge);
    return map_.population(parity) - edge;
  }
  uint64_t count = 0;
  for_each_nonempty_slot_in(0, map_.held().size(), cpu_only,
                            [&](int32_t slot) { count += map_.population(parity, slot); });
  return count;
}

std::optional<BBox> SparseGrid::cpu_bbox() const {
  const SparseGrid* const self = this;
  return cpu_bbox_of(std::span<const SparseGrid* const>(&self, 1));
}

std::optional<BBox> SparseGrid::cpu_bbox_of(std::span<const SparseGrid* const> parts) {
  // Each side of the box lies in the outermost tiles with cells on that
  // side (a log row every generation of the spacefiller read all 49456
  // tiles' cells, 44% of such a run).
  std::optional<BBox> box;
  std::optional<TileMap::TileBox> tiles;
  for (const SparseGrid* part : parts) {
    if (!part->cpu_tiles_by_columns()) {
      if (const std::optional<BBox> part_box = part->scanned_cpu_bbox())
        extend_bbox(box, *part_box);
      continue;
    }
    const std::optional<TileMap::TileBox> part_tiles =
        part->map_.live_tile_box(part->current_parity(), part->strip_first_, part->strip_last_);
    if (!part_tiles) continue;
    if (!tiles) {
      tiles = part_tiles;
      continue;
    }
    tiles = TileMap::TileBox{
        std::min(tiles->west, part_tiles->west), std::max(tiles->east, part_tiles->east),
        std::min(tiles->north, part_tiles->north), std::max(tiles->south, part_tiles->south)};
  }
  if (!tiles) return box;
  for (const SparseGrid* part : parts) {
    if (!part->cpu_tiles_by_columns()) continue;
    const int parity = part->current_parity();
    part->map_.visit_live_on_sides(
        parity, part->strip_first_, part->strip_last_, *tiles, [&](int32_t slot) {
          const std::optional<BBox> cells =
              tile_bbox(part->map_.coord(slot), part->map_.tile(parity, slot));
          if (cells) extend_bbox(box, *cells);
        });
  }
  return box;
}

std::optional<BBox> SparseGrid::scanned_cpu_bbox() const {
  // Beside the GPU's regions, whose tiles here are not current, the tiles'
  // coordinates are read first, then the cells of the outermost. Should a
  // tile marked nonempty be empty, a side may come from further in: the box
  // is then made from every tile.
  std::optional<BBox> tiles;
  for_each_nonempty_slot_in(0, map_.held().size(), true, [&](int32_t slot) {
    const TileCoord coord = map_.coord(slot);
    extend_bbox(tiles, BBox{coord.tx, coord.ty, coord.tx, coord.ty});
  });
  if (!tiles) return std::nullopt;
  const auto outermost = [&](TileCoord coord) {
    return coord.tx == tiles->xmin || coord.tx == tiles->xmax || coord.ty == tiles->ymin ||
           coord.ty == tiles->ymax;
  };
  const auto box_of = [&](bool outermost_only) {
    std::optional<BBox> box;
    for_each_nonempty(true, [&](TileCoord coord, const Tile& tile) {
      if (outermost_only && !outermost(coord)) return;
      if (const std::optional<BBox> part = tile_bbox(coord, tile)) extend_bbox(box, *part);
    });
    return box;
  };
  const std::optional<BBox> box = box_of(true);
  const bool sides_outermost =
      box && tile_of(box->xmin) == tiles->xmin && tile_of(box->xmax) == tiles->xmax &&
      tile_of(box->ymin) == tiles->ymin && tile_of(box->ymax) == tiles->ymax;
  return sides_outermost ? box : box_of(false);
}

void SparseGrid::visit_cpu_tiles(const std::function<void(TileCoord, const Tile&)>& visit) const {
  for_each_nonempty(true, visit);
}

void SparseGrid::visit_cpu_tiles_share(
    size_t share, size_t shares, const std::function<void(TileCoord, const Tile&)>& visit) const {
  GOL_CHECK(share < shares);
  const size_t held = map_.held().size();
  for_each_nonempty_in(held * share / shares, held * (share + 1) / shares, true, visit);
}

CellSet SparseGrid::cells() const {
  CellSet result;
  for_each_nonempty(false,
                    [&](TileCoord coord, const Tile& tile) { result.put_tile(coord, tile); });
  return result;
}

CellSet SparseGrid::cpu_cells() const {
  CellSet result;
  for_each_nonempty(true, [&](TileCoord coord, const Tile& tile) { result.put_tile(coord, tile); });
  return result;
}

}  // namespace gol::sparse
