// bgolly as a baseline: runs when installed (skips otherwise), and its
// result agrees with ours on the plane and on a torus.
#include "bench/golly_runner.h"

#include <gtest/gtest.h>

#include "bench/agreement.h"
#include "bench/backend_runner.h"

namespace gol::bench {
namespace {

class GollyRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bgolly_ = find_bgolly();
    if (!bgolly_) GTEST_SKIP() << "bgolly is not on PATH";
  }
  std::optional<std::string> bgolly_;
};

TEST_F(GollyRunnerTest, RPentominoMatchesTheKnownResult) {
  const Workload w = *find_workload("r-pentomino", false);
  const RunResult r = run_golly(w, build_workload_pattern(w), {*bgolly_, "QuickLife", 1, true});
  EXPECT_EQ(r.population, 116u);
  EXPECT_EQ(r.engine, Engine::kGolly);
  EXPECT_EQ(r.backend, "bgolly-QuickLife");
  ASSERT_TRUE(r.load_seconds);
  ASSERT_TRUE(r.peak_rss_bytes);
  EXPECT_GT(*r.peak_rss_bytes, 0u);
  ASSERT_EQ(r.seconds.size(), 1u);
  EXPECT_TRUE(r.shape_hash);
}

TEST_F(GollyRunnerTest, AgreesWithOursOnThePlaneAndOnATorus) {
  for (const char* name : {"acorn", "torus-1024"}) {
    const Workload w = *find_workload(name, true);
    const Pattern pattern = build_workload_pattern(w);
    const bool plane = !w.torus;
    RunSettings settings;
    settings.repeats = 1;
    settings.want_shape_hash = plane;
    std::vector<RunResult> results = {run_backend(w, pattern, "bit", settings)};
    for (const char* algorithm : {"QuickLife", "HashLife"}) {
      results.push_back(run_golly(w, pattern, {*bgolly_, algorithm, 1, plane}));
    }
    EXPECT_TRUE(check_agreement(results).empty()) << name;
    EXPECT_EQ(results[1].population, results[0].population) << name;
    if (plane) {
      EXPECT_EQ(results[1].shape_hash, results[0].shape_hash) << name;
    }
  }
}

}  // namespace
}  // namespace gol::bench
