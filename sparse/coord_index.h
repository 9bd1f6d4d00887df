// A hash map from tile coordinates to slots of the tile pool: open
// addressing with linear probing and backward-shift deletion, so lookups
// touch one or two cache lines and erasing leaves no tombstones behind.
#pragma once

#include <cstdint>
#include <vector>

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
  // The slot stored for `coord`, or kAbsent.
  int32_t find(TileCoord coord) const;
  // Stores `slot` for a coordinate that is not present yet.
  void insert(TileCoord coord, int32_t slot);
  // The slot stored for `coord`, found, or `slot`, stored for it now
  // (`inserted` says which), in one probe where find() then insert() take
  // two.
  struct FoundOrInserted {
    int32_t slot;
    bool inserted;
  };
  FoundOrInserted find_or_insert(TileCoord coord, int32_t slot);
  // Removes `coord`; it must be present.
  void erase(TileCoord coord);
  size_t size() const { return size_; }
  // How many coordinates it holds before it grows (and rehashes).
  size_t room() const { return entries_.size() / 2; }

 private:
  struct Entry {
    TileCoord coord;
    int32_t slot = kAbsent;
  };

  size_t home(TileCoord coord) const;
  void grow();
  void rehash(size_t capacity);

  PopulatedVector<Entry> entries_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace gol::sparse
