// CoordIndex against std::map: inserts, lookups and backward-shift erases.
#include "sparse/coord_index.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace gol::sparse {
namespace {

TEST(CoordIndex, FindsWhatWasInsertedAndNothingElse) {
  CoordIndex index;
  index.insert({0, 0}, 7);
  index.insert({-1, 5}, 8);
  EXPECT_EQ(index.find({0, 0}), 7);
  EXPECT_EQ(index.find({-1, 5}), 8);
  EXPECT_EQ(index.find({5, -1}), CoordIndex::kAbsent);
  EXPECT_EQ(index.size(), 2u);
}

TEST(CoordIndex, MatchesStdMapUnderRandomInsertsAndErases) {
  CoordIndex index;
  std::map<TileCoord, int32_t> expected;
  std::mt19937_64 random(3);
  // A small coordinate range forces long probe runs and many erase shifts.
  std::uniform_int_distribution<int64_t> coordinate(-20, 20);
  for (int32_t step = 0; step < 20000; ++step) {
    const TileCoord coord{coordinate(random), coordinate(random)};
    if (expected.contains(coord)) {
      index.erase(coord);
      expected.erase(coord);
    } else {
      index.insert(coord, step);
      expected[coord] = step;
    }
    if (step % 97 == 0) {
      for (int64_t ty = -21; ty <= 21; ++ty) {
        for (int64_t tx = -21; tx <= 21; ++tx) {
          const auto it = expected.find({tx, ty});
          ASSERT_EQ(index.find({tx, ty}), it == expected.end() ? CoordIndex::kAbsent : it->second);
        }
      }
    }
  }
  EXPECT_EQ(index.size(), expected.size());
}

TEST(CoordIndex, FindOrInsertStoresANewCoordinateAndFindsItAfter) {
  CoordIndex index;
  const auto made = index.find_or_insert({3, -4}, 7);
  EXPECT_TRUE(made.inserted);
  EXPECT_EQ(made.slot, 7);
  EXPECT_EQ(index.find({3, -4}), 7);
  const auto again = index.find_or_insert({3, -4}, 9);
  EXPECT_FALSE(again.inserted);
  EXPECT_EQ(again.slot, 7);
  EXPECT_EQ(index.find({3, -4}), 7);
  EXPECT_EQ(index.size(), 1u);
}

TEST(CoordIndex, FindOrInsertGrowsOnlyForANewCoordinate) {
  CoordIndex index;
  const size_t room = index.room();
  for (int32_t i = 0; i < static_cast<int32_t>(room); ++i) {
    ASSERT_TRUE(index.find_or_insert({i, -i}, i).inserted);
  }
  // Full to its room: one found there takes none.
  const auto found = index.find_or_insert({0, 0}, -5);
  EXPECT_FALSE(found.inserted);
  EXPECT_EQ(found.slot, 0);
  EXPECT_EQ(index.room(), room);
  const auto made = index.find_or_insert({-1, 1}, 100);
  EXPECT_TRUE(made.inserted);
  EXPECT_EQ(made.slot, 100);
  EXPECT_GT(index.room(), room);
  EXPECT_EQ(index.size(), room + 1);
  EXPECT_EQ(index.find({-1, 1}), 100);
  for (int32_t i = 0; i < static_cast<int32_t>(room); ++i) {
    ASSERT_EQ(index.find({i, -i}), i);
    const auto kept = index.find_or_insert({i, -i}, -5);
    ASSERT_FALSE(kept.inserted);
    ASSERT_EQ(kept.slot, i);
  }
  EXPECT_EQ(index.size(), room + 1);
}

TEST(CoordIndex, HandlesExtremeCoordinates) {
  CoordIndex index;
  const int64_t big = int64_t{1} << 56;
  index.insert({big, -big}, 1);
  index.insert({-big, big}, 2);
  EXPECT_EQ(index.find({big, -big}), 1);
  EXPECT_EQ(index.find({-big, big}), 2);
  index.erase({big, -big});
  EXPECT_EQ(index.find({big, -big}), CoordIndex::kAbsent);
  EXPECT_EQ(index.find({-big, big}), 2);
}

}  // namespace
}  // namespace gol::sparse
