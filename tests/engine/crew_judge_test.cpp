// CrewJudge: the trials it runs each cycle, the way it picks from their
// times, and how its cycle lengthens and shortens.
#include "engine/crew_judge.h"

#include <gtest/gtest.h>

#include <vector>

namespace gol {
namespace {

// Runs one cycle of the judge from its start (its trials, then the rest of
// the cycle they chose), each generation taking shared_seconds for
// shared_tiles or alone_seconds for alone_tiles as it is shared or not;
// returns whether each generation was shared.
std::vector<bool> run_cycle(CrewJudge& judge, double shared_seconds, double alone_seconds,
                            size_t shared_tiles = 100, size_t alone_tiles = 100) {
  std::vector<bool> shared;
  for (uint64_t i = 0; i < 2 * CrewJudge::kTrial || i < judge.cycle(); ++i) {
    const bool share = judge.share();
    shared.push_back(share);
    judge.record(share ? shared_seconds : alone_seconds, share ? shared_tiles : alone_tiles);
  }
  return shared;
}

size_t count_shared(const std::vector<bool>& shared, size_t from) {
  size_t count = 0;
  for (size_t i = from; i < shared.size(); ++i) count += shared[i] ? 1 : 0;
  return count;
}

// Whether every generation after a cycle's trials was shared (true), none
// was (false); fails the test on a mix.
bool rest_shared(const std::vector<bool>& shared) {
  constexpr size_t kTrials = 2 * CrewJudge::kTrial;
  const size_t count = count_shared(shared, kTrials);
  EXPECT_TRUE(count == 0 || count == shared.size() - kTrials) << count;
  return count != 0;
}

TEST(CrewJudge, EachCycleTimesBothWaysThenStepsTheRestTheFasterWay) {
  CrewJudge judge;
  const std::vector<bool> shared = run_cycle(judge, 2e-6, 1e-6);
  ASSERT_EQ(shared.size(), CrewJudge::kCycle);
  constexpr size_t kTrial = CrewJudge::kTrial;
  for (size_t i = 0; i < kTrial; ++i) EXPECT_TRUE(shared[i]) << i;
  for (size_t i = kTrial; i < 2 * kTrial; ++i) EXPECT_FALSE(shared[i]) << i;
  EXPECT_FALSE(rest_shared(shared)) << "alone was faster";
  EXPECT_EQ(judge.cycle(), CrewJudge::kCycle);

  EXPECT_TRUE(rest_shared(run_cycle(judge, 1e-6, 1.1e-6))) << "sharing was faster";
}

TEST(CrewJudge, ComparesTimeATileNotTimeAGeneration) {
  CrewJudge judge;
  // Shared generations take longer, but hold more tiles each.
  EXPECT_TRUE(rest_shared(run_cycle(judge, 3e-6, 2e-6, 300, 100)));
}

TEST(CrewJudge, AloneMustWinClearlyAndTrialsWithoutTilesChangeNothing) {
  CrewJudge judge;
  EXPECT_TRUE(rest_shared(run_cycle(judge, 1e-6, 1e-6)));
  EXPECT_TRUE(rest_shared(run_cycle(judge, 1.05e-6, 1e-6)));
  EXPECT_FALSE(rest_shared(run_cycle(judge, 2e-6, 1e-6)));
  EXPECT_FALSE(rest_shared(run_cycle(judge, 1e-6, 9e-6, 0, 0)))
      << "no tiles: the last choice stands";
}

TEST(CrewJudge, ClearWinsForSharingLengthenTheCycleAndCloseOnesResetIt) {
  CrewJudge judge;
  uint64_t expected = CrewJudge::kCycle;
  while (expected < CrewJudge::kLongestCycle) {
    run_cycle(judge, 1e-6, 2e-6);
    expected *= 2;
    EXPECT_EQ(judge.cycle(), expected);
  }
  run_cycle(judge, 1e-6, 2e-6);
  EXPECT_EQ(judge.cycle(), CrewJudge::kLongestCycle);
  run_cycle(judge, 1e-6, 1.1e-6);
  EXPECT_EQ(judge.cycle(), CrewJudge::kCycle) << "a close win";
  run_cycle(judge, 1e-6, 2e-6);
  run_cycle(judge, 2e-6, 1e-6);
  EXPECT_EQ(judge.cycle(), CrewJudge::kCycle) << "alone won";
}

}  // namespace
}  // namespace gol
