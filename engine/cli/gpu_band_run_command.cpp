// `gol run --gpus N`: the torus in N horizontal bands on GPUs 0..N-1, one
// process driving them all, halos device to device through NCCL
// (gpu/nccl_bands.h). SIGINT or SIGTERM stops the run between chunks of
// generations with the state reached kept.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/cli/commands.h"
#include "engine/cli/run_plan.h"
#include "engine/cli/run_summary.h"
#include "engine/cli/signals.h"
#include "engine/core/error.h"
#include "gpu/band_plan.h"
#include "gpu/nccl_bands.h"

namespace gol::cli {
namespace {

// Generations between looks at stop requests: 64 rounds, a fraction of a
// second on a 65536^2 band, and few enough host synchronisations that
// they cost nothing measurable.
constexpr uint64_t kChunkGenerations = 64 * gpu::kBandHaloRows;

// What the band run cannot do, refused before any work.
void check_gpu_band_options(const RunOptions& options) {
  if (options.log || options.checkpoint) {
    throw UsageError(std::string(options.log ? "--log" : "--checkpoint") +
                     " is not available with --gpus; run without --gpus for log rows and "
                     "checkpoints");
  }
  if (options.backend != "auto" && options.backend != "gpu") {
    throw UsageError("--backend " + options.backend +
                     " with --gpus: every band runs the gpu backend's multi-step kernel; expected "
                     "--backend auto or gpu");
  }
}

void require_gpus(int gpus) {
  const std::string reason = gpu::nccl_bands_unavailable_reason(gpus);
  if (!reason.empty()) throw RuntimeError("--gpus " + std::to_string(gpus) + ": " + reason);
}

struct GpuBandJob {
  CellSet cells;  // within the torus
  Rule rule;
  Topology topology;
  uint64_t start_generation = 0;
  uint64_t generations = 0;
};

GpuBandJob gpu_band_job(const RunOptions& options, const Pattern& pattern) {
  const SimulationOptions settings = simulation_options(options);
  GpuBandJob job;
  job.rule = settings.rule.value_or(pattern.rule.value_or(Rule::conway()));
  const Topology topology =
      settings.topology.value_or(pattern.topology.value_or(Topology::plane()));
  if (!topology.is_torus()) {
    throw UsageError(
        "--gpus splits a torus into bands: expected --torus WxH or a pattern whose rule names a "
        "torus (B3/S23:Tw,h)");
  }
  check_rule_fits(job.rule, topology);
  job.topology = topology;
  job.cells = pattern.cells.wrapped(topology.width, topology.height);
  job.start_generation = pattern.generation;
  job.generations = target_generation(options, pattern.generation) - pattern.generation;
  return job;
}

struct SteppedBands {
  uint64_t generations_run = 0;
  int stopped_by = 0;
  double seconds = 0;
};

SteppedBands step_bands(gpu::GpuBands& bands, uint64_t generations) {
  const StopRequests stop;
  SteppedBands stepped;
  const auto start = std::chrono::steady_clock::now();
  while (stepped.generations_run < generations) {
    stepped.stopped_by = stop.signal();
    if (stepped.stopped_by != 0) break;
    const uint64_t chunk = std::min(kChunkGenerations, generations - stepped.generations_run);
    bands.step(chunk);
    stepped.generations_run += chunk;
  }
  stepped.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stepped;
}

RunSummary gpu_band_summary(const RunOptions& options, const GpuBandJob& job,
                            const SteppedBands& stepped, const Pattern& snapshot,
                            const std::vector<gpu::GpuBandFigures>& figures) {
  RunSummary summary;
  summary.pattern = options.pattern;
  summary.seconds = stepped.seconds;
  summary.generation = snapshot.generation;
  summary.generations_run = stepped.generations_run;
  summary.population = snapshot.cells.population();
  summary.bbox = snapshot.cells.bbox();
  summary.rule = job.rule.to_string();
  summary.topology = job.topology.to_string();
  summary.backend = "gpu";
  summary.area = static_cast<double>(job.topology.width) * static_cast<double>(job.topology.height);
  summary.stats.threads = 1;
  for (const gpu::GpuBandFigures& band : figures) {
    summary.stats.cells_computed += band.cells_computed;
    summary.stats.device_seconds = std::max(summary.stats.device_seconds, band.step_seconds);
    summary.ranks.push_back({band.first_row, band.rows, band.population, band.cells_computed,
                             band.exchanges, band.step_seconds, band.exchange_seconds, 1,
                             band.bytes_exchanged});
  }
  summary.halo_rows = gpu::kBandHaloRows;
  summary.band_transport = "NCCL";
  return summary;
}

}  // namespace

int run_on_gpu_bands(const RunOptions& options) {
  check_gpu_band_options(options);
  const RunPlan plan = plan_run(options);
  require_gpus(*options.gpus);
  const GpuBandJob job =
      gpu_band_job(options, patterns::load_pattern(options.pattern, plan.input_format));
  const std::unique_ptr<gpu::GpuBands> bands =
      gpu::make_nccl_bands(job.cells, job.rule, job.topology, *options.gpus);
  const SteppedBands stepped = step_bands(*bands, job.generations);
  Pattern snapshot;
  snapshot.cells = bands->cells();
  snapshot.rule = job.rule;
  snapshot.topology = job.topology;
  snapshot.generation = job.start_generation + stepped.generations_run;
  if (plan.out) write_pattern_output(*plan.out, snapshot);
  const RunSummary summary = gpu_band_summary(options, job, stepped, snapshot, bands->figures());
  const std::string report = options.json ? summary_json(summary) + "\n" : summary_text(summary);
  std::fputs(report.c_str(), plan.out && plan.out->path == "-" ? stderr : stdout);
  if (stepped.stopped_by == 0) return 0;
  std::fputs(stop_message(stepped.stopped_by, snapshot.generation, plan).c_str(), stderr);
  return 128 + stepped.stopped_by;
}

}  // namespace gol::cli
