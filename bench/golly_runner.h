// Runs Golly's batch program bgolly on a workload (QuickLife or HashLife),
// timing the whole process from outside and checking its result.
#pragma once

#include <optional>
#include <string>

#include "bench/bench_result.h"
#include "bench/child_process.h"
#include "bench/workloads.h"
#include "engine/core/pattern.h"

namespace gol::bench {

// bgolly on PATH, or nullopt.
std::optional<std::string> find_bgolly();

struct GollySettings {
  std::string bgolly;     // path to bgolly
  std::string algorithm;  // "QuickLife" or "HashLife"
  int repeats = 3;
  bool want_shape_hash = false;  // compare the cells too (plane workloads)
};

// Writes `pattern` as RLE (a torus as the ":Tw,h" rule suffix) and runs
// `bgolly -a ALGO -m GENS -q -q IN.rle` `repeats` times: the median wall time
// of the whole process, reading the pattern included. The same command with
// -m 0 gives the reading time alone (load_seconds). A last, untimed run with
// -o writes the result, read back for its population (and shape hash).
// Peak memory is the largest of the timed runs (see run_child). Throws
// RuntimeError if bgolly fails.
RunResult run_golly(const Workload& workload, const Pattern& pattern,
                    const GollySettings& settings);

// run_golly a timed run at a time (settings.repeats is not read), so that
// the bench can take turns between engines. Holds references to `workload`
// and `pattern`; the constructor writes the RLE and times the -m 0 run.
class GollyTimer {
 public:
  GollyTimer(const Workload& workload, const Pattern& pattern, GollySettings settings);
  void time_one();
  // The median over the timed runs so far (at least one), after the
  // untimed run that writes the result for the check.
  RunResult result() const;

 private:
  const Workload& workload_;
  const Pattern& pattern_;
  GollySettings settings_;
  TempDir dir_;
  std::string input_;
  RunResult result_;
};

// "bgolly-QuickLife", the backend column's name for a Golly algorithm.
std::string golly_backend_name(const std::string& algorithm);

}  // namespace gol::bench
