// Timing engines in turns (bench/turns.h).
#include "bench/turns.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/core/error.h"

namespace gol::bench {
namespace {

// A contender that notes each of its timed runs in `log` and, from its run
// `fail_at` on (counted from 1; 0: never), throws instead.
Contender noting(const std::string& name, std::vector<std::string>& log, int fail_at = 0) {
  auto runs = std::make_shared<int>(0);
  return {name,
          [&log, name, runs, fail_at] {
            ++*runs;
            if (*runs == fail_at) throw RuntimeError(name + " failed");
            log.push_back(name + std::to_string(*runs));
          },
          [name, runs] {
            RunResult result;
            result.backend = name;
            result.seconds.assign(static_cast<size_t>(*runs), 1.0);
            return result;
          }};
}

TEST(Turns, EachEnginesRunComesBeforeAnyEnginesNextRun) {
  std::vector<std::string> log;
  std::vector<std::string> progress;
  const std::vector<Contender> contenders = {noting("a", log), noting("b", log), noting("c", log)};
  const std::vector<TurnOutcome> outcomes = run_in_turns(
      contenders, 3,
      [&](const std::string& name, int run) { progress.push_back(name + std::to_string(run)); });
  const std::vector<std::string> expected = {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"};
  EXPECT_EQ(log, expected);
  EXPECT_EQ(progress, expected);
  ASSERT_EQ(outcomes.size(), 3u);
  for (size_t i = 0; i < outcomes.size(); ++i) {
    ASSERT_TRUE(outcomes[i].result.has_value());
    EXPECT_FALSE(outcomes[i].error);
    EXPECT_EQ(outcomes[i].result->backend, contenders[i].name);
    EXPECT_EQ(outcomes[i].result->seconds.size(), 3u);
  }
}

TEST(Turns, AnEngineThatFailsTakesNoMoreTurnsAndKeepsItsError) {
  std::vector<std::string> log;
  const std::vector<Contender> contenders = {noting("a", log), noting("b", log, 2),
                                             noting("c", log)};
  const std::vector<TurnOutcome> outcomes =
      run_in_turns(contenders, 3, [](const std::string&, int) {});
  const std::vector<std::string> expected = {"a1", "b1", "c1", "a2", "c2", "a3", "c3"};
  EXPECT_EQ(log, expected);
  ASSERT_TRUE(outcomes[1].error);
  EXPECT_FALSE(outcomes[1].result.has_value());
  EXPECT_THROW(std::rethrow_exception(outcomes[1].error), RuntimeError);
  EXPECT_EQ(outcomes[0].result->seconds.size(), 3u);
  EXPECT_EQ(outcomes[2].result->seconds.size(), 3u);
}

TEST(Turns, AFailingSummaryIsThatEnginesErrorAlone) {
  std::vector<std::string> log;
  Contender broken = noting("b", log);
  broken.result = []() -> RunResult { throw RuntimeError("no result to read"); };
  const std::vector<TurnOutcome> outcomes =
      run_in_turns({noting("a", log), broken}, 1, [](const std::string&, int) {});
  EXPECT_TRUE(outcomes[0].result.has_value());
  EXPECT_TRUE(outcomes[1].error);
}

}  // namespace
}  // namespace gol::bench
