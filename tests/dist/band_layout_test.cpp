#include "dist/band_layout.h"

#include <gtest/gtest.h>

#include <string>

#include "dist/row_words.h"
#include "engine/core/error.h"

namespace gol::dist {
namespace {

TEST(BandLayout, RanksGetTheSharedSplit) {
  // engine/core/row_bands.h's split, tested there.
  const std::vector<Band> bands = split_into_bands(7 * 64, 4);
  ASSERT_EQ(bands.size(), 4u);
  EXPECT_EQ(bands[3].first_row, 6 * 64);
}

TEST(BandLayout, MoreRanksThanTileRowsIsRefusedNamingTheLimit) {
  try {
    split_into_bands(3 * 64, 4);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("-np 3 or fewer"), std::string::npos) << e.what();
  }
}

TEST(BandLayout, TheHaloFitsTheSmallestBandAndMakesWholeTiles) {
  EXPECT_LE(kHaloRows, kTileSize);
  EXPECT_EQ(2 * kHaloRows % kTileSize, 0);
}

TEST(RowWords, PackAndUnpackKeepEveryCellOfTheRows) {
  CellSet cells;
  cells.set(0, 64);
  cells.set(63, 65);
  cells.set(64, 127);
  cells.set(191, 100);
  cells.set(5, 3);    // above the rows packed
  cells.set(5, 128);  // below them
  const std::vector<uint64_t> words = pack_rows(cells, 192, 64, 64);
  ASSERT_EQ(words.size(), 3u * 64u);
  EXPECT_EQ(words[0], 1u);                   // (0, 64): row 0, word 0, bit 0
  EXPECT_EQ(words[1 * 3 + 0], 1ull << 63);   // (63, 65)
  EXPECT_EQ(words[63 * 3 + 1], 1u);          // (64, 127)
  EXPECT_EQ(words[36 * 3 + 2], 1ull << 63);  // (191, 100)
  const CellSet back = unpack_rows(words, 192, 64);
  CellSet expected;
  expected.set(0, 64);
  expected.set(63, 65);
  expected.set(64, 127);
  expected.set(191, 100);
  EXPECT_EQ(back, expected);
}

}  // namespace
}  // namespace gol::dist
