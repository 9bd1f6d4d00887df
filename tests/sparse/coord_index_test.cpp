// CoordIndex against std::map: inserts, lookups and backward-shift erases,
// the coordinates kept by slot outside the index as the tile map keeps them.
#include "sparse/coord_index.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace gol::sparse {
namespace {

// The coordinate of each slot, where the index reads it back.
class Coordinates {
 public:
  void set(int32_t slot, TileCoord coord) { by_slot_[slot] = coord; }
  auto reader() const {
    return [this](int32_t slot) { return by_slot_.at(slot); };
  }

 private:
  std::map<int32_t, TileCoord> by_slot_;
};

// An index and the coordinates of what it holds.
struct Indexed {
  CoordIndex index;
  Coordinates coords;

  void insert(TileCoord coord, int32_t slot) {
    coords.set(slot, coord);
    index.insert(coord, slot);
  }
  int32_t find(TileCoord coord) const { return index.find(coord, coords.reader()); }
  void erase(TileCoord coord) { index.erase(coord, coords.reader()); }
  CoordIndex::FoundOrInserted find_or_insert(TileCoord coord, int32_t slot) {
    if (index.find(coord, coords.reader()) == CoordIndex::kAbsent) coords.set(slot, coord);
    return index.find_or_insert(coord, slot, coords.reader());
  }
};

TEST(CoordIndex, FindsWhatWasInsertedAndNothingElse) {
  Indexed indexed;
  indexed.insert({0, 0}, 7);
  indexed.insert({-1, 5}, 8);
  EXPECT_EQ(indexed.find({0, 0}), 7);
  EXPECT_EQ(indexed.find({-1, 5}), 8);
  EXPECT_EQ(indexed.find({5, -1}), CoordIndex::kAbsent);
  EXPECT_EQ(indexed.index.size(), 2u);
}

// The entries hold hash bits, not coordinates: a match is confirmed by the
// coordinate the caller keeps for the slot.
TEST(CoordIndex, ConfirmsAMatchByTheSlotsCoordinate) {
  CoordIndex index;
  index.insert({3, 4}, 0);
  EXPECT_EQ(index.find({3, 4}, [](int32_t) { return TileCoord{3, 4}; }), 0);
  EXPECT_EQ(index.find({3, 4}, [](int32_t) { return TileCoord{4, 3}; }), CoordIndex::kAbsent);
}

TEST(CoordIndex, MatchesStdMapUnderRandomInsertsAndErases) {
  Indexed indexed;
  std::map<TileCoord, int32_t> expected;
  std::mt19937_64 random(3);
  // A small coordinate range forces long probe runs and many erase shifts.
  std::uniform_int_distribution<int64_t> coordinate(-20, 20);
  for (int32_t step = 0; step < 20000; ++step) {
    const TileCoord coord{coordinate(random), coordinate(random)};
    if (expected.contains(coord)) {
      indexed.erase(coord);
      expected.erase(coord);
    } else {
      indexed.insert(coord, step);
      expected[coord] = step;
    }
    if (step % 97 == 0) {
      for (int64_t ty = -21; ty <= 21; ++ty) {
        for (int64_t tx = -21; tx <= 21; ++tx) {
          const auto it = expected.find({tx, ty});
          ASSERT_EQ(indexed.find({tx, ty}),
                    it == expected.end() ? CoordIndex::kAbsent : it->second);
        }
      }
    }
  }
  EXPECT_EQ(indexed.index.size(), expected.size());
}

TEST(CoordIndex, KeepsEveryEntryThroughGrowthAndReserve) {
  Indexed indexed;
  for (int32_t i = 0; i < 5000; ++i) indexed.insert({i % 71, -(i / 71)}, i);
  indexed.index.reserve(40000);
  EXPECT_GE(indexed.index.room(), 40000u);
  for (int32_t i = 0; i < 5000; ++i) ASSERT_EQ(indexed.find({i % 71, -(i / 71)}), i);
  EXPECT_EQ(indexed.find({71, 0}), CoordIndex::kAbsent);
}

TEST(CoordIndex, FindOrInsertStoresANewCoordinateAndFindsItAfter) {
  Indexed indexed;
  const auto made = indexed.find_or_insert({3, -4}, 7);
  EXPECT_TRUE(made.inserted);
  EXPECT_EQ(made.slot, 7);
  EXPECT_EQ(indexed.find({3, -4}), 7);
  const auto again = indexed.find_or_insert({3, -4}, 9);
  EXPECT_FALSE(again.inserted);
  EXPECT_EQ(again.slot, 7);
  EXPECT_EQ(indexed.find({3, -4}), 7);
  EXPECT_EQ(indexed.index.size(), 1u);
}

TEST(CoordIndex, FindOrInsertGrowsOnlyForANewCoordinate) {
  Indexed indexed;
  const size_t room = indexed.index.room();
  for (int32_t i = 0; i < static_cast<int32_t>(room); ++i) {
    ASSERT_TRUE(indexed.find_or_insert({i, -i}, i).inserted);
  }
  // Full to its room: one found there takes none.
  const auto found = indexed.find_or_insert({0, 0}, 500);
  EXPECT_FALSE(found.inserted);
  EXPECT_EQ(found.slot, 0);
  EXPECT_EQ(indexed.index.room(), room);
  const auto made = indexed.find_or_insert({-1, 1}, 100);
  EXPECT_TRUE(made.inserted);
  EXPECT_EQ(made.slot, 100);
  EXPECT_GT(indexed.index.room(), room);
  EXPECT_EQ(indexed.index.size(), room + 1);
  EXPECT_EQ(indexed.find({-1, 1}), 100);
  for (int32_t i = 0; i < static_cast<int32_t>(room); ++i) {
    ASSERT_EQ(indexed.find({i, -i}), i);
    const auto kept = indexed.find_or_insert({i, -i}, 501);
    ASSERT_FALSE(kept.inserted);
    ASSERT_EQ(kept.slot, i);
  }
  EXPECT_EQ(indexed.index.size(), room + 1);
}

TEST(CoordIndex, HandlesExtremeCoordinates) {
  Indexed indexed;
  const int64_t big = int64_t{1} << 56;
  indexed.insert({big, -big}, 1);
  indexed.insert({-big, big}, 2);
  EXPECT_EQ(indexed.find({big, -big}), 1);
  EXPECT_EQ(indexed.find({-big, big}), 2);
  indexed.erase({big, -big});
  EXPECT_EQ(indexed.find({big, -big}), CoordIndex::kAbsent);
  EXPECT_EQ(indexed.find({-big, big}), 2);
}

}  // namespace
}  // namespace gol::sparse
