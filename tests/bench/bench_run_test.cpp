// End-to-end `gol bench` runs on small --quick workloads: backends agree,
// the outputs are written, and bad workload or backend names are refused.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/backend_runner.h"
#include "bench/bench_command.h"
#include "bench/child_process.h"
#include "bench/workloads.h"
#include "engine/core/error.h"
#include "patterns/pattern_io.h"
#include "tests/bench/json_reader.h"

namespace gol::bench {
namespace {

using json_test::JsonReader;
using json_test::JsonValue;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Workloads, CoverTheIssueSetAndBuild) {
  const std::vector<Workload> all = all_workloads(false);
  for (const char* name :
       {"torus-1024", "torus-8192", "torus-16384", "plane-2048", "plane-8192", "acorn",
        "r-pentomino", "lidka", "spacefiller", "gosper-gun", "gpu-torus-65536"}) {
    EXPECT_TRUE(find_workload(name, false)) << name;
  }
  const Workload plane = *find_workload("plane-8192", false);
  EXPECT_EQ(plane.generations, 2000u);
  EXPECT_FALSE(plane.torus);
  const Workload quick = *find_workload("torus-1024", true);
  EXPECT_EQ(quick.generations, 1000u / kQuickGenerationDivisor);
  const Pattern pattern = build_workload_pattern(quick);
  ASSERT_TRUE(pattern.topology);
  EXPECT_TRUE(pattern.topology->is_torus());
  EXPECT_EQ(pattern.topology->width, kQuickMinSide);
  EXPECT_GT(pattern.cells.population(), 0u);
  EXPECT_EQ(build_workload_pattern(*find_workload("acorn", true)).cells.population(), 7u);
}

TEST(Workloads, FieldsAndIslandsAreCopiesOfTheirPattern) {
  // 400 acorns (7 cells each), 3000 cells apart: 20 x 20 of them.
  const Pattern field = build_workload_pattern(*find_workload("acorn-field", false));
  EXPECT_EQ(field.cells.population(), 400u * 7u);
  const BBox box = *field.cells.bbox();
  EXPECT_EQ(box.xmax - box.xmin, 19 * 3000 + 6);
  EXPECT_EQ(box.ymax - box.ymin, 19 * 3000 + 2);

  const Workload islands = *find_workload("islands", true);
  const Pattern soup = patterns::load_pattern(islands.pattern_spec);
  EXPECT_EQ(build_workload_pattern(islands).cells.population(), 4 * soup.cells.population());
}

TEST(Workloads, ReferenceBudgetsSkipTheBigOnes) {
  const Workload plane = *find_workload("plane-8192", false);
  EXPECT_GT(plane.dense_cell_updates, *reference_budget("serial"));
  const Workload small = *find_workload("r-pentomino", false);
  EXPECT_LT(small.dense_cell_updates, *reference_budget("serial"));
  EXPECT_FALSE(reference_budget("simd"));
}

TEST(BackendRunner, SingleRunLineRoundTrips) {
  SingleRun run;
  run.seconds = 0.123456789;
  run.population = 633;
  run.cell_hash = 0xfedcba9876543210ull;
  run.shape_hash = 17;
  run.final_area = 4096;
  run.stats.cells_computed = 1ull << 40;
  run.stats.tiles_active = 3;
  run.stats.tiles_total = 9;
  run.stats.device_seconds = 0.5;
  run.stats.transfer_seconds = 0.25;
  run.stats.simd_target = "AVX3";
  run.load_peak_rss_bytes = 1234;
  const SingleRun back = parse_single_run("noise before\n" + format_single_run(run) + "\n");
  EXPECT_DOUBLE_EQ(back.seconds, run.seconds);
  EXPECT_EQ(back.population, run.population);
  EXPECT_EQ(back.cell_hash, run.cell_hash);
  EXPECT_EQ(back.shape_hash, run.shape_hash);
  EXPECT_EQ(back.stats.cells_computed, run.stats.cells_computed);
  EXPECT_EQ(back.stats.simd_target, "AVX3");
  EXPECT_EQ(back.load_peak_rss_bytes, run.load_peak_rss_bytes);
  EXPECT_DOUBLE_EQ(back.stats.transfer_seconds, 0.25);
  EXPECT_THROW(parse_single_run("no result here"), RuntimeError);
  EXPECT_THROW(parse_single_run("gol-bench-run seconds=1 population=x"), RuntimeError);
}

TEST(BackendRunner, RepeatsAgreeAndAreTimed) {
  const Workload w = *find_workload("r-pentomino", true);
  const Pattern pattern = build_workload_pattern(w);
  RunSettings settings;
  settings.repeats = 3;
  const RunResult r = run_backend(w, pattern, "bit", settings);
  EXPECT_EQ(r.seconds.size(), 3u);
  EXPECT_GT(r.median_seconds, 0.0);
  EXPECT_EQ(r.generations, w.generations);
  EXPECT_GE(r.area, 6.0);  // at least the initial 3x3 box... of the R-pentomino
  EXPECT_GT(r.population, 0u);
  EXPECT_TRUE(r.cell_hash);
}

// `repeats` quick runs, each in a child gol process.
RunSettings isolated_settings(int repeats) {
  RunSettings settings;
  settings.repeats = repeats;
  settings.quick = true;
  settings.isolate = true;
  settings.gol_executable = GOL_EXE_PATH;
  // LeakSanitizer ptrace-attaches at exit, which a child we trace cannot
  // allow; sanitizer builds of gol would fail there for that reason alone.
  ::setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
  return settings;
}

TEST(BackendRunner, IsolatedRunMeasuresPeakMemory) {
  if (!std::filesystem::exists(GOL_EXE_PATH)) GTEST_SKIP() << "gol not built: " << GOL_EXE_PATH;
  const Workload w = *find_workload("torus-1024", true);
  const Pattern pattern = build_workload_pattern(w);
  RunSettings settings = isolated_settings(1);
  const RunResult isolated = run_backend(w, pattern, "bit", settings);
  ASSERT_TRUE(isolated.peak_rss_bytes);
  EXPECT_GT(*isolated.peak_rss_bytes, 0u);
  ASSERT_TRUE(isolated.load_peak_rss_bytes);
  EXPECT_LE(*isolated.load_peak_rss_bytes, *isolated.peak_rss_bytes);
  ASSERT_TRUE(isolated.process_seconds);
  EXPECT_GT(*isolated.process_seconds, isolated.median_seconds);
  settings.isolate = false;
  const RunResult in_process = run_backend(w, pattern, "bit", settings);
  EXPECT_EQ(isolated.population, in_process.population);
  EXPECT_EQ(isolated.cell_hash, in_process.cell_hash);
}

TEST(BackendRunner, IsolatedRunsKeepTheFirstRunsShape) {
  if (!std::filesystem::exists(GOL_EXE_PATH)) GTEST_SKIP() << "gol not built: " << GOL_EXE_PATH;
  const Workload w = *find_workload("gosper-gun", true);
  const Pattern pattern = build_workload_pattern(w);
  RunSettings settings = isolated_settings(2);
  settings.want_shape_hash = true;
  const RunResult isolated = run_backend(w, pattern, "simd", settings);
  settings.isolate = false;
  const RunResult in_process = run_backend(w, pattern, "simd", settings);
  ASSERT_TRUE(isolated.shape_hash);
  EXPECT_EQ(isolated.shape_hash, in_process.shape_hash);
  EXPECT_EQ(isolated.seconds.size(), 2u);
}

// One timed --quick run of `workloads` on `backends`, without Golly.
BenchOptions quick_run(std::vector<std::string> workloads, std::vector<std::string> backends) {
  BenchOptions options;
  options.workloads = std::move(workloads);
  options.backends = std::move(backends);
  options.repeats = 1;
  options.golly = GollyMode::kOff;
  options.ulifelib = "off";
  options.quick = true;
  return options;
}

class BenchCommandTest : public ::testing::Test {
 protected:
  std::string json_path() const { return dir_.file("out.json"); }
  std::string csv_path() const { return dir_.file("out.csv"); }
  TempDir dir_;
};

TEST_F(BenchCommandTest, QuickRunOnSerialAndBitAgrees) {
  ::testing::internal::CaptureStdout();
  BenchOptions options = quick_run({"r-pentomino", "torus-1024"}, {"serial", "bit"});
  options.json_path = json_path();
  options.csv_path = csv_path();
  const int code = run_bench_command(options);
  const std::string table = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, 0);
  EXPECT_NE(table.find("check: all backends agree"), std::string::npos) << table;
  const JsonValue json = JsonReader::parse(slurp(json_path()));
  const auto& results = json["results"].array();
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0]["population"].number(), results[1]["population"].number());
  EXPECT_EQ(results[0]["cell_hash"].string(), results[1]["cell_hash"].string());
  EXPECT_EQ(results[2]["cell_hash"].string(), results[3]["cell_hash"].string());
  EXPECT_EQ(results[1]["speedup_baseline"].string(), "serial");
  EXPECT_TRUE(json["check"]["passed"].boolean());
  EXPECT_TRUE(json["quick"].boolean());
  EXPECT_NE(slurp(csv_path()).find("r-pentomino,serial,gol"), std::string::npos);
}

