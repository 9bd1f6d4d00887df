// Sleep, wake, create and free for the sparse tile world (see sparse_grid.h).
#include "sparse/sparse_grid.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include "engine/core/error.h"

namespace gol::sparse {
namespace {

// Wake flags are set concurrently by several commits; all write the same
// value, so relaxed stores suffice (the join after the parallel pass orders
// them before finish_generation reads them).
void set_flag(uint8_t& flag) { std::atomic_ref<uint8_t>(flag).store(1, std::memory_order_relaxed); }

// Below this many candidates per slot, planning visits the stepped tiles'
// neighbourhoods; above it, one scan over all wake flags is cheaper.
constexpr size_t kGatherSlotsPerCandidate = 8;

struct ColumnMasks {
  uint64_t changed;  // OR over rows of (new ^ old)
  uint64_t live;     // OR over rows of new
};

// Commit's inner loop, compiled for several instruction sets (the build
// has no -march): AVX-512 and AVX2 do it in a fraction of SSE2's time.
__attribute__((target_clones("avx512f", "avx2", "default"))) ColumnMasks copy_and_compare(
    const uint64_t* __restrict source, uint64_t* __restrict target) {
  uint64_t changed = 0;
  uint64_t live = 0;
  for (int row = 0; row < kTileSize; ++row) {
    changed |= source[row] ^ target[row];
    live |= source[row];
    target[row] = source[row];
  }
  return {changed, live};
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

}  // namespace

void SparseGrid::load(const CellSet& cells, const Topology& topology, bool keep_all_active) {
  generation_ = 0;
  keep_all_active_ = keep_all_active;
  if (topology.is_torus()) {
    load_torus(cells, topology);
  } else {
    load_plane(cells);
  }
  // With no history, pretend generation -1 equalled generation 0: a tile
  // then sleeps only after a generation in which it did not change.
  active_.assign(map_.held().begin(), map_.held().end());
  std::sort(active_.begin(), active_.end());
  for (int32_t slot : active_) {
    map_.tile(1, slot) = map_.tile(0, slot);
    map_.summary(0, slot) = summarise(map_.tile(0, slot));
    map_.summary(1, slot) = map_.summary(0, slot);
  }
  wake_.assign(map_.slot_count(), 0);
  owners_.assign(map_.slot_count(), TileOwner::kCpu);
  outcomes_.assign(active_.size(), Outcome{});
}

void SparseGrid::load_torus(const CellSet& cells, const Topology& topology) {
  const int64_t tiles_x = topology.width / kTileSize;
  const int64_t tiles_y = topology.height / kTileSize;
  map_.reset_torus(tiles_x, tiles_y);
  for (const auto& [coord, tile] : cells.tiles()) {
    Tile& target = map_.tile(0, map_.find({wrap(coord.tx, tiles_x), wrap(coord.ty, tiles_y)}));
    for (int row = 0; row < kTileSize; ++row) target.rows[row] |= tile.rows[row];
  }
}

void SparseGrid::load_plane(const CellSet& cells) {
  map_.reset_plane();
  // The pattern's tiles and a ring of new neighbours around them.
  const size_t count = cells.tiles().size();
  const auto ring = static_cast<size_t>(4 * std::sqrt(static_cast<double>(count)));
  map_.reserve(count + ring + 8);
  std::vector<int32_t> loaded;
  loaded.reserve(count);
  for (const auto& [coord, tile] : cells.tiles()) {
    if (tile.empty()) continue;
    const int32_t slot = map_.create(coord);
    if (slot == TileMap::kAbsent) {
      throw InputError("pattern has cells beyond the plane's range of +-2^62");
    }
    map_.tile(0, slot) = tile;
    loaded.push_back(slot);
  }
  for (int32_t slot : loaded) {
    const uint8_t border = border_occupancy(map_.tile(0, slot));
    for (int direction = 0; direction < kDirections; ++direction) {
      const TileCoord at = map_.coord(slot);
      const TileCoord next{at.tx + kDirectionDx[direction], at.ty + kDirectionDy[direction]};
      if ((border >> direction & 1) && map_.find(next) == TileMap::kAbsent) map_.create(next);
    }
  }
}

void SparseGrid::neighbourhood(int32_t slot, const Tile* (&at)[3][3]) const {
  const int parity = current_parity();
  at[1][1] = &map_.tile(parity, slot);
  const auto& neighbours = map_.neighbours(slot);
  for (int direction = 0; direction < kDirections; ++direction) {
    at[1 + kDirectionDy[direction]][1 + kDirectionDx[direction]] =
        &map_.tile(parity, neighbours[direction]);
  }
}

void SparseGrid::wake(int32_t slot) { set_flag(wake_[slot]); }

void SparseGrid::commit(size_t index, const Tile& next) {
  uint64_t* __restrict target = commit_target(index)->rows.data();
  const uint64_t* __restrict source = next.rows.data();
  TileChange change;
  change.top_change = source[0] ^ target[0];
  change.bottom_change = source[kTileSize - 1] ^ target[kTileSize - 1];
  const auto [changed_columns, live_columns] = copy_and_compare(source, target);
  change.changed_columns = changed_columns;
  change.live_columns = live_columns;
  commit_written(index, change);
}

void SparseGrid::commit_written(size_t index, const TileChange& change) {
  const int32_t slot = active_[index];
  const int next_parity = current_parity() ^ 1;
  const Tile& next = map_.tile(next_parity, slot);
  const uint64_t live_columns = change.live_columns;
  const uint8_t border = border_bits(next.rows[0], next.rows[kTileSize - 1], live_columns);
  map_.summary(next_parity, slot) = {border, static_cast<uint8_t>(live_columns != 0)};

  const auto& neighbours = map_.neighbours(slot);
  uint8_t absent = 0;
  for (int direction = 0; direction < kDirections; ++direction) {
    absent |= static_cast<uint8_t>((neighbours[direction] == TileMap::kEmptySlot) << direction);
  }
  Outcome& outcome = outcomes_[index];
  outcome.create = border & absent;
  outcome.maybe_free =
      live_columns == 0 && map_.summary(next_parity ^ 1, slot).nonempty == 0 && !map_.is_torus();

  if (change.changed_columns != 0) {
    wake(slot);
    // Eight unconditional stores, not a data-dependent loop (its branch
    // mispredictions cost more): a neighbour not to wake gets this tile's
    // own flag instead, which is set anyway. A shared sink would bounce its
    // cache line between the workers.
    const unsigned changed_border =
        border_bits(change.top_change, change.bottom_change, change.changed_columns) & ~absent &
        0xFFu;
    if (changed_border == 0) return;
    std::array<int32_t, kDirections> targets;
    for (int direction = 0; direction < kDirections; ++direction) {
      const int32_t wanted = -static_cast<int32_t>(changed_border >> direction & 1);
      targets[direction] = slot + ((neighbours[direction] - slot) & wanted);
    }
    uint8_t* const flags = wake_.data();
    for (int32_t target_slot : targets) set_flag(flags[target_slot]);
  }
}

void SparseGrid::fit_slot_arrays() {
  // Released slabs shrink the slot range and their slots come back as new
  // tiles, CPU-owned.
  wake_.resize(map_.slot_count(), 0);
  owners_.resize(map_.slot_count(), TileOwner::kCpu);
}

int32_t SparseGrid::create_awake(TileCoord coord) {
  const int32_t created = map_.create(coord);
  if (created == TileMap::kAbsent) return created;  // beyond the plane's range
  fit_slot_arrays();
  wake_[created] = 1;
  owners_[created] = TileOwner::kCpu;
  return created;
}

void SparseGrid::create_neighbours(int32_t slot, uint8_t directions) {
  for (int direction = 0; direction < kDirections; ++direction) {
    // Re-read each time: creating a tile may move the neighbour table.
    if (!(directions >> direction & 1) || map_.neighbours(slot)[direction] != TileMap::kEmptySlot) {
      continue;
    }
    const TileCoord at = map_.coord(slot);
    // Beyond the plane's range the tile is not created: activity there is dropped.
    create_awake({at.tx + kDirectionDx[direction], at.ty + kDirectionDy[direction]});
  }
}

int32_t SparseGrid::ensure_tile(TileCoord coord) {
  const int32_t slot = map_.find(coord);
  return slot != TileMap::kAbsent || map_.is_torus() ? slot : create_awake(coord);
}

void SparseGrid::set_owner(int32_t slot, TileOwner owner) {
  if (owner == TileOwner::kCpu && owners_[slot] != TileOwner::kCpu) wake_[slot] = 1;
  owners_[slot] = owner;
}

void SparseGrid::import_tile(int32_t slot, const Tile& current, const Tile& previous) {
  const int parity = current_parity();
  Tile& held_current = map_.tile(parity, slot);
  Tile& held_previous = map_.tile(parity ^ 1, slot);
  const uint8_t differs =
      facing_differences(held_current, current) | facing_differences(held_previous, previous);
  held_current = current;
  held_previous = previous;
  map_.summary(parity, slot) = summarise(current);
  map_.summary(parity ^ 1, slot) = summarise(previous);
  wake_[slot] = 1;
  const uint8_t live_border = map_.summary(0, slot).border | map_.summary(1, slot).border;
  for (int direction = 0; direction < kDirections; ++direction) {
    const int32_t other = map_.neighbours(slot)[direction];
    if (other != TileMap::kEmptySlot) {
      if (differs >> direction & 1) wake_[other] = 1;
    } else if ((live_border >> direction & 1) && !map_.is_torus()) {
      const TileCoord at = map_.coord(slot);
      create_awake({at.tx + kDirectionDx[direction], at.ty + kDirectionDy[direction]});
    }
  }
}

void SparseGrid::replan() {
  fit_slot_arrays();
  for (int32_t slot : active_) wake_[slot] = 1;
  if (keep_all_active_) {
    // Every tile the CPU steps stays listed.
    for (int32_t slot : map_.held()) {
      if (owners_[slot] != TileOwner::kGpu) wake_[slot] = 1;
    }
  }
  wake_[TileMap::kEmptySlot] = 0;
  plan_by_scan();
  outcomes_.assign(active_.size(), Outcome{});
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

void SparseGrid::finish_generation() {
  ++generation_;
  if (keep_all_active_) return;  // every slot stays in active_
  const size_t stepped = active_.size();
  if (!map_.is_torus()) {
    // Create first, then free, so a slot freed now is not reused in the
    // same pass while active_ still names it.
    for (size_t i = 0; i < stepped; ++i) {
      if (outcomes_[i].create != 0) create_neighbours(active_[i], outcomes_[i].create);
    }
    for (size_t i = 0; i < stepped; ++i) {
      const int32_t slot = active_[i];
      if (outcomes_[i].maybe_free && owners_[slot] == TileOwner::kCpu && !shows_live_border(slot)) {
        map_.free(slot);
        wake_[slot] = 0;
      }
    }
  }
  fit_slot_arrays();
  wake_[TileMap::kEmptySlot] = 0;
  plan_from_wake_flags(stepped);
  // Planning read the links of the tiles freed above; now their slabs may go.
  map_.release_empty_slabs();
  fit_slot_arrays();
  outcomes_.resize(active_.size());
}

void SparseGrid::plan_from_wake_flags(size_t previous_count) {
  // Every woken slot is a stepped tile or a neighbour of one (created tiles
  // included), so when few tiles stepped it is enough to look there.
  if (previous_count * kDirections * kGatherSlotsPerCandidate < map_.slot_count()) {
    std::vector<int32_t>& next = planned_;
    next.clear();
    auto take = [&](int32_t slot) {
      if (wake_[slot]) {
        wake_[slot] = 0;
        if (owners_[slot] != TileOwner::kGpu) next.push_back(slot);
      }
    };
    for (size_t i = 0; i < previous_count; ++i) {
      const int32_t slot = active_[i];
      take(slot);
      // A tile freed in this pass still lists its neighbours (slots are
      // not reused before the next pass), and it may have woken them.
      for (int32_t other : map_.neighbours(slot)) take(other);
    }
    std::sort(next.begin(), next.end());
    active_.swap(next);
    return;
  }
  plan_by_scan();
}

void SparseGrid::plan_by_scan() {
  active_.clear();
  const size_t slots = map_.slot_count();
  size_t slot = 0;
  for (; slot + 8 <= slots; slot += 8) {
    uint64_t flags;
    std::memcpy(&flags, &wake_[slot], sizeof flags);
    if (flags == 0) continue;
    for (size_t k = 0; k < 8; ++k) {
      if (wake_[slot + k] && owners_[slot + k] != TileOwner::kGpu) {
        active_.push_back(static_cast<int32_t>(slot + k));
      }
    }
    std::memset(&wake_[slot], 0, 8);
  }
  for (; slot < slots; ++slot) {
    if (wake_[slot] && owners_[slot] != TileOwner::kGpu) {
      active_.push_back(static_cast<int32_t>(slot));
    }
    wake_[slot] = 0;
  }
}

void SparseGrid::advance_asleep(uint64_t generations) {
  GOL_CHECK(active_.empty());
  generation_ += generations;
}

template <typename Visit>
void SparseGrid::for_each_nonempty(bool cpu_only, Visit visit) const {
  const int parity = current_parity();
  for (int32_t slot : map_.held()) {
    if (!map_.summary(parity, slot).nonempty) continue;
    if (cpu_only && owners_[slot] != TileOwner::kCpu) continue;
    visit(map_.coord(slot), map_.tile(parity, slot));
  }
}

uint64_t SparseGrid::population() const {
  uint64_t count = 0;
  for_each_nonempty(false, [&](TileCoord, const Tile& tile) { count += tile.population(); });
  return count;
}

uint64_t SparseGrid::cpu_population() const {
  uint64_t count = 0;
  for_each_nonempty(true, [&](TileCoord, const Tile& tile) { count += tile.population(); });
  return count;
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
