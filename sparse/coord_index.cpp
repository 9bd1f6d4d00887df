// Open-addressing map from tile coordinates to pool slots (see coord_index.h).
#include "sparse/coord_index.h"

#include "engine/core/error.h"

namespace gol::sparse {
namespace {

constexpr size_t kInitialCapacity = 64;

// A multiply-xorshift mix: tile coordinates of a pattern are small
// consecutive integers, which would cluster without scrambling.
uint64_t mix(TileCoord coord) {
  uint64_t h = static_cast<uint64_t>(coord.tx) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<uint64_t>(coord.ty) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return h;
}

}  // namespace

void CoordIndex::clear() {
  // A fresh table, not assign(): that keeps the old one's memory.
  entries_ = PopulatedVector<Entry>(kInitialCapacity);
  mask_ = kInitialCapacity - 1;
  size_ = 0;
}

void CoordIndex::empty_keeping_room() {
  for (size_t i = 0; i < entries_.size(); ++i) entries_[i] = Entry{};
  size_ = 0;
}

size_t CoordIndex::home(TileCoord coord) const { return mix(coord) & mask_; }

int32_t CoordIndex::find(TileCoord coord) const {
  for (size_t i = home(coord);; i = (i + 1) & mask_) {
    const Entry& entry = entries_[i];
    if (entry.slot == kAbsent) return kAbsent;
    if (entry.coord == coord) return entry.slot;
  }
}

void CoordIndex::insert(TileCoord coord, int32_t slot) {
  GOL_DCHECK(find(coord) == kAbsent);
  if (2 * (size_ + 1) > entries_.size()) grow();
  size_t i = home(coord);
  while (entries_[i].slot != kAbsent) i = (i + 1) & mask_;
  entries_[i] = {coord, slot};
  ++size_;
}

CoordIndex::FoundOrInserted CoordIndex::find_or_insert(TileCoord coord, int32_t slot) {
  size_t i = home(coord);
  for (; entries_[i].slot != kAbsent; i = (i + 1) & mask_) {
    if (entries_[i].coord == coord) return {entries_[i].slot, false};
  }
  if (2 * (size_ + 1) > entries_.size()) {
    // Growing moves every entry: insert() probes the new table.
    insert(coord, slot);
  } else {
    entries_[i] = {coord, slot};
    ++size_;
  }
  return {slot, true};
}

void CoordIndex::erase(TileCoord coord) {
  size_t hole = home(coord);
  while (!(entries_[hole].coord == coord && entries_[hole].slot != kAbsent)) {
    GOL_DCHECK(entries_[hole].slot != kAbsent);
    hole = (hole + 1) & mask_;
  }
  // Backward shift: move later members of the probe run into the hole when
  // their home position does not lie cyclically in (hole, i].
  for (size_t i = (hole + 1) & mask_; entries_[i].slot != kAbsent; i = (i + 1) & mask_) {
    const size_t wanted = home(entries_[i].coord);
    const bool stays = ((i - wanted) & mask_) < ((i - hole) & mask_);
    if (!stays) {
      entries_[hole] = entries_[i];
      hole = i;
    }
  }
  entries_[hole] = Entry{};
  --size_;
}

void CoordIndex::reserve(size_t count) {
  size_t capacity = entries_.size();
  while (2 * count > capacity) capacity *= 2;
  if (capacity != entries_.size()) rehash(capacity);
}

void CoordIndex::grow() { rehash(entries_.size() * 2); }

void CoordIndex::rehash(size_t capacity) {
  PopulatedVector<Entry> old = std::move(entries_);
  entries_.assign(capacity, Entry{});
  mask_ = entries_.size() - 1;
  size_ = 0;
  for (const Entry& entry : old) {
    if (entry.slot != kAbsent) insert(entry.coord, entry.slot);
  }
}

}  // namespace gol::sparse
