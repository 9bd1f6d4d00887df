// The bench's outputs: the text table, JSON and CSV, all from one report.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "bench/agreement.h"
#include "bench/bench_result.h"
#include "bench/machine_info.h"

namespace gol::bench {

struct BenchReport {
  MachineInfo machine;
  std::string command_line;  // "gol bench ..." as given
  int repeats = 0;
  int warmup = 0;
  bool quick = false;
  bool isolate = false;
  std::vector<RunResult> results;
  std::vector<SkippedRun> skipped;
  // Runs of ours that threw (a device failure, repeats that disagree): the
  // reason is in SkippedRun::reason. Like disagreements, they fail the run.
  std::vector<SkippedRun> failures;
  std::vector<Disagreement> disagreements;
};

// Fills speedup (over serial, or over the slowest of our backends when serial
// did not run), vs_quicklife and vs_hashlife for every result.
void derive_comparisons(std::vector<RunResult>& results);

// The column keys of the CSV header and of each JSON result object.
const std::vector<std::string>& result_keys();

void write_table(std::ostream& out, const BenchReport& report);
void write_json(std::ostream& out, const BenchReport& report);
void write_csv(std::ostream& out, const BenchReport& report);

// "152.3 G": three significant digits and an SI prefix.
std::string si_format(double value);

}  // namespace gol::bench