TEST_F(BenchCommandTest, JsonToStdoutMovesTheTableToStderr) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  BenchOptions options = quick_run({"r-pentomino"}, {"bit"});
  options.json_path = "-";
  run_bench_command(options);
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NO_THROW(JsonReader::parse(out)) << out;
  EXPECT_NE(err.find("eff CUpS"), std::string::npos);
}

TEST_F(BenchCommandTest, ListNamesEveryWorkload) {
  ::testing::internal::CaptureStdout();
  BenchOptions list;
  list.list = true;
  EXPECT_EQ(run_bench_command(list), 0);
  const std::string out = ::testing::internal::GetCapturedStdout();
  for (const Workload& w : all_workloads(false)) {
    EXPECT_NE(out.find(w.name + ": "), std::string::npos) << w.name;
  }
}

TEST_F(BenchCommandTest, UnknownNamesAreUsageErrors) {
  BenchOptions unknown_workload;
  unknown_workload.workloads = {"no-such-workload"};
  EXPECT_THROW(run_bench_command(unknown_workload), UsageError);
  EXPECT_THROW(run_bench_command(quick_run({"r-pentomino"}, {"no-such-backend"})), UsageError);
}

TEST_F(BenchCommandTest, MissingBgollyIsNotedNotFatal) {
  const std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", dir_.path().c_str(), 1);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  BenchOptions options = quick_run({"r-pentomino"}, {"bit"});
  options.golly = GollyMode::kAuto;
  options.json_path = json_path();
  const int code = run_bench_command(options);
  ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  ::setenv("PATH", saved_path.c_str(), 1);
  EXPECT_EQ(code, 0);
  const JsonValue json = JsonReader::parse(slurp(json_path()));
  EXPECT_EQ(json["results"].array().size(), 1u);
  ASSERT_EQ(json["skipped"].array().size(), 1u);
  EXPECT_EQ(json["skipped"].array()[0]["backend"].string(), "bgolly");
}

