// A hash map from tile coordinates to slots (of the tile pool, or of any
// table holding each slot's coordinate): open addressing with linear
// probing and backward-shift deletion, so lookups touch one or two cache
// lines and erasing leaves no tombstones behind.
//
// An entry is 8 bytes: 32 bits of the coordinate's hash and the slot. The
// coordinate itself stays where the caller keeps it, read back through
// `coord_of(slot)` to confirm a match. Keeping it in the entry (24 bytes)
// made the spacefiller's index the largest table of its run, 4.7 of its 24
// MB on two threads, and every page of it costs microseconds to map on the
// dev host (bench/RESULTS.md). A slot's home comes from the stored hash
// bits, so growing never reads a coordinate.
#pragma once

#include <cstdint>

#include "engine/core/error.h"
#include "engine/core/tile.h"
#include "sparse/populated_allocator.h"

namespace gol::sparse {

class CoordIndex {
 public:
  static constexpr int32_t kAbsent = -1;

  CoordIndex() { clear(); }

  // Empties the index and gives its table's memory back.
  void clear();
  // Empties the index, keeping its table for the next fill (fresh pages
  // cost more than clearing the ones held).
  void empty_keeping_room();
  // Room for `count` coordinates without growing.
  void reserve(size_t count);
  // The slot stored for `coord`, or kAbsent. `coord_of(slot)` gives the
  // coordinate of a slot stored here.
  template <class CoordOf>
  int32_t find(TileCoord coord, CoordOf coord_of) const;
  // Stores `slot` for a coordinate that is not present yet.
  void insert(TileCoord coord, int32_t slot);
  // The slot stored for `coord`, found, or `slot`, stored for it now
  // (`inserted` says which), in one probe where find() then insert() take
  // two.
  struct FoundOrInserted {
    int32_t slot;
    bool inserted;
  };
  template <class CoordOf>
  FoundOrInserted find_or_insert(TileCoord coord, int32_t slot, CoordOf coord_of);
  // Removes `coord`; it must be present.
  template <class CoordOf>
  void erase(TileCoord coord, CoordOf coord_of);
  size_t size() const { return size_; }
  // How many coordinates it holds before it grows (and rehashes).
  size_t room() const { return entries_.size() / 2; }

 private:
  // 0: empty; else the hash's top 32 bits over the slot + 1.
  using Entry = uint64_t;
  static constexpr int kTagBits = 32;

  static uint32_t tag_of(TileCoord coord);
  static Entry entry(uint32_t tag, int32_t slot) {
    return uint64_t{tag} << kTagBits | (static_cast<uint32_t>(slot) + 1u);
  }
  static uint32_t tag(Entry entry) { return static_cast<uint32_t>(entry >> kTagBits); }
  static int32_t slot(Entry entry) {
    return static_cast<int32_t>(static_cast<uint32_t>(entry) - 1u);
  }
  // The table's capacity is 2^bits_; a tag's home is its top bits_ bits.
  size_t home(uint32_t tag) const { return tag >> (kTagBits - bits_); }
  size_t mask() const { return entries_.size() - 1; }
  // Where `coord` is stored, or where its probe ends (an empty entry).
  template <class CoordOf>
  size_t probe(TileCoord coord, uint32_t tag, CoordOf coord_of) const;
  void place(Entry entry);
  void grow();
  void rehash(size_t capacity);

  PopulatedVector<Entry> entries_;
  int bits_ = 0;
  size_t size_ = 0;
};

template <class CoordOf>
size_t CoordIndex::probe(TileCoord coord, uint32_t tag, CoordOf coord_of) const {
  size_t i = home(tag);
  for (;; i = (i + 1) & mask()) {
    const Entry at = entries_[i];
    if (at == 0 || (CoordIndex::tag(at) == tag && coord_of(slot(at)) == coord)) return i;
  }
}

template <class CoordOf>
int32_t CoordIndex::find(TileCoord coord, CoordOf coord_of) const {
  const Entry at = entries_[probe(coord, tag_of(coord), coord_of)];
  return at == 0 ? kAbsent : slot(at);
}

template <class CoordOf>
CoordIndex::FoundOrInserted CoordIndex::find_or_insert(TileCoord coord, int32_t slot,
                                                       CoordOf coord_of) {
  const uint32_t tag = tag_of(coord);
  const size_t i = probe(coord, tag, coord_of);
  if (entries_[i] != 0) return {CoordIndex::slot(entries_[i]), false};
  if (2 * (size_ + 1) > entries_.size()) {
    // Growing moves every entry: insert() probes the new table.
    insert(coord, slot);
  } else {
    entries_[i] = entry(tag, slot);
    ++size_;
  }
  return {slot, true};
}

template <class CoordOf>
void CoordIndex::erase(TileCoord coord, CoordOf coord_of) {
  size_t hole = probe(coord, tag_of(coord), coord_of);
  GOL_DCHECK(entries_[hole] != 0);
  // Backward shift: move later members of the probe run into the hole when
  // their home position does not lie cyclically in (hole, i].
  for (size_t i = (hole + 1) & mask(); entries_[i] != 0; i = (i + 1) & mask()) {
    const size_t wanted = home(tag(entries_[i]));
    const bool stays = ((i - wanted) & mask()) < ((i - hole) & mask());
    if (!stays) {
      entries_[hole] = entries_[i];
      hole = i;
    }
  }
  entries_[hole] = 0;
  --size_;
}

}  // namespace gol::sparse
