// An allocator for the grid's large tables (the coordinate index, the
// per-slot records): blocks of 64 KiB or more are mapped with their pages
// populated by one call (in huge pages from 2 MiB), smaller ones come from
// the heap.
//
// Why: these tables are reallocated whole as a world grows, and a fresh
// heap block of that size is a fresh mapping whose pages then fault one by
// one on first touch. In the dev host's VM a fault costs 2-10 us, where
// populating costs about 0.6 us a page: growing the spacefiller's index
// from 25 to 49 thousand tiles took 9 ms (bench/RESULTS.md). Even
// populated, a small page's first store costs microseconds there, and the
// spacefiller's last index (3 MB) took 4.4 ms to map and clear in small
// pages (page_mapping.h).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "sparse/page_mapping.h"

namespace gol::sparse {

template <class T>
class PopulatedAllocator {
 public:
  using value_type = T;
  static constexpr size_t kMappedBytes = size_t{64} << 10;

  PopulatedAllocator() = default;
  template <class U>
  explicit PopulatedAllocator(const PopulatedAllocator<U>&) noexcept {}

  T* allocate(size_t count) {
    const size_t bytes = count * sizeof(T);
    if (bytes < kMappedBytes) return std::allocator<T>().allocate(count);
    return static_cast<T*>(map_populated(bytes));
  }

  void deallocate(T* block, size_t count) noexcept {
    const size_t bytes = count * sizeof(T);
    if (bytes < kMappedBytes) {
      std::allocator<T>().deallocate(block, count);
    } else {
      unmap_populated(block, bytes);
    }
  }

  template <class U>
  bool operator==(const PopulatedAllocator<U>&) const noexcept {
    return true;
  }
};

// The grid's tables that grow with the world.
template <class T>
using PopulatedVector = std::vector<T, PopulatedAllocator<T>>;

}  // namespace gol::sparse
