// `gol run` across MPI ranks (mpirun -np N with N > 1): rank 0 checks the
// options, loads the pattern and leads the band run of dist/; the other
// ranks follow it. Only rank 0 writes --out and the summary. SIGINT or
// SIGTERM on any rank stops all of them after the same round, with the
// state reached kept.
#include <cstdio>
#include <string>

#include "dist/band_run.h"
#include "dist/mpi_world.h"
#include "engine/cli/commands.h"
#include "engine/cli/run_plan.h"
#include "engine/cli/run_summary.h"
#include "engine/cli/signals.h"
#include "engine/core/error.h"

namespace gol::cli {
namespace {

// What the band run cannot do yet, refused before any work.
void check_band_options(const RunOptions& options) {
  if (options.log || options.checkpoint) {
    throw UsageError(std::string(options.log ? "--log" : "--checkpoint") +
                     " is not available across MPI ranks; run without mpirun (or with -np 1) "
                     "for log rows and checkpoints");
  }
}

dist::BandJob band_job(const RunOptions& options, const Pattern& pattern) {
  const SimulationOptions settings = simulation_options(options);
  dist::BandJob job;
  job.rule = settings.rule.value_or(pattern.rule.value_or(Rule::conway()));
  const Topology topology =
      settings.topology.value_or(pattern.topology.value_or(Topology::plane()));
  if (!topology.is_torus()) {
    throw UsageError(
        "a run across MPI ranks splits a torus into bands: expected --torus WxH or a pattern "
        "whose rule names a torus (B3/S23:Tw,h)");
  }
  check_rule_fits(job.rule, topology);
  job.topology = topology;
  job.cells = pattern.cells.wrapped(topology.width, topology.height);
  job.generations = target_generation(options, pattern.generation) - pattern.generation;
  job.backend = options.backend;
  job.threads = options.threads;
  return job;
}

RunSummary band_summary(const RunOptions& options, const dist::BandJob& job,
                        const dist::BandRunResult& result, uint64_t start_generation) {
  RunSummary summary;
  summary.pattern = options.pattern;
  summary.seconds = result.seconds;
  summary.generation = start_generation + result.generations_run;
  summary.generations_run = result.generations_run;
  summary.population = result.cells.population();
  summary.bbox = result.cells.bbox();
  summary.rule = job.rule.to_string();
  summary.topology = job.topology.to_string();
  summary.backend = result.backend;
  summary.area = static_cast<double>(job.topology.width) * static_cast<double>(job.topology.height);
  summary.stats.simd_target = result.simd_target;
  summary.stats.threads = 0;
  for (const dist::RankFigures& rank : result.ranks) {
    summary.stats.cells_computed += rank.cells_computed;
    summary.stats.threads += rank.threads;
    summary.ranks.push_back({rank.first_row, rank.rows, rank.population, rank.cells_computed,
                             rank.exchanges, rank.step_seconds, rank.exchange_seconds,
                             rank.threads});
  }
  summary.halo_rows = result.halo_rows;
  return summary;
}

int lead(const dist::MpiWorld& world, const RunOptions& options) {
  RunPlan plan;
  dist::BandJob job;
  uint64_t start_generation = 0;
  try {
    check_band_options(options);
    plan = plan_run(options);
    const Pattern pattern = patterns::load_pattern(options.pattern, plan.input_format);
    start_generation = pattern.generation;
    job = band_job(options, pattern);
  } catch (...) {
    dist::cancel_band_run(world);
    throw;
  }
  const StopRequests stop;
  const dist::BandRunResult result =
      dist::lead_band_run(world, job, [&stop] { return stop.signal(); });
  Pattern snapshot;
  snapshot.cells = result.cells;
  snapshot.rule = job.rule;
  snapshot.topology = job.topology;
  snapshot.generation = start_generation + result.generations_run;
  if (plan.out) write_pattern_output(*plan.out, snapshot);
  const RunSummary summary = band_summary(options, job, result, start_generation);
  const std::string report = options.json ? summary_json(summary) + "\n" : summary_text(summary);
  std::fputs(report.c_str(), plan.out && plan.out->path == "-" ? stderr : stdout);
  if (result.stopped_by == 0) return 0;
  std::fputs(stop_message(result.stopped_by, snapshot.generation, plan).c_str(), stderr);
  return 128 + result.stopped_by;
}

}  // namespace

int run_on_bands(const RunOptions& options) {
  const dist::MpiWorld world;
  if (world.rank() != 0) {
    const StopRequests stop;
    dist::follow_band_run(world, [&stop] { return stop.signal(); });
    return 0;
  }
  return lead(world, options);
}

}  // namespace gol::cli
