// ulifelib as a baseline: lifealgo's output parsed, the skips, the binary
// found from the option or $GOL_ULIFELIB, and a stand-in lifealgo (a shell
// script printing what lifealgo prints) run through the runner; and, where
// $GOL_ULIFELIB names a real build, ulifelib agreeing with ours.
#include "bench/ulifelib_runner.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "bench/agreement.h"
#include "bench/backend_runner.h"
#include "bench/child_process.h"
#include "bench/report.h"
#include "engine/core/error.h"
#include "patterns/pattern_io.h"

namespace gol::bench {
namespace {

TEST(ParseLifealgoOutput, ReadsTheFinalLine) {
  const auto parsed = parse_lifealgo_output(
      "Initialized in 0.01 population = 36\nFinal pop is 16713 time 1.25 gps 80000 cgps 0\n");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->population, 16713u);
  EXPECT_DOUBLE_EQ(parsed->seconds, 1.25);
}

TEST(ParseLifealgoOutput, RefusesErrorsAndMissingLines) {
  EXPECT_FALSE(parse_lifealgo_output("Initialized in 0.01 population = 36\n"));
  EXPECT_FALSE(parse_lifealgo_output("! odd increments not supported\n"));
  EXPECT_FALSE(
      parse_lifealgo_output("Final pop is 5 time 0.1 gps 1 cgps 0\n"
                            "Execution returned 5 but scan says 6\n"
                            "! population mismatch\n"));
  EXPECT_FALSE(parse_lifealgo_output("Final pop is five time 0.1\n"));
}

TEST(UlifelibSkips, TorusAndOddGenerations) {
  EXPECT_FALSE(ulifelib_skip_reason(*find_workload("torus-1024", false)).empty());
  EXPECT_FALSE(ulifelib_skip_reason(*find_workload("r-pentomino", false)).empty());  // 1103
  EXPECT_TRUE(ulifelib_skip_reason(*find_workload("gosper-gun", false)).empty());
  EXPECT_TRUE(ulifelib_skip_reason(*find_workload("acorn-field", false)).empty());
}

// A script standing in for lifealgo: checks its arguments as the runner
// passes them and prints `population` the way lifealgo does.
std::string fake_lifealgo(const TempDir& dir, uint64_t population) {
  const std::string path = dir.file("lifealgo");
  std::ofstream(path) << "#!/bin/sh\n"
                         "[ \"$1\" = -f ] && [ -r \"$2\" ] && [ \"$3\" = -m ] && [ \"$5\" = -i ] "
                         "&& [ \"$4\" = \"$6\" ] && [ \"$7\" = ulifelib ] || exit 3\n"
                         "echo 'Initialized in 0.001 population = 7'\n"
                         "echo 'Final pop is "
                      << population << " time 0.125 gps 1 cgps 0'\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(UlifelibRunner, TimesTheProcessAndReadsItsTimerAndPopulation) {
  const TempDir dir;
  const std::string lifealgo = fake_lifealgo(dir, 633);
  const Workload w = *find_workload("acorn", false);
  const Pattern pattern = build_workload_pattern(w);
  const std::string rle = dir.file("in.rle");
  patterns::write_pattern_file(rle, pattern);
  const RunResult r = run_ulifelib(w, pattern, rle, lifealgo, 2);
  EXPECT_EQ(r.engine, Engine::kLifelib);
  EXPECT_EQ(r.backend, "ulifelib");
  EXPECT_EQ(r.population, 633u);
  EXPECT_EQ(r.seconds.size(), 2u);
  ASSERT_TRUE(r.engine_seconds());
  EXPECT_DOUBLE_EQ(*r.engine_seconds(), 0.125);
  ASSERT_TRUE(r.process_seconds);
  EXPECT_GT(*r.process_seconds, 0);
}

TEST(UlifelibRunner, AFailingRunThrows) {
  const TempDir dir;
  const std::string lifealgo = fake_lifealgo(dir, 633);
  const Workload w = *find_workload("acorn", false);
  // No RLE at the path: the stand-in exits 3, as lifealgo would complain.
  EXPECT_THROW(run_ulifelib(w, build_workload_pattern(w), dir.file("missing.rle"), lifealgo, 1),
               RuntimeError);
}

TEST(FindUlifelib, OptionThenEnvironmentAndOnlyExecutables) {
  const TempDir dir;
  const std::string lifealgo = fake_lifealgo(dir, 1);
  EXPECT_EQ(find_ulifelib(lifealgo), lifealgo);
  EXPECT_THROW(find_ulifelib(dir.file("absent")), UsageError);
  const char* saved = std::getenv(kUlifelibVariable);
  const std::string restore = saved ? saved : "";
  ::unsetenv(kUlifelibVariable);
  EXPECT_FALSE(find_ulifelib(std::nullopt));
  ::setenv(kUlifelibVariable, lifealgo.c_str(), 1);
  EXPECT_EQ(find_ulifelib(std::nullopt), lifealgo);
  if (saved) {
    ::setenv(kUlifelibVariable, restore.c_str(), 1);
  } else {
    ::unsetenv(kUlifelibVariable);
  }
}

TEST(UlifelibReport, RatiosAgainstOurEngineAndProcessTimes) {
  RunResult ours;
  ours.workload = "gosper-gun";
  ours.backend = "simd";
  ours.median_seconds = 0.5;
  ours.process_seconds = 0.6;
  RunResult theirs;
  theirs.workload = "gosper-gun";
  theirs.backend = "ulifelib";
  theirs.engine = Engine::kLifelib;
  theirs.median_seconds = 1.8;
  theirs.process_seconds = 1.8;
  theirs.reported_engine_seconds = 1.5;
  std::vector<RunResult> results = {ours, theirs};
  derive_comparisons(results);
  ASSERT_TRUE(results[0].vs_ulifelib_engine);
  EXPECT_DOUBLE_EQ(*results[0].vs_ulifelib_engine, 3.0);
  ASSERT_TRUE(results[0].vs_ulifelib_process);
  EXPECT_DOUBLE_EQ(*results[0].vs_ulifelib_process, 3.0);
  EXPECT_FALSE(results[1].vs_ulifelib_engine);
  BenchReport report;
  report.results = results;
  std::ostringstream table;
  write_table(table, report);
  EXPECT_NE(table.str().find("vs UL engine"), std::string::npos);
  EXPECT_NE(table.str().find("3.00x"), std::string::npos);
}

// With a real lifealgo build named by $GOL_ULIFELIB: the same population as
// ours on a small plane workload.
TEST(UlifelibRunner, AgreesWithOursWhereBuilt) {
  const std::optional<std::string> lifealgo = find_ulifelib(std::nullopt);
  if (!lifealgo) GTEST_SKIP() << "$" << kUlifelibVariable << " names no lifealgo build";
  const Workload w = *find_workload("acorn", true);
  const Pattern pattern = build_workload_pattern(w);
  const TempDir dir;
  const std::string rle = dir.file("in.rle");
  patterns::write_pattern_file(rle, pattern);
  RunSettings settings;
  settings.repeats = 1;
  const std::vector<RunResult> results = {run_backend(w, pattern, "simd", settings),
                                          run_ulifelib(w, pattern, rle, *lifealgo, 1)};
  EXPECT_TRUE(check_agreement(results).empty());
}

}  // namespace
}  // namespace gol::bench
