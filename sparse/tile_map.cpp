// The slot pool of tiles with cached neighbour links (see tile_map.h).
#include "sparse/tile_map.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <functional>
#include <utility>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::sparse {

namespace {

// Eras of pairs' versions, one for each map made, moved into or emptied in
// the process, so that no two maps share a version; within an era a map
// counts its changes in the low kEraShift bits (a plain increment: making
// and freeing tiles, on several strips' threads at once, must not meet on
// one shared counter).
constexpr int kEraShift = 40;
constexpr uint64_t kEraMask = (uint64_t{1} << kEraShift) - 1;
std::atomic<uint64_t> last_pairs_era{0};

bool within_plane_range(TileCoord coord) {
  return coord.tx >= -kMaxTileCoordinate && coord.tx < kMaxTileCoordinate &&
         coord.ty >= -kMaxTileCoordinate && coord.ty < kMaxTileCoordinate;
}

}  // namespace

uint8_t border_occupancy(const Tile& tile) {
  return border_bits(tile.rows[0], tile.rows[kTileSize - 1], tile.live_columns());
}

TileMap::TileMap() { start_pairs_era(); }

TileMap::~TileMap() { release_all(); }

void TileMap::start_pairs_era() {
  pairs_version_ = (last_pairs_era.fetch_add(1, std::memory_order_relaxed) + 1) << kEraShift;
}

void TileMap::note_pairs_moved() {
  if ((++pairs_version_ & kEraMask) == 0) start_pairs_era();
}

TileMap::TileMap(TileMap&& other) noexcept { *this = std::move(other); }

TileMap& TileMap::operator=(TileMap&& other) noexcept {
  if (this == &other) return *this;
  release_all();
  torus_ = other.torus_;
  tiles_x_ = other.tiles_x_;
  tiles_y_ = other.tiles_y_;
  slabs_ = std::move(other.slabs_);
  held_ = std::move(other.held_);
  index_ = std::move(other.index_);
  pool_ = std::move(other.pool_);
  packed_free_ = std::exchange(other.packed_free_, 0);
  shared_ = std::move(other.shared_);
  shared_slots_ = other.shared_slots_;
  populations_ = other.populations_;
  lines_ = std::move(other.lines_);
  lines_kept_ = other.lines_kept_;
  // release_all() above started this map's new era: no version it held
  // before names the pairs it takes over.
  other.forget_all();
  return *this;
}

void TileMap::release_all() {
  slabs_.release_all();
  pool_.release_all();
  shared_.clear();
  forget_all();
}

void TileMap::reset_plane() {
  static_assert(sizeof(Slab) / kSlabSlots + 2 * sizeof(Tile) + 128 <= kEngineBytesPerTile,
                "a slot and the grid's and index's entries for it must fit the budget's charge");
  torus_ = false;
  tiles_x_ = tiles_y_ = 0;
  release_all();
  const int32_t empty = allocate_slot({});
  GOL_CHECK(empty == kEmptySlot);
}

void TileMap::reset_torus(int64_t tiles_x, int64_t tiles_y) {
  reset_plane();
  reserve(static_cast<size_t>(tiles_x * tiles_y) + 1);
  torus_ = true;
  tiles_x_ = tiles_x;
  tiles_y_ = tiles_y;
  for (int64_t ty = 0; ty < tiles_y; ++ty) {
    for (int64_t tx = 0; tx < tiles_x; ++tx) create({tx, ty});
  }
}

void TileMap::reserve(size_t slots) {
  slabs_.reserve((slots + kSlabSlots - 1) / kSlabSlots);
  held_.reserve(slots);
  index_.reserve(slots);
}

int32_t TileMap::find(TileCoord coord) const { return index_.find(coord, coords()); }

bool TileMap::in_use(int32_t slot) const {
  const size_t slab_index = static_cast<size_t>(slot) >> kSlabBits;
  return slab_index < slabs_.count() && slabs_.block(slab_index) != nullptr &&
         slabs_.block(slab_index)->in_use[local(slot)] != 0;
}

