// The split of a torus into bands of whole tiles that the MPI ranks and the
// NCCL bands share (engine/core/row_bands.h); each caller's refusal of too
// many bands is tested with it.
#include "engine/core/row_bands.h"

#include <gtest/gtest.h>

#include <vector>

namespace gol {
namespace {

TEST(RowBands, WholeTilesCoverTheTorusInOrderTheFirstOnesTaller) {
  // 7 tile rows in 4 bands: the first three get two, the last one.
  const std::vector<RowBand> bands = split_into_row_bands(7 * 64 + 10, 4);
  ASSERT_EQ(bands.size(), 4u);
  const std::vector<int64_t> rows = {128, 128, 128, 64};
  int64_t next = 0;
  for (size_t i = 0; i < bands.size(); ++i) {
    EXPECT_EQ(bands[i].first_row, next);
    EXPECT_EQ(bands[i].rows, rows[i]);
    next += bands[i].rows;
  }
  EXPECT_EQ(tile_rows_of(7 * 64 + 10), 7);
}

TEST(RowBands, OneBandIsTheWholeTorus) {
  const std::vector<RowBand> bands = split_into_row_bands(256, 1);
  ASSERT_EQ(bands.size(), 1u);
  EXPECT_EQ(bands[0].first_row, 0);
  EXPECT_EQ(bands[0].rows, 256);
}

TEST(RowBands, EveryTileRowItsOwnBand) {
  const std::vector<RowBand> bands = split_into_row_bands(5 * 64, 5);
  ASSERT_EQ(bands.size(), 5u);
  for (size_t i = 0; i < bands.size(); ++i) {
    EXPECT_EQ(bands[i].first_row, static_cast<int64_t>(i) * 64);
    EXPECT_EQ(bands[i].rows, 64);
  }
}

}  // namespace
}  // namespace gol
