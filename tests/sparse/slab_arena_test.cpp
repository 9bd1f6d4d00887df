// SlabArena: zeroed blocks, chunks unmapped when empty, pages returned for
// blocks given back, kept blocks cleared, and safe use from two threads.
#include "sparse/slab_arena.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/sparse/page_probe.h"

namespace gol::sparse {
namespace {

// About a TileMap slab: seven to a chunk.
constexpr size_t kBlockBytes = 295744;

bool all_zero(const void* block, size_t bytes) {
  const auto* at = static_cast<const unsigned char*>(block);
  for (size_t i = 0; i < bytes; ++i) {
    if (at[i] != 0) return false;
  }
  return true;
}

TEST(SlabArena, BlocksAreZeroedDistinctAndPageAligned) {
  SlabArena arena(kBlockBytes, 0);
  EXPECT_EQ(arena.blocks_per_chunk(), 7u);
  std::set<char*> seen;
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  for (size_t i = 0; i < 10; ++i) {
    auto* block = static_cast<char*>(arena.take());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % page, 0u);
    EXPECT_TRUE(all_zero(block, kBlockBytes));
    EXPECT_EQ(resident_pages(block, kBlockBytes), (kBlockBytes + page - 1) / page)
        << "a block's pages are populated when taken";
    std::memset(block, 0xA5, kBlockBytes);
    EXPECT_TRUE(seen.insert(block).second);
  }
  EXPECT_EQ(arena.chunks(), 2u);
  for (char* block : seen) arena.give_back(block);
}

TEST(SlabArena, ChunksAreAlignedForHugePagesAndUnmappedWhenEmpty) {
  SlabArena arena(kBlockBytes, 0);
  std::vector<void*> blocks;
  for (size_t i = 0; i < arena.blocks_per_chunk() + 1; ++i) blocks.push_back(arena.take());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(blocks.front()) % SlabArena::kChunkBytes, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(blocks.back()) % SlabArena::kChunkBytes, 0u);
  ASSERT_EQ(arena.chunks(), 2u);
  arena.give_back(blocks.back());
  EXPECT_EQ(arena.chunks(), 1u) << "the second chunk held one block";
  blocks.pop_back();
  for (void* block : blocks) arena.give_back(block);
  EXPECT_EQ(arena.chunks(), 0u);
}

TEST(SlabArena, OnlyChunksBeyondTheFirstFewAreAdvisedForHugePages) {
  for (const size_t small : {0u, 2u}) {
    SCOPED_TRACE(small);
    SlabArena arena(kBlockBytes, 0, small);
    std::vector<void*> blocks;
    for (size_t i = 0; i < 3 * arena.blocks_per_chunk(); ++i) blocks.push_back(arena.take());
    ASSERT_EQ(arena.chunks(), 3u);
    const size_t per_chunk = arena.blocks_per_chunk();
    EXPECT_EQ(advised_huge(blocks[0]), small == 0);
    EXPECT_EQ(advised_huge(blocks[per_chunk]), small == 0);
    EXPECT_TRUE(advised_huge(blocks[2 * per_chunk]));
    EXPECT_TRUE(advised_huge(blocks.back()));
    arena.give_back_all(blocks);
  }
}

TEST(SlabArena, ABlockGivenBackInAHeldChunkReturnsItsPagesAndComesBackZeroed) {
  SlabArena arena(kBlockBytes, 0);
  void* kept_busy = arena.take();
  auto* block = static_cast<char*>(arena.take());
  std::memset(block, 0x5A, kBlockBytes);
  arena.give_back(block);
  EXPECT_EQ(resident_pages(block, kBlockBytes), 0u);
  EXPECT_EQ(arena.chunks(), 1u);
  auto* again = static_cast<char*>(arena.take());
  EXPECT_EQ(again, block) << "the lowest free block is taken first";
  EXPECT_TRUE(all_zero(again, kBlockBytes));
  arena.give_back(again);
  arena.give_back(kept_busy);
  EXPECT_EQ(arena.chunks(), 0u);
}

TEST(SlabArena, GivingBackTogetherUnmapsEmptiedChunksAndReturnsThePagesOfTheRest) {
  SlabArena arena(kBlockBytes, 0);
  const size_t per_chunk = arena.blocks_per_chunk();
  std::vector<void*> blocks;
  for (size_t i = 0; i < 2 * per_chunk + 1; ++i) blocks.push_back(arena.take());
  ASSERT_EQ(arena.chunks(), 3u);
  // The first chunk's blocks and the second's but one.
  void* const held = blocks[per_chunk + 1];
  std::vector<void*> given(blocks.begin(), blocks.begin() + static_cast<ptrdiff_t>(2 * per_chunk));
  std::erase(given, held);
  arena.give_back_all(given);
  EXPECT_EQ(arena.chunks(), 2u) << "the first chunk unmapped";
  EXPECT_EQ(resident_pages(blocks[per_chunk], kBlockBytes), 0u);
  EXPECT_EQ(resident_pages(blocks[2 * per_chunk - 1], kBlockBytes), 0u);
  EXPECT_GT(resident_pages(held, kBlockBytes), 0u);
  arena.give_back_all(std::vector<void*>{held, blocks.back()});
  EXPECT_EQ(arena.chunks(), 0u);
}

TEST(SlabArena, KeptBlocksStayResidentAndAreClearedWhenTakenAgain) {
  SlabArena arena(kBlockBytes, 2);
  std::vector<char*> blocks;
  for (int i = 0; i < 3; ++i) {
    blocks.push_back(static_cast<char*>(arena.take()));
    std::memset(blocks.back(), 0x3C, kBlockBytes);
  }
  for (char* block : blocks) arena.give_back(block);
  EXPECT_EQ(arena.kept(), 2u) << "two kept, the third's pages returned";
  EXPECT_EQ(arena.chunks(), 1u) << "a chunk with kept blocks stays mapped";
  for (int i = 0; i < 3; ++i) {
    auto* block = static_cast<char*>(arena.take());
    EXPECT_TRUE(all_zero(block, kBlockBytes)) << "take " << i;
    blocks[static_cast<size_t>(i)] = block;
  }
  EXPECT_EQ(arena.kept(), 0u);
  for (char* block : blocks) arena.give_back(block);
}

TEST(SlabArena, TwoThreadsTakeAndGiveBackWithoutSharingABlock) {
  SlabArena arena(kBlockBytes, 1);
  auto churn = [&](unsigned char mark) {
    std::vector<unsigned char*> held;
    for (int round = 0; round < 40; ++round) {
      for (int i = 0; i < 5; ++i) {
        auto* block = static_cast<unsigned char*>(arena.take());
        ASSERT_TRUE(all_zero(block, 4096)) << "round " << round;
        std::memset(block, mark, 4096);
        held.push_back(block);
      }
      for (unsigned char* block : held) {
        ASSERT_EQ(block[0], mark);
        ASSERT_EQ(block[4095], mark);
        arena.give_back(block);
      }
      held.clear();
    }
  };
  std::thread other(churn, static_cast<unsigned char>(1));
  churn(2);
  other.join();
  EXPECT_LE(arena.chunks(), 1u) << "only a kept block may hold a chunk";
}

}  // namespace
}  // namespace gol::sparse