TileCoord TileMap::neighbour_coord(TileCoord coord, int direction) const {
  TileCoord next{coord.tx + kDirectionDx[direction], coord.ty + kDirectionDy[direction]};
  if (torus_) next = {wrap(next.tx, tiles_x_), wrap(next.ty, tiles_y_)};
  return next;
}

void TileMap::forget_counts() {
  for (size_t i = 0; i < slabs_.count(); ++i) {
    Slab* const slab = slabs_.block(i);
    if (slab == nullptr) continue;
    std::memset(slab->stale, 1, sizeof slab->stale);
    slab->written[0] = slab->written[1] = 1;
  }
}

uint64_t TileMap::population(int parity) const {
  count_written(parity);
  // A write that tile() did not see (through an address kept from before
  // the last read, without forget_counts()) leaves the total behind.
  GOL_DCHECK(populations_[parity] == count_every_tile(parity));
  return populations_[parity];
}

uint64_t TileMap::count_every_tile(int parity) const {
  uint64_t count = 0;
  for (const int32_t slot : held_) count += tile(parity, slot).population();
  return count;
}

void TileMap::count_written(int parity) const {
  for (size_t i = 0; i < slabs_.count(); ++i) {
    Slab* const slab = slabs_.block(i);
    if (slab == nullptr || slab->written[parity] == 0) continue;
    slab->written[parity] = 0;
    for (int32_t at = 0; at < kSlabSlots; ++at) {
      if (slab->stale[parity][at] != 0 && slab->in_use[at] != 0) {
        recount(parity, static_cast<int32_t>(i * kSlabSlots) + at);
      }
    }
  }
}

void TileMap::recount(int parity, int32_t slot) const {
  Slab& home = slab(slot);
  const int32_t at = local(slot);
  const uint32_t before = home.populations[parity][at];
  const auto now = static_cast<uint32_t>(tile(parity, slot).population());
  home.populations[parity][at] = now;
  home.stale[parity][at] = 0;
  populations_[parity] += now;
  populations_[parity] -= before;
  if (!lines_kept_ || (before != 0) == (now != 0)) return;
  if (now != 0) {
    add_to_lines(parity, slot);
  } else {
    remove_from_lines(parity, slot);
  }
}

std::optional<TileMap::TileBox> TileMap::live_tile_box(int parity, int64_t first_column,
                                                       int64_t last_column) const {
  if (!lines_kept_) keep_lines();
  count_written(parity);
  const LiveLines& lines = lines_[parity];
  const auto west = lines.columns.lower_bound(first_column);
  if (west == lines.columns.end() || west->first > last_column) return std::nullopt;
  TileBox box{west->first, std::prev(lines.columns.upper_bound(last_column))->first, 0, 0};
  // The outermost rows holding a tile in range, from each end.
  const auto first_row = [&](auto row, auto end) {
    for (; row != end; ++row) {
      for (const int32_t slot : row->second) {
        const int64_t tx = coord(slot).tx;
        if (tx >= first_column && tx <= last_column) return row->first;
      }
    }
    GOL_CHECK(false);  // the columns above hold a tile in range
    return int64_t{0};
  };
  box.north = first_row(lines.rows.begin(), lines.rows.end());
  box.south = first_row(lines.rows.rbegin(), lines.rows.rend());
  return box;
}

void TileMap::keep_lines() const {
  for (int parity = 0; parity < 2; ++parity) {
    count_written(parity);
    for (const int32_t slot : held_) {
      if (slab(slot).populations[parity][local(slot)] != 0) add_to_lines(parity, slot);
    }
  }
  lines_kept_ = true;
}

void TileMap::add_to_lines(int parity, int32_t slot) const {
  const TileCoord at = coord(slot);
  lines_[parity].columns[at.tx].push_back(slot);
  lines_[parity].rows[at.ty].push_back(slot);
}

