// BlockPool: which block and slot each take() hands out, which blocks
// release_empty() gives back, and blocks taken over by adopt().
#include "sparse/block_pool.h"

#include <gtest/gtest.h>

#include <set>

namespace gol::sparse {
namespace {

// Blocks of four slots holding nothing but their record.
struct FourSlots {
  BlockRecord<4> record;
};
using Pool = BlockPool<FourSlots>;

void take_fresh(Pool& pool, size_t index, int32_t at) {
  const auto taken = pool.take();
  EXPECT_EQ(taken.index, index);
  EXPECT_EQ(taken.at, at);
  EXPECT_FALSE(taken.reused);
}

TEST(BlockPool, FillsTheLowestBlockWithRoomFirst) {
  Pool pool;
  for (int32_t i = 0; i < 12; ++i) take_fresh(pool, static_cast<size_t>(i / 4), i % 4);
  EXPECT_EQ(pool.mapped(), 3u);
  pool.give_back(1, 2);
  pool.give_back(0, 3);
  const auto lowest = pool.take();
  EXPECT_EQ(lowest.index, 0u);
  EXPECT_EQ(lowest.at, 3);
  EXPECT_TRUE(lowest.reused);
  const auto next = pool.take();
  EXPECT_EQ(next.index, 1u);
  EXPECT_EQ(next.at, 2);
  EXPECT_TRUE(next.reused);
  take_fresh(pool, 3, 0);
  EXPECT_EQ(pool.mapped(), 4u);
}

TEST(BlockPool, ReusesSlotsGivenBackBeforeFreshOnes) {
  Pool pool;
  take_fresh(pool, 0, 0);
  take_fresh(pool, 0, 1);
  take_fresh(pool, 0, 2);
  pool.give_back(0, 0);
  pool.give_back(0, 2);
  std::set<int32_t> reused;
  for (int i = 0; i < 2; ++i) {
    const auto taken = pool.take();
    EXPECT_EQ(taken.index, 0u);
    EXPECT_TRUE(taken.reused);
    reused.insert(taken.at);
  }
  EXPECT_EQ(reused, (std::set<int32_t>{0, 2}));
  take_fresh(pool, 0, 3);
  EXPECT_EQ(pool.mapped(), 1u);
}

TEST(BlockPool, ReleasesEveryEmptyBlockButTheLowest) {
  Pool pool;
  for (int32_t i = 0; i < 16; ++i) take_fresh(pool, static_cast<size_t>(i / 4), i % 4);
  for (const size_t index : {size_t{1}, size_t{2}, size_t{3}}) {
    for (int32_t at = 0; at < 4; ++at) EXPECT_EQ(pool.give_back(index, at), at == 3);
  }
  pool.give_back(0, 1);
  pool.release_empty();
  // Block 1 stays mapped, the next filled; those above it go, and the
  // table ends at the last block mapped.
  EXPECT_EQ(pool.mapped(), 2u);
  EXPECT_NE(pool.block(1), nullptr);
  EXPECT_EQ(pool.count(), 2u);
  EXPECT_TRUE(pool.take().reused);  // block 0's slot 1
  for (int32_t i = 0; i < 4; ++i) {
    const auto taken = pool.take();
    EXPECT_EQ(taken.index, 1u);
    EXPECT_TRUE(taken.reused);
  }
  take_fresh(pool, 2, 0);
  EXPECT_EQ(pool.mapped(), 3u);
}

TEST(BlockPool, ReleasingLeavesAHoleThatIsMappedAgainFirst) {
  Pool pool;
  for (int32_t i = 0; i < 16; ++i) take_fresh(pool, static_cast<size_t>(i / 4), i % 4);
  for (const size_t index : {size_t{1}, size_t{2}}) {
    for (int32_t at = 0; at < 4; ++at) pool.give_back(index, at);
  }
  pool.release_empty();
  EXPECT_EQ(pool.mapped(), 3u);
  EXPECT_EQ(pool.block(2), nullptr);
  EXPECT_EQ(pool.count(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(pool.take().index, 1u);
  take_fresh(pool, 2, 0);
  EXPECT_NE(pool.block(2), nullptr);
  EXPECT_EQ(pool.block(2)->record.index, 2u);
}

TEST(BlockPool, AdoptedBlocksFollowTheOwnAndKnowTheirNewIndex) {
  Pool pool;
  take_fresh(pool, 0, 0);
  Pool other;
  for (int32_t i = 0; i < 6; ++i) take_fresh(other, static_cast<size_t>(i / 4), i % 4);
  pool.adopt(other);
  EXPECT_EQ(other.count(), 0u);
  EXPECT_EQ(other.mapped(), 0u);
  EXPECT_EQ(pool.count(), 3u);
  EXPECT_EQ(pool.mapped(), 3u);
  EXPECT_EQ(pool.block(1)->record.index, 1u);
  EXPECT_EQ(pool.block(2)->record.index, 2u);
  // The adopted full block has no room; the partly filled ones do.
  take_fresh(pool, 0, 1);
  take_fresh(pool, 0, 2);
  take_fresh(pool, 0, 3);
  take_fresh(pool, 2, 2);
  EXPECT_FALSE(pool.give_back(1, 0));
}

}  // namespace
}  // namespace gol::sparse
