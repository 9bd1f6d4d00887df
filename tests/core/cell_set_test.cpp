// CellSet and the tile bit order: the conventions every path relies on.
#include "engine/core/cell_set.h"

#include <gtest/gtest.h>

#include "engine/core/error.h"

namespace gol {
namespace {

TEST(TileBitOrder, BitIOfRowRIsCellXIRowR) {
  CellSet cells;
  cells.set(64 * 3 + 5, 64 * -2 + 7);
  const Tile* tile = cells.find_tile({3, -2});
  ASSERT_NE(tile, nullptr);
  EXPECT_EQ(tile->rows[7], uint64_t{1} << 5);
  EXPECT_EQ(tile->population(), 1u);
}

// Tile::population counts with the fastest of the counters this CPU runs
// (AVX-512, popcnt, portable): each must count as cell-by-cell reading
// does.
TEST(TilePopulation, EveryCounterCountsEveryLiveCell) {
  Tile tile;
  uint64_t state = 7;
  for (uint64_t& row : tile.rows) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    row = state & (state >> 17);
  }
  tile.rows[5] = ~uint64_t{0};
  tile.rows[6] = uint64_t{1} << 63;
  uint64_t expected = 0;
  for (int y = 0; y < kTileSize; ++y) {
    for (int x = 0; x < kTileSize; ++x) expected += tile.get(x, y) ? 1 : 0;
  }
  Tile full;
  full.rows.fill(~uint64_t{0});
  const std::vector<TileCellCounter> counters = tile_cell_counters();
  ASSERT_FALSE(counters.empty());
  for (size_t i = 0; i < counters.size(); ++i) {
    EXPECT_EQ(counters[i](Tile{}.rows.data()), 0u) << "counter " << i;
    EXPECT_EQ(counters[i](tile.rows.data()), expected) << "counter " << i;
    EXPECT_EQ(counters[i](full.rows.data()), uint64_t{kTileSize} * kTileSize) << "counter " << i;
  }
  EXPECT_EQ(tile.population(), expected);
}

TEST(TileCoordinates, FloorDivisionForNegativeCells) {
  EXPECT_EQ(tile_of(-1), -1);
  EXPECT_EQ(offset_in_tile(-1), 63);
  EXPECT_EQ(tile_of(-64), -1);
  EXPECT_EQ(tile_of(-65), -2);
  EXPECT_EQ(wrap(-1, 64), 63);
  EXPECT_EQ(wrap(130, 64), 2);
}

TEST(CellSet, SetGetAndBoundingBox) {
  CellSet cells;
  EXPECT_FALSE(cells.bbox().has_value());
  cells.set(-70, 5);
  cells.set(100, -3);
  cells.set(0, 0);
  EXPECT_TRUE(cells.get(-70, 5));
  EXPECT_FALSE(cells.get(-69, 5));
  EXPECT_EQ(cells.population(), 3u);
  EXPECT_EQ(cells.bbox(), (BBox{-70, -3, 100, 5}));
  cells.set(0, 0, false);
  EXPECT_EQ(cells.population(), 2u);
  EXPECT_EQ(cells.cells(), (std::vector<Cell>{{100, -3}, {-70, 5}}));
}

TEST(CellSet, EqualityIgnoresEmptyTiles) {
  CellSet a;
  CellSet b;
  a.set(1, 1);
  b.set(1, 1);
  b.set(500, 500);
  b.set(500, 500, false);
  EXPECT_EQ(a, b);
  b.set(2, 1);
  EXPECT_FALSE(a == b);
}

TEST(CellSet, TranslateAcrossTileBoundaries) {
  CellSet cells;
  cells.set(63, 63);
  cells.set(0, 0);
  cells.set(-1, 10);
  const CellSet moved = cells.translated(-100, 37);
  EXPECT_EQ(moved.cells(), (std::vector<Cell>{{-100, 37}, {-101, 47}, {-37, 100}}));
  EXPECT_EQ(moved.translated(100, -37), cells);
}

TEST(CellSet, WrapOntoTorus) {
  CellSet cells;
  cells.set(-1, -1);
  cells.set(64, 130);
  cells.set(5, 5);
  const CellSet torus = cells.wrapped(128, 64);
  EXPECT_EQ(torus.cells(), (std::vector<Cell>{{64, 2}, {5, 5}, {127, 63}}));
  // Whole tiles move as one where both sides are multiples of 64, and row
  // by row (or cell by cell) where they are not.
  EXPECT_EQ(cells.wrapped(128, 100).cells(), (std::vector<Cell>{{5, 5}, {64, 30}, {127, 99}}));
  EXPECT_EQ(cells.wrapped(100, 64).cells(), (std::vector<Cell>{{64, 2}, {5, 5}, {99, 63}}));
}

TEST(InputErrorFormat, NamesSourceLineAndColumn) {
  const InputError error("glider.rle", 3, 14, "unexpected character 'q'");
  EXPECT_STREQ(error.what(), "glider.rle:3:14: unexpected character 'q'");
  EXPECT_EQ(error.code(), ExitCode::kInput);
  EXPECT_STREQ(InputError("x.rle", 0, 0, "empty file").what(), "x.rle: empty file");
}

}  // namespace
}  // namespace gol
