// PopulatedAllocator: large blocks arrive with their pages present, small
// ones come from the heap, and a vector using it behaves as any other.
#include "sparse/populated_allocator.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace gol::sparse {
namespace {

size_t resident_pages(const void* block, size_t bytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<uintptr_t>(block) / page * page;
  const size_t span = reinterpret_cast<uintptr_t>(block) + bytes - start;
  std::vector<unsigned char> present((span + page - 1) / page);
  if (mincore(reinterpret_cast<void*>(start), span, present.data()) != 0) return 0;
  size_t count = 0;
  for (unsigned char flags : present) count += flags & 1u;
  return count;
}

TEST(PopulatedAllocator, LargeBlocksArriveWithEveryPagePresent) {
  PopulatedAllocator<uint64_t> allocator;
  const size_t count = 3 * PopulatedAllocator<uint64_t>::kMappedBytes / sizeof(uint64_t);
  uint64_t* block = allocator.allocate(count);
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(resident_pages(block, count * sizeof(uint64_t)), count * sizeof(uint64_t) / page)
      << "populated before the first touch";
  EXPECT_EQ(block[0], 0u);
  EXPECT_EQ(block[count - 1], 0u);
  allocator.deallocate(block, count);
}

TEST(PopulatedAllocator, AVectorGrowsThroughBothKindsOfBlockKeepingItsValues) {
  std::vector<int32_t, PopulatedAllocator<int32_t>> values;
  for (int32_t i = 0; i < 100000; ++i) values.push_back(i * 7);
  for (int32_t i = 0; i < 100000; i += 997) ASSERT_EQ(values[static_cast<size_t>(i)], i * 7);
  values.resize(10);
  values.shrink_to_fit();
  EXPECT_EQ(values.back(), 63);
}

}  // namespace
}  // namespace gol::sparse
