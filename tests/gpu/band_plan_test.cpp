// The plan of a torus stepped in bands on several GPUs (gpu/band_plan.h):
// the split, the windows of a round and the round schedule. Plain C++, run
// in every build.
#include "gpu/band_plan.h"

#include <gtest/gtest.h>

#include "engine/core/error.h"

namespace gol::gpu {
namespace {

TEST(GpuBandPlan, GpusGetTheSharedSplit) {
  // engine/core/row_bands.h's split, tested there.
  const std::vector<GpuBand> bands = split_into_gpu_bands(5 * 64, 3);
  ASSERT_EQ(bands.size(), 3u);
  EXPECT_EQ(bands[2].first_row, 256);
}

TEST(GpuBandPlan, MoreBandsThanTileRowsIsAUsageErrorNamingTheMost) {
  try {
    split_into_gpu_bands(128, 3);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("expected --gpus 2 or fewer"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(split_into_gpu_bands(128, 0), UsageError);
}

// Every band row is kept by exactly one window, each window reaches a halo
// beyond what it keeps (so its kept rows are exact after kBandHaloRows
// generations), and no window leaves the strip.
TEST(GpuBandPlan, WindowsKeepEveryBandRowOnceWithAHaloAround) {
  constexpr int64_t h = kBandHaloRows;
  for (int64_t rows : {64, 128, 192, 65536}) {
    const RoundWindows w = round_windows(rows);
    std::vector<int> kept(static_cast<size_t>(rows + 2 * h), 0);
    for (const StripWindow& window : {w.top_edge, w.bottom_edge, w.interior}) {
      EXPECT_GE(window.first_row, 0) << rows;
      EXPECT_LE(window.first_row + window.rows, rows + 2 * h) << rows;
      EXPECT_GE(window.keep_from - window.first_row, h) << rows;
      EXPECT_GE(window.first_row + window.rows - window.keep_to, h) << rows;
      for (int64_t row = window.keep_from; row < window.keep_to; ++row) {
        ++kept[static_cast<size_t>(row)];
      }
    }
    for (int64_t row = 0; row < rows + 2 * h; ++row) {
      const bool in_band = row >= h && row < rows + h;
      EXPECT_EQ(kept[static_cast<size_t>(row)], in_band ? 1 : 0) << rows << " row " << row;
    }
    // The edges keep what the neighbours need as halos.
    EXPECT_EQ(w.top_edge.keep_from, h);
    EXPECT_EQ(w.top_edge.keep_to, 2 * h);
    EXPECT_EQ(w.bottom_edge.keep_from, rows);
    EXPECT_EQ(w.bottom_edge.keep_to, rows + h);
  }
}

TEST(GpuBandPlan, RoundsAreFullThenOneShort) {
  EXPECT_EQ(schedule_rounds(0).rounds(), 0u);
  const RoundSchedule one = schedule_rounds(1);
  EXPECT_EQ(one.full_rounds, 0u);
  EXPECT_EQ(one.last_round, 1);
  const RoundSchedule exact = schedule_rounds(2 * kBandHaloRows);
  EXPECT_EQ(exact.full_rounds, 2u);
  EXPECT_EQ(exact.last_round, 0);
  EXPECT_EQ(exact.rounds(), 2u);
  const RoundSchedule hundred = schedule_rounds(100);
  EXPECT_EQ(hundred.full_rounds, 6u);
  EXPECT_EQ(hundred.last_round, 4);
  EXPECT_EQ(hundred.rounds(), 7u);
}

}  // namespace
}  // namespace gol::gpu
