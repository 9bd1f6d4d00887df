// Times one workload on one of our backends: in this process, or with
// --isolate one child process per run so each run's peak memory is its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_result.h"
#include "bench/workloads.h"
#include "engine/core/backend.h"
#include "engine/core/pattern.h"

namespace gol::bench {

struct RunSettings {
  int repeats = 3;
  int warmup = 0;
  int threads = 0;
  bool quick = false;
  bool isolate = false;
  // Also hash the final cells with their bounding box moved to (0, 0), to
  // compare with Golly's output (plane workloads only).
  bool want_shape_hash = false;
  // The `gol` executable re-run by --isolate.
  std::string gol_executable;
  // With --isolate: the RLE the children read, as the baselines do, so
  // their whole-process time includes reading it; empty: they build it.
  std::string pattern_file;
};

// One timed run: Simulation::advance only, construction and loading excluded.
struct SingleRun {
  double seconds = 0;
  uint64_t population = 0;
  uint64_t cell_hash = 0;
  std::optional<uint64_t> shape_hash;
  double final_area = 0;  // bounding box (plane) or torus area after the run
  BackendStats stats;
  // run_once_releasing only: the process's peak memory once the Simulation is
  // loaded (before any generation), to tell loading's share of the peak.
  std::optional<uint64_t> load_peak_rss_bytes;
  // The process's peak memory once the generations are run, before the
  // bench's own check (hashing the final cells makes copies of them).
  std::optional<uint64_t> run_peak_rss_bytes;
};

SingleRun run_once(const Workload& workload, const Pattern& pattern, const std::string& backend,
                   int threads, bool want_shape_hash);
// The same, the Simulation taking `pattern` apart as it loads: what an
// isolated child runs, so its peak memory is the engine's, not the bench's
// spare copy of the input. The world then goes to keep_until_exit(), as
// `gol run`'s does: a child's process time is what a user's run takes.
SingleRun run_once_releasing(const Workload& workload, Pattern pattern, const std::string& backend,
                             int threads, bool want_shape_hash);

// The one-line form a --run-one child prints and its parent reads back.
std::string format_single_run(const SingleRun& run);
// Throws RuntimeError if `output` holds no well-formed result line.
SingleRun parse_single_run(const std::string& output);

// Cells counted for effective CUpS before any generation: the torus area, or
// the pattern's bounding-box area on the plane.
double initial_area(const Pattern& pattern);

// One backend's runs on one workload, a timed run at a time (settings.repeats
// is not read), so that the bench can take turns between engines. Holds
// references to `workload` and `pattern`.
class BackendTimer {
 public:
  BackendTimer(const Workload& workload, const Pattern& pattern, std::string backend,
               RunSettings settings);
  // settings.warmup untimed runs.
  void warm_up();
  // One timed run; throws RuntimeError if it ends in a state other than
  // the first run's (InputError where the backend refuses the world).
  void time_one();
  // The median over the timed runs so far (at least one).
  RunResult result() const;

 private:
  SingleRun run_one();

  const Workload& workload_;
  const Pattern& pattern_;
  std::string backend_;
  RunSettings settings_;
  std::vector<SingleRun> runs_;
  std::vector<double> process_times_;
  std::optional<uint64_t> peak_rss_;
  double process_seconds_ = 0;
};

// Warm-up runs, then `repeats` timed runs; throws RuntimeError if repeated
// runs of the backend end in different states.
RunResult run_backend(const Workload& workload, const Pattern& pattern, const std::string& backend,
                      const RunSettings& settings);

}  // namespace gol::bench