TEST_F(BenchCommandTest, ReferenceBackendsSkipWorkloadsOverBudget) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  // Full-size lidka is far over serial's budget; gpu-only workloads skip CPU backends.
  BenchOptions options;
  options.workloads = {"lidka"};
  options.backends = {"serial"};
  options.golly = GollyMode::kOff;
  options.ulifelib = "off";
  options.json_path = json_path();
  run_bench_command(options);
  ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  const JsonValue json = JsonReader::parse(slurp(json_path()));
  EXPECT_TRUE(json["results"].array().empty());
  ASSERT_EQ(json["skipped"].array().size(), 1u);
  EXPECT_EQ(json["skipped"].array()[0]["backend"].string(), "serial");
}

// gol bench --ulifelib with a stand-in lifealgo printing the right
// population: a ulifelib row beside ours with both ratios (--isolate gives
// ours a process time, its children reading the RLE written for the
// baselines), and a skip on a workload it cannot run.
TEST_F(BenchCommandTest, UlifelibRunsBesideOursWhenGiven) {
  if (!std::filesystem::exists(GOL_EXE_PATH)) GTEST_SKIP() << "gol not built: " << GOL_EXE_PATH;
  const std::string lifealgo = dir_.file("lifealgo");
  std::ofstream(lifealgo) << "#!/bin/sh\n"
                             "echo 'Final pop is 633 time 0.5 gps 1 cgps 0'\n";
  ::chmod(lifealgo.c_str(), 0755);
  ::setenv("ASAN_OPTIONS", "detect_leaks=0", 1);  // as in IsolatedRunMeasuresPeakMemory
  const ChildResult child = run_child(
      {GOL_EXE_PATH, "bench", "--workloads", "acorn,torus-1024", "--backends", "simd", "--repeats",
       "1", "--isolate", "--golly", "off", "--ulifelib", lifealgo, "--json", json_path()});
  ASSERT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("vs UL engine"), std::string::npos);
  const JsonValue json = JsonReader::parse(slurp(json_path()));
  const auto& results = json["results"].array();
  ASSERT_EQ(results.size(), 3u);  // simd twice, ulifelib on the plane only
  EXPECT_EQ(results[1]["backend"].string(), "ulifelib");
  EXPECT_EQ(results[1]["engine"].string(), "lifelib");
  EXPECT_FALSE(results[0]["vs_ulifelib_engine"].is_null());
  EXPECT_FALSE(results[0]["vs_ulifelib_process"].is_null());
  ASSERT_EQ(json["skipped"].array().size(), 1u);
  EXPECT_EQ(json["skipped"].array()[0]["backend"].string(), "ulifelib");
  EXPECT_EQ(json["skipped"].array()[0]["workload"].string(), "torus-1024");
}

}  // namespace
}  // namespace gol::bench
