// PopulatedAllocator: large blocks arrive with their pages present, small
// ones come from the heap, and a vector using it behaves as any other.
#include "sparse/populated_allocator.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "tests/sparse/page_probe.h"

namespace gol::sparse {
namespace {

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

TEST(PopulatedAllocator, BlocksOfAHugePageOrMoreAreWholeHugePagesPresentAndZero) {
  PopulatedAllocator<uint64_t> allocator;
  const size_t bytes = kHugePageBytes + kHugePageBytes / 2;
  const size_t count = bytes / sizeof(uint64_t);
  uint64_t* block = allocator.allocate(count);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % kHugePageBytes, 0u);
  EXPECT_TRUE(advised_huge(block));
  EXPECT_EQ(resident_pages(block, 2 * kHugePageBytes), 2 * kHugePageBytes / page_bytes())
      << "the rest of the last huge page is populated too";
  for (size_t i = 0; i < count; i += 4096) ASSERT_EQ(block[i], 0u);
  block[count - 1] = 1;
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