void TileMap::remove_from_lines(int parity, int32_t slot) const {
  const TileCoord at = coord(slot);
  const auto remove = [slot](std::map<int64_t, std::vector<int32_t>>& lines, int64_t line) {
    const auto found = lines.find(line);
    GOL_DCHECK(found != lines.end());
    std::vector<int32_t>& slots = found->second;
    const auto position = std::find(slots.begin(), slots.end(), slot);
    GOL_DCHECK(position != slots.end());
    *position = slots.back();
    slots.pop_back();
    if (slots.empty()) lines.erase(found);
  };
  remove(lines_[parity].columns, at.tx);
  remove(lines_[parity].rows, at.ty);
}

void TileMap::drop_lines() const {
  lines_ = {};
  lines_kept_ = false;
}

void TileMap::uncount(int32_t slot) {
  Slab& home = slab(slot);
  const int32_t at = local(slot);
  for (int parity = 0; parity < 2; ++parity) {
    const uint32_t kept = home.populations[parity][at];
    if (kept != 0 && lines_kept_) remove_from_lines(parity, slot);
    populations_[parity] -= kept;
    home.populations[parity][at] = 0;
    home.stale[parity][at] = 0;
  }
}

int32_t TileMap::allocate_slot(TileCoord coord) {
  const auto taken = slabs_.take();
  Slab& slab = taken.block;
  const int32_t at = taken.at;
  if (taken.reused) {
    for (int parity = 0; parity < 2; ++parity) {
      slab.summaries[parity][at] = Summary{};
      slab.populations[parity][at] = 0;
      slab.stale[parity][at] = 0;
    }
  }
  slab.coords[at] = coord;
  slab.pairs[at] = {pool_.take(), false};
  note_pairs_moved();
  return static_cast<int32_t>(taken.index * kSlabSlots) + at;
}

namespace {

// The direction of the offset (dx, dy), both in [-1, 1] and not both 0.
constexpr int direction_of(int dx, int dy) {
  constexpr int kByOffset[3][3] = {{kNW, kN, kNE}, {kW, -1, kE}, {kSW, kS, kSE}};
  return kByOffset[dy + 1][dx + 1];
}

}  // namespace

int32_t TileMap::neighbour_slot(TileCoord coord, int direction, Beside beside) const {
  if (beside.slot != kAbsent) {
    // The neighbour's offset from the tile beside.
    const int dx = kDirectionDx[beside.direction] + kDirectionDx[direction];
    const int dy = kDirectionDy[beside.direction] + kDirectionDy[direction];
    if (dx == 0 && dy == 0) return beside.slot;
    if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) {
      const int32_t other = neighbours(beside.slot)[direction_of(dx, dy)];
      return other == kEmptySlot ? kAbsent : other;
    }
  }
  return find(neighbour_coord(coord, direction));
}

int32_t TileMap::create(TileCoord coord, Beside beside) {
  GOL_DCHECK(find(coord) == kAbsent);
  GOL_DCHECK(beside.slot == kAbsent ||
             neighbour_coord(this->coord(beside.slot), beside.direction) == coord);
  if (!torus_ && !within_plane_range(coord)) return kAbsent;
  const int32_t slot = allocate_slot(coord);
  Slab& home = slab(slot);
  home.in_use[local(slot)] = 1;
  home.held_position[local(slot)] = static_cast<int32_t>(held_.size());
  held_.push_back(slot);
  index_.insert(coord, slot);
  // Every direction starts absent; link() clears the bit of each neighbour found.
  home.absent[local(slot)] = static_cast<uint8_t>((1u << kDirections) - 1);
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = neighbour_slot(coord, direction, beside);
    if (other != kAbsent) {
      link(slot, direction, other);
      continue;
    }
    home.neighbours[local(slot)][direction] = kEmptySlot;
    home.neighbour_tiles[local(slot)][direction] = &std::as_const(*this).tile(0, kEmptySlot);
  }
  return slot;
}

