// One row of `gol bench` output: a workload run on one backend (ours or
// Golly's), with the timings and final state the report and checker use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gol::bench {

// Whose engine a row times: ours, Golly's bgolly, or lifelib's ulifelib
// (through Rokicki's lifealgo harness).
enum class Engine { kGol, kGolly, kLifelib };

struct RunResult {
  std::string workload;
  std::string backend;  // "serial", "simd", ... or "bgolly-QuickLife"
  Engine engine = Engine::kGol;
  std::string topology;  // "plane" or "torus WxH"
  uint64_t generations = 0;
  std::vector<double> seconds;  // one per timed repeat
  double median_seconds = 0;
  // Cells counted for effective CUpS: the torus, or on the plane the larger
  // of the initial and final bounding boxes.
  double area = 0;
  uint64_t cells_computed = 0;  // 0: not reported (Golly)
  double device_seconds = 0;    // median over repeats
  double transfer_seconds = 0;  // median over repeats
  uint64_t tiles_active = 0;
  uint64_t tiles_total = 0;
  std::string simd_target;
  uint64_t population = 0;
  // Hash of the final cells (absolute coordinates) for our backends; for
  // Golly, whose RLE output has no origin, the hash of the cells moved so
  // the bounding box starts at (0, 0), and only on the plane.
  std::optional<uint64_t> cell_hash;
  std::optional<uint64_t> shape_hash;
  std::optional<uint64_t> peak_rss_bytes;
  // --isolate: the peak once the Simulation was loaded, before any generation.
  std::optional<uint64_t> load_peak_rss_bytes;
  // --isolate and Golly: median wall time of the whole process (start,
  // building or reading the pattern, running, exit).
  std::optional<double> process_seconds;
  // Golly only: the same bgolly command with -m 0 (read and write the
  // pattern, no generations).
  std::optional<double> load_seconds;
  // ulifelib only: lifealgo's own timer of its generation loop (median).
  std::optional<double> reported_engine_seconds;

  // Filled in by derive_comparisons(). Golly's time over ours, like with
  // like: engine only (engine_seconds), and whole process (process_seconds,
  // ours only with --isolate).
  std::optional<double> speedup;
  std::string speedup_baseline;  // "serial", or the slowest backend run
  std::optional<double> vs_quicklife_engine;
  std::optional<double> vs_quicklife_process;
  std::optional<double> vs_hashlife_engine;
  std::optional<double> vs_hashlife_process;
  std::optional<double> vs_ulifelib_engine;
  std::optional<double> vs_ulifelib_process;

  // The time spent running generations, without process start or loading
  // the pattern: ours as timed; Golly's whole run less its -m 0 run, when
  // that leaves anything.
  std::optional<double> engine_seconds() const {
    if (engine == Engine::kGol) return median_seconds;
    if (reported_engine_seconds) return reported_engine_seconds;
    if (!load_seconds || median_seconds <= *load_seconds) return std::nullopt;
    return median_seconds - *load_seconds;
  }
  double effective_cups() const {
    return median_seconds > 0 ? area * generations / median_seconds : 0;
  }
  std::optional<double> computed_cups() const {
    if (cells_computed == 0 || median_seconds <= 0) return std::nullopt;
    return static_cast<double>(cells_computed) / median_seconds;
  }
  // Effective CUpS on device time alone (GPU kernels), when reported.
  std::optional<double> device_cups() const {
    if (device_seconds <= 0) return std::nullopt;
    return area * generations / device_seconds;
  }
};

struct SkippedRun {
  std::string workload;
  std::string backend;
  std::string reason;
};

// The median of `values` (the mean of the middle two for an even count);
// 0 for none.
double median(std::vector<double> values);

}  // namespace gol::bench
