// Open-addressing map from tile coordinates to slots (see coord_index.h).
#include "sparse/coord_index.h"

#include <bit>

#include "engine/core/error.h"

namespace gol::sparse {
namespace {

constexpr int kInitialBits = 6;

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

uint32_t CoordIndex::tag_of(TileCoord coord) { return static_cast<uint32_t>(mix(coord) >> 32); }

void CoordIndex::clear() {
  // A fresh table, not assign(): that keeps the old one's memory.
  entries_ = PopulatedVector<Entry>(size_t{1} << kInitialBits);
  bits_ = kInitialBits;
  size_ = 0;
}

void CoordIndex::empty_keeping_room() {
  for (Entry& at : entries_) at = 0;
  size_ = 0;
}

void CoordIndex::insert(TileCoord coord, int32_t slot) {
  GOL_DCHECK(slot >= 0);
  if (2 * (size_ + 1) > entries_.size()) grow();
  place(entry(tag_of(coord), slot));
  ++size_;
}

void CoordIndex::place(Entry entry) {
  size_t i = home(tag(entry));
  while (entries_[i] != 0) i = (i + 1) & mask();
  entries_[i] = entry;
}

void CoordIndex::reserve(size_t count) {
  size_t capacity = entries_.size();
  while (2 * count > capacity) capacity *= 2;
  if (capacity != entries_.size()) rehash(capacity);
}

void CoordIndex::grow() { rehash(entries_.size() * 2); }

void CoordIndex::rehash(size_t capacity) {
  // A home is the top bits of a 32-bit tag.
  GOL_CHECK(capacity <= (size_t{1} << kTagBits));
  PopulatedVector<Entry> old = std::move(entries_);
  entries_.assign(capacity, 0);
  bits_ = std::countr_zero(capacity);
  for (const Entry at : old) {
    if (at != 0) place(at);
  }
}

}  // namespace gol::sparse