void TileMap::free(int32_t slot) {
  GOL_CHECK(!torus_ && in_use(slot));
  Slab& home = slab(slot);
  const int32_t at = local(slot);
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = home.neighbours[at][direction];
    if (other == kEmptySlot) continue;
    Slab& there = slab(other);
    there.neighbours[local(other)][opposite(direction)] = kEmptySlot;
    there.neighbour_tiles[local(other)][opposite(direction)] =
        &std::as_const(*this).tile(0, kEmptySlot);
    there.absent[local(other)] |= static_cast<uint8_t>(1u << opposite(direction));
  }
  index_.erase(home.coords[at], coords());
  // Swap-remove from the held list.
  const int32_t position = home.held_position[at];
  const int32_t last = held_.back();
  held_[static_cast<size_t>(position)] = last;
  slab(last).held_position[local(last)] = position;
  held_.pop_back();

  uncount(slot);
  release_pair(slot);
  home.in_use[at] = 0;
  slabs_.give_back(static_cast<size_t>(slot) >> kSlabBits, at);
}

void TileMap::link(int32_t slot, int direction, int32_t other) {
  Slab& home = slab(slot);
  Slab& there = slab(other);
  const int back = opposite(direction);
  home.neighbours[local(slot)][direction] = other;
  home.neighbour_tiles[local(slot)][direction] = there.pairs[local(other)].get();
  home.absent[local(slot)] &= static_cast<uint8_t>(~(1u << direction));
  there.neighbours[local(other)][back] = slot;
  there.neighbour_tiles[local(other)][back] = home.pairs[local(slot)].get();
  there.absent[local(other)] &= static_cast<uint8_t>(~(1u << back));
}

int32_t TileMap::adopt(TileMap& other) {
  GOL_CHECK(!torus_ && !other.torus_ && other.slabs_.count() > 0 &&
            other.slabs_.block(0) != nullptr);
  const size_t first_slab = slabs_.count();
  const auto offset = static_cast<int32_t>(first_slab * kSlabSlots);
  const auto held_before = static_cast<int32_t>(held_.size());
  // The other map's empty tile becomes a free slot here: its tiles' links
  // to it go to this map's empty tile instead.
  pool_.adopt(other.pool_);
  shared_.adopt(other.shared_);
  shared_slots_ += std::exchange(other.shared_slots_, 0);
  for (int parity = 0; parity < 2; ++parity) populations_[parity] += other.populations_[parity];
  // The lines name slots, which move by the offset: made again if read.
  drop_lines();
  pool_.give_back(other.slabs_.block(0)->pairs[kEmptySlot].own());
  other.slabs_.give_back(0, kEmptySlot);
  slabs_.adopt(other.slabs_);
  const Tile* const empty = &std::as_const(*this).tile(0, kEmptySlot);
  for (size_t slab_index = first_slab; slab_index < slabs_.count(); ++slab_index) {
    Slab* const adopted = slabs_.block(slab_index);
    if (adopted == nullptr) continue;
    for (int32_t at = 0; at < kSlabSlots; ++at) {
      if (adopted->in_use[at] == 0) continue;
      for (int direction = 0; direction < kDirections; ++direction) {
        int32_t& neighbour = adopted->neighbours[at][direction];
        if (neighbour == kEmptySlot) {
          adopted->neighbour_tiles[at][direction] = empty;
        } else {
          neighbour += offset;
        }
      }
      adopted->held_position[at] += held_before;
    }
  }
  // The other map's index is not read again (the coordinates are in the
  // slabs): its table goes before this one grows, so that a merge of strips
  // never holds both.
  other.index_.clear();
  index_.reserve(held_.size() + other.held_.size());
  for (const int32_t theirs : other.held_) {
    const int32_t slot = theirs + offset;
    held_.push_back(slot);
    GOL_DCHECK(find(coord(slot)) == kAbsent);
    index_.insert(coord(slot), slot);
  }
  // Only a tile facing a coordinate absent over there can border one here.
  for (auto position = static_cast<size_t>(held_before); position < held_.size(); ++position) {
    const int32_t slot = held_[position];
    for (unsigned absent = absent_neighbours(slot); absent != 0; absent &= absent - 1) {
      const int direction = std::countr_zero(absent);
      const int32_t found = find(neighbour_coord(coord(slot), direction));
      if (found != kAbsent) link(slot, direction, found);
    }
  }
  other.forget_all();
  start_pairs_era();
  return offset;
}

