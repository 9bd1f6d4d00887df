// An allocator for the grid's large tables (the coordinate index, the
// per-slot records): blocks of 64 KiB or more are mapped with their pages
// populated by one call, smaller ones come from the heap.
//
// Why: these tables are reallocated whole as a world grows, and a fresh
// heap block of that size is a fresh mapping whose pages then fault one by
// one on first touch. In the dev host's VM a fault costs 2-10 us, where
// populating costs about 0.6 us a page: growing the spacefiller's index
// from 25 to 49 thousand tiles took 9 ms (bench/RESULTS.md).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

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
    void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (block == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(block);
  }

  void deallocate(T* block, size_t count) noexcept {
    const size_t bytes = count * sizeof(T);
    if (bytes < kMappedBytes) {
      std::allocator<T>().deallocate(block, count);
    } else {
      munmap(block, bytes);
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
