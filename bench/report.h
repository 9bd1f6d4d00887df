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
// did not run) and the vs_quicklife_* and vs_hashlife_* ratios (engine only
// and whole process) for every result.
void derive_comparisons(std::vector<RunResult>& results);

// The column keys of the CSV header and of each JSON result object.
const std::vector<std::string>& result_keys();

void write_table(std::ostream& out, const BenchReport& report);
void write_json(std::ostream& out, const BenchReport& report);
void write_csv(std::ostream& out, const BenchReport& report);

// "152 G", "23.5 T": three significant digits and an SI prefix.
std::string si_format(double value);

// Three significant digits in plain notation: "0.0000312", "1.23", "45.6",
// "123"; larger numbers keep all their integer digits ("12346").
std::string significant_text(double value);

}  // namespace gol::bench