void TileMap::forget_all() {
  held_.clear();
  index_.clear();
  shared_slots_ = 0;
  populations_ = {};
  drop_lines();
  start_pairs_era();
}

void TileMap::release_pair(int32_t slot, bool draining) {
  PairRef& pair = slab(slot).pairs[local(slot)];
  Tile* own = pair.own();
  if (pair.shared()) {
    own = shared_.release(pair.get());
    --shared_slots_;
  }
  if (own != nullptr) {
    if (draining) {
      pool_.give_back_draining(own);
    } else {
      pool_.give_back(own);
    }
  }
  pair = {};
  note_pairs_moved();
}

void TileMap::relink_pair(int32_t slot) {
  const Slab& home = slab(slot);
  const Tile* const moved = home.pairs[local(slot)].get();
  const auto& neighbours = home.neighbours[local(slot)];
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = neighbours[direction];
    if (other != kEmptySlot) slab(other).neighbour_tiles[local(other)][opposite(direction)] = moved;
  }
}

void TileMap::share(int32_t slot) {
  GOL_DCHECK(!torus_ && slot != kEmptySlot && in_use(slot));
  PairRef& pair = slab(slot).pairs[local(slot)];
  if (pair.shared()) return;
  pair = {shared_.share(pair.own(), pool_), true};
  ++shared_slots_;
  note_pairs_moved();
  relink_pair(slot);
}

void TileMap::unshare(int32_t slot) {
  PairRef& pair = slab(slot).pairs[local(slot)];
  if (!pair.shared()) return;
  Tile* own = shared_.release(pair.get());
  if (own == nullptr) {
    own = pool_.take_uncleared();
    copy_pair(pair.get(), own);
  }
  pair = {own, false};
  --shared_slots_;
  note_pairs_moved();
  relink_pair(slot);
}

size_t TileMap::free_pairs() const {
  return pool_.blocks_mapped() * TilePairPool::kBlockPairs - pool_.pairs_in_use();
}

void TileMap::pack_pairs() {
  std::vector<std::pair<size_t, int32_t>> owned;  // (block, slot)
  for (const int32_t slot : held_) {
    const PairRef& pair = slab(slot).pairs[local(slot)];
    if (slot != kEmptySlot && !pair.shared()) {
      owned.emplace_back(TilePairPool::block_index(pair.own()), slot);
    }
  }
  std::sort(owned.begin(), owned.end(), std::greater<>());
  for (const auto& [block, slot] : owned) {
    if (pool_.lowest_open_block() >= block) break;
    PairRef& pair = slab(slot).pairs[local(slot)];
    Tile* const to = pool_.take_uncleared();
    copy_pair(pair.own(), to);
    pool_.give_back(pair.own());
    pair = {to, false};
    relink_pair(slot);
  }
  note_pairs_moved();
}

void TileMap::release_empty_slabs() {
  bool pack = false;
  if (!torus_) {
    const size_t free = free_pairs();
    packed_free_ = std::min(packed_free_, free);
    pack = free >= packed_free_ + std::max(kPackSlackBlocks * TilePairPool::kBlockPairs,
                                           pool_.pairs_in_use() / kPackSlackShare);
  }
  if (pack) pack_pairs();
  pool_.release_empty_blocks();
  slabs_.release_empty();
  if (pack) packed_free_ = free_pairs();
}

}  // namespace gol::sparse
