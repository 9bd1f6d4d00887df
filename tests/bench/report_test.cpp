// The table, JSON and CSV writers: parseable output carrying the documented
// keys, and speed-ups against the right baseline.
#include "bench/report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "bench/machine_info.h"
#include "tests/bench/json_reader.h"

namespace gol::bench {
namespace {

using json_test::JsonReader;
using json_test::JsonValue;

RunResult row(std::string workload, std::string backend, double seconds,
              Engine engine = Engine::kGol) {
  RunResult r;
  r.workload = std::move(workload);
  r.backend = std::move(backend);
  r.engine = engine;
  r.topology = "torus 1024x1024";
  r.generations = 100;
  r.seconds = {seconds, seconds * 1.1, seconds * 0.9};
  r.median_seconds = seconds;
  r.area = 1024.0 * 1024;
  r.population = 12345;
  if (engine == Engine::kGol) {
    r.cell_hash = 0xabcdef;
    r.cells_computed = 1024ull * 1024 * 100;
  } else {
    r.load_seconds = 1.0;
    r.process_seconds = seconds;
    r.peak_rss_bytes = 25u << 20;
  }
  return r;
}

BenchReport sample_report() {
  BenchReport report;
  report.machine = {
      "Test CPU \"quoted\", with comma", 2, 2, "2026-11-23T03:00:00Z", "1.50 0.80 0.40", 456.7};
  report.command_line = "gol bench --quick";
  report.repeats = 3;
  report.results = {
      row("torus-1024", "serial", 8.0), row("torus-1024", "bit", 2.0),
      row("torus-1024", "simd", 0.5),   row("torus-1024", "bgolly-QuickLife", 4.0, Engine::kGolly),
      row("plane-8192", "bit", 3.0),    row("plane-8192", "simd", 1.0)};
  report.results.back().device_seconds = 0.25;
  report.skipped = {{"plane-8192", "serial", "over budget"}};
  derive_comparisons(report.results);
  return report;
}

// bgolly took 4 s in all, 1 s of it starting and reading: 3 s of engine
// time against simd's 0.5 s. Without --isolate ours has no process time.
TEST(DeriveComparisons, SpeedupOverSerialAndQuickLife) {
  const BenchReport report = sample_report();
  const RunResult& simd = report.results[2];
  ASSERT_TRUE(simd.speedup);
  EXPECT_DOUBLE_EQ(*simd.speedup, 16.0);
  EXPECT_EQ(simd.speedup_baseline, "serial");
  ASSERT_TRUE(simd.vs_quicklife_engine);
  EXPECT_DOUBLE_EQ(*simd.vs_quicklife_engine, 6.0);
  EXPECT_FALSE(simd.vs_quicklife_process);
  EXPECT_FALSE(simd.vs_hashlife_engine);
  EXPECT_FALSE(report.results[3].vs_quicklife_engine);  // Golly is not compared with itself
}

TEST(DeriveComparisons, WholeProcessRatiosNeedOurProcessTime) {
  BenchReport report = sample_report();
  report.results[2].process_seconds = 0.8;
  derive_comparisons(report.results);
  ASSERT_TRUE(report.results[2].vs_quicklife_process);
  EXPECT_DOUBLE_EQ(*report.results[2].vs_quicklife_process, 5.0);
  EXPECT_DOUBLE_EQ(*report.results[2].vs_quicklife_engine, 6.0);
}

// A load run as long as the whole run leaves no engine time to compare.
TEST(DeriveComparisons, NoEngineRatioWithoutGollyEngineTime) {
  BenchReport report = sample_report();
  report.results[3].load_seconds = 4.0;
  derive_comparisons(report.results);
  EXPECT_FALSE(report.results[3].engine_seconds());
  EXPECT_FALSE(report.results[2].vs_quicklife_engine);
}

TEST(DeriveComparisons, SlowestBackendIsTheBaselineWithoutSerial) {
  const BenchReport report = sample_report();
  const RunResult& simd = report.results[5];
  ASSERT_TRUE(simd.speedup);
  EXPECT_DOUBLE_EQ(*simd.speedup, 3.0);
  EXPECT_EQ(simd.speedup_baseline, "bit");
  EXPECT_FALSE(simd.vs_quicklife_engine);
}

TEST(Report, TableShowsMachineRowsNotesAndCheck) {
  std::ostringstream out;
  write_table(out, sample_report());
  const std::string text = out.str();
  for (const char* expected : {"Test CPU",
                               "2026-11-23T03:00:00Z",
                               "load average 1.50 0.80 0.40",
                               "gol bench --quick",
                               "median of 3",
                               "eff CUpS",
                               "comp CUpS",
                               "speed-up",
                               "vs QL engine",
                               "vs QL process",
                               "vs HL engine",
                               "vs HL process",
                               "timed",
                               "engine s",
                               "16.00x",
                               "3.00x (bit)",
                               "6.00x",
                               "peak MiB",
                               "25.0",
                               "device s",
                               "skipped serial on plane-8192: over budget",
                               "check: all backends agree"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  }
}

TEST(Report, TableReportsFailedChecksAndRuns) {
  BenchReport report = sample_report();
  report.disagreements = {{"torus-1024", "bit ends with population 1"}};
  report.failures = {{"plane-8192", "gpu", "device lost"}};
  std::ostringstream out;
  write_table(out, report);
  EXPECT_NE(out.str().find("check FAILED on torus-1024: bit ends with population 1"),
            std::string::npos);
  EXPECT_NE(out.str().find("FAILED gpu on plane-8192: device lost"), std::string::npos);
}

TEST(Report, JsonParsesWithTheDocumentedKeys) {
  BenchReport report = sample_report();
  report.disagreements = {{"torus-1024", "a \"quoted\"\nmessage"}};
  std::ostringstream out;
  write_json(out, report);
  const JsonValue json = JsonReader::parse(out.str());
  EXPECT_EQ(json["machine"]["cpu"].string(), "Test CPU \"quoted\", with comma");
  EXPECT_EQ(json["machine"]["threads_used"].number(), 2);
  EXPECT_EQ(json["machine"]["load_average"].string(), "1.50 0.80 0.40");
  EXPECT_EQ(json["machine"]["core_round_trip_ns"].number(), 457);
  EXPECT_EQ(json["date"].string(), "2026-11-23T03:00:00Z");
  EXPECT_EQ(json["repeats"].number(), 3);
  ASSERT_EQ(json["results"].array().size(), report.results.size());
  for (const JsonValue& result : json["results"].array()) {
    EXPECT_EQ(result.object().size(), result_keys().size());
    for (const std::string& key : result_keys()) EXPECT_TRUE(result.object().contains(key)) << key;
  }
  const JsonValue& simd = json["results"].array()[2];
  EXPECT_EQ(simd["backend"].string(), "simd");
  EXPECT_DOUBLE_EQ(simd["speedup"].number(), 16.0);
  EXPECT_DOUBLE_EQ(simd["effective_cups"].number(), 1024.0 * 1024 * 100 / 0.5);
  EXPECT_TRUE(simd["device_seconds"].is_null());
  EXPECT_TRUE(simd["peak_rss_bytes"].is_null());
  EXPECT_EQ(simd["cell_hash"].string(), "0000000000abcdef");
  ASSERT_EQ(simd["seconds"].array().size(), 3u);
  EXPECT_DOUBLE_EQ(simd["seconds"].array()[0].number(), 0.5);
  EXPECT_DOUBLE_EQ(simd["engine_seconds"].number(), 0.5);
  EXPECT_DOUBLE_EQ(simd["vs_quicklife_engine"].number(), 6.0);
  EXPECT_TRUE(simd["vs_quicklife_process"].is_null());
  const JsonValue& golly = json["results"].array()[3];
  EXPECT_EQ(golly["engine"].string(), "golly");
  EXPECT_DOUBLE_EQ(golly["engine_seconds"].number(), 3.0);
  EXPECT_DOUBLE_EQ(golly["process_seconds"].number(), 4.0);
  EXPECT_EQ(json["skipped"].array()[0]["backend"].string(), "serial");
  EXPECT_TRUE(json["failures"].array().empty());
  EXPECT_FALSE(json["check"]["passed"].boolean());
  EXPECT_EQ(json["check"]["mismatches"].array()[0]["message"].string(), "a \"quoted\"\nmessage");
}

TEST(Report, JsonOfAnEmptyRunParses) {
  BenchReport report;
  std::ostringstream out;
  write_json(out, report);
  const JsonValue json = JsonReader::parse(out.str());
  EXPECT_TRUE(json["results"].array().empty());
  EXPECT_TRUE(json["check"]["passed"].boolean());
}

// Splits one CSV line, honouring quoted fields with doubled quotes.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

TEST(Report, CsvHasTheKeysAsHeaderAndOneRowPerResult) {
  const BenchReport report = sample_report();
  std::ostringstream out;
  write_csv(out, report);
  std::istringstream lines(out.str());
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(csv_fields(line), result_keys());
  size_t rows = 0;
  while (std::getline(lines, line)) {
    const std::vector<std::string> fields = csv_fields(line);
    ASSERT_EQ(fields.size(), result_keys().size()) << line;
    EXPECT_EQ(fields[0], report.results[rows].workload);
    EXPECT_EQ(fields[1], report.results[rows].backend);
    ++rows;
  }
  EXPECT_EQ(rows, report.results.size());
}

// Medians of microsecond runs keep three digits instead of reading 0.0000.
TEST(SignificantText, ThreeDigitsNeverAllZeros) {
  EXPECT_EQ(significant_text(0.0000312), "0.0000312");
  EXPECT_EQ(significant_text(0.00049999), "0.000500");
  EXPECT_EQ(significant_text(1.2345), "1.23");
  EXPECT_EQ(significant_text(9.996), "10.0");
  EXPECT_EQ(significant_text(45.66), "45.7");
  EXPECT_EQ(significant_text(999.6), "1000");
  EXPECT_EQ(significant_text(12345.6), "12346");
  EXPECT_EQ(significant_text(0), "0");
}

TEST(Report, TableSecondsHaveThreeSignificantDigits) {
  BenchReport report = sample_report();
  report.results[2].median_seconds = 0.0000412;
  std::ostringstream out;
  write_table(out, report);
  EXPECT_NE(out.str().find("0.0000412"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("0.0000 "), std::string::npos) << out.str();
}

TEST(SiFormat, ThreeSignificantDigits) {
  EXPECT_EQ(si_format(152.3e9), "152 G");
  EXPECT_EQ(si_format(23.5e12), "23.5 T");
  EXPECT_EQ(si_format(1.234e6), "1.23 M");
  EXPECT_EQ(si_format(999), "999");
  EXPECT_EQ(si_format(999.7), "1.00 k");
  EXPECT_EQ(si_format(0), "0");
}

TEST(Report, TableHeaderNamesTheCoreRoundTripWhereMeasured) {
  BenchReport report = sample_report();
  std::ostringstream measured;
  write_table(measured, report);
  EXPECT_NE(measured.str().find("; core-to-core round trip 457 ns\n"), std::string::npos)
      << measured.str();
  report.machine.core_round_trip_ns = 0;
  std::ostringstream unmeasured;
  write_table(unmeasured, report);
  EXPECT_EQ(unmeasured.str().find("round trip"), std::string::npos) << unmeasured.str();
}

TEST(MachineInfo, CoreRoundTripIsMeasuredWhereThereAreTwoCores) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one hardware thread";
  const double round_trip = core_round_trip_ns();
  // 0 means the hand-offs stalled (a busy machine); a measurement is a
  // positive time well under the 200 ms deadline per hand-off.
  EXPECT_GE(round_trip, 0.0);
  EXPECT_LT(round_trip, 1e8);
  EXPECT_EQ(current_machine(1).core_round_trip_ns, 0.0);
}

}  // namespace
}  // namespace gol::bench
