// `gol run`: check every output first, load, step in chunks (progress,
// log rows, checkpoints, stop requests between chunks), then write and
// report.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "engine/cli/commands.h"
#include "engine/cli/pattern_outputs.h"
#include "engine/cli/progress_line.h"
#include "engine/cli/run_log.h"
#include "engine/cli/run_plan.h"
#include "engine/cli/run_summary.h"
#include "engine/cli/signals.h"
#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/process_exit.h"
#include "engine/simulation.h"

#ifdef GOL_HAVE_MPI
#include "dist/mpi_world.h"
#endif

namespace gol::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Chunks of generations are sized to take about this long, so stop
// requests, progress and the clock are looked at a few times a second
// while the per-chunk overhead stays negligible.
constexpr double kChunkSeconds = 0.25;
constexpr uint64_t kMaxChunk = uint64_t{1} << 40;
constexpr uint64_t kMaxGeneration = std::numeric_limits<int64_t>::max();

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

// The log is appended to through the run while --out and --checkpoint
// replace their files whole, so one name for both would lose the log.
void refuse_log_sharing_a_file(const RunOptions& options) {
  if (!options.log) return;
  std::error_code error;
  const std::filesystem::path log = std::filesystem::weakly_canonical(*options.log, error);
  if (error) return;  // check_output_path reports what is wrong with it
  for (const auto& [role, path] :
       {std::pair{"--out", options.out}, std::pair{"--checkpoint", options.checkpoint}}) {
    if (!path || *path == "-") continue;
    if (std::filesystem::weakly_canonical(*path, error) == log && !error) {
      throw UsageError(std::string("--log and ") + role + " both name '" + *options.log +
                       "': the pattern written there would replace the log");
    }
  }
}

RunPlan plan_run(const RunOptions& options) {
  // Mistakes on the command line first (exit 2), then the files (exit 4).
  if (options.out == "-" && options.json) {
    throw UsageError("--out - and --json cannot both write to standard output");
  }
  if ((options.log || options.checkpoint) && !options.every) {
    throw UsageError(std::string(options.log ? "--log" : "--checkpoint") + " needs --every N");
  }
  if (options.every && !options.log && !options.checkpoint) {
    throw UsageError("--every needs --log FILE or --checkpoint FILE");
  }
  if (options.log == "-") throw UsageError("--log needs a file name, not '-'");
  refuse_log_sharing_a_file(options);
  const std::optional<patterns::PatternFormat> format = format_option(options.format);
  RunPlan plan;
  // --format serves the output when its name cannot tell; otherwise
  // standard input, whose format content usually tells anyway.
  if (options.out) plan.out = plan_pattern_output(*options.out, format, "--out");
  const bool out_uses_format =
      options.out && (*options.out == "-" || !patterns::output_format_of(*options.out));
  if (format && options.pattern != "-" && !out_uses_format) {
    throw UsageError(
        "--format applies to '-' (standard input or output) and to an --out name "
        "without a known extension; neither is used here");
  }
  plan.input_format = options.pattern == "-" && !out_uses_format ? format : std::nullopt;
  plan.every = options.every.value_or(0);
  if (options.checkpoint) {
    if (*options.checkpoint == "-") throw UsageError("--checkpoint needs a file name, not '-'");
    const std::optional<patterns::OutputFormat> named =
        patterns::output_format_of(*options.checkpoint);
    if (!named || named->format == patterns::PatternFormat::kCells) {
      throw UsageError("--checkpoint '" + *options.checkpoint +
                       "': a checkpoint must keep the generation, rule and torus: name it "
                       ".rle or .mc (optionally .gz)");
    }
    plan.checkpoint = plan_pattern_output(*options.checkpoint, std::nullopt, "--checkpoint");
  }
  if (options.log) check_output_path(*options.log, "--log");
  return plan;
}

SimulationOptions simulation_options(const RunOptions& options) {
  SimulationOptions simulation;
  simulation.backend = options.backend;
  simulation.backend_options.threads = options.threads;
  if (options.rule) {
    const RuleSpec spec = parse_rule(*options.rule, "--rule");
    simulation.rule = spec.rule;
    simulation.topology = spec.topology;
  }
  if (options.torus) simulation.topology = parse_torus_size(*options.torus, "--torus");
  return simulation;
}

uint64_t target_generation(const RunOptions& options, uint64_t start) {
  if (options.until) {
    if (*options.until < start) {
      throw UsageError("--until " + std::to_string(*options.until) +
                       " is before the pattern's generation " + std::to_string(start) +
                       " (its #CXRLE Gen=)");
    }
    return *options.until;
  }
  if (options.generations > kMaxGeneration - start) {
    throw UsageError("--gens " + std::to_string(options.generations) + " from generation " +
                     std::to_string(start) + " would pass generation 2^63-1");
  }
  return start + options.generations;
}

namespace {

double world_area(const Simulation& simulation, const std::optional<BBox>& box) {
  const Topology& topology = simulation.topology();
  if (topology.is_torus()) {
    return static_cast<double>(topology.width) * static_cast<double>(topology.height);
  }
  return bbox_area(box);
}

// Steps the simulation to the target, doing what is due between chunks.
class RunLoop {
 public:
  // `area`: the world's extent at the start.
  RunLoop(Simulation& simulation, const RunPlan& plan, RunLog* log, ProgressLine& progress,
          double area)
      : simulation_(simulation), plan_(plan), log_(log), progress_(progress), known_area_(area) {}

  // Returns the signal that stopped the run early, or 0.
  int run_to(uint64_t target, const StopRequests& stop) {
    start_ = Clock::now();
    if (log_ != nullptr) log_row();
    while (simulation_.generation() < target && stop.signal() == 0) {
      const uint64_t generation = simulation_.generation();
      uint64_t next = generation + std::min(chunk_, target - generation);
      if (plan_.every > 0) next = std::min(next, (generation / plan_.every + 1) * plan_.every);
      const auto chunk_start = Clock::now();
      simulation_.expect_more_steps(next < target);
      simulation_.expect_run_length(target - generation);
      simulation_.advance(next - generation);
      checkpoint_is_current_ = false;
      adapt_chunk(seconds_since(chunk_start));
      if (plan_.every > 0 && next % plan_.every == 0) save_milestone();
      if (progress_.shows_at(seconds_since(start_))) progress_.update(state());
    }
    seconds_ = seconds_since(start_);
    return stop.signal();
  }

  // The final log row and checkpoint, unless the last milestone was here.
  void finish() {
    if (log_ != nullptr && log_->last_generation() != simulation_.generation()) log_row();
    if (plan_.checkpoint && !checkpoint_is_current_) write_checkpoint();
  }

  double seconds() const { return seconds_; }

 private:
  ProgressState state() const {
    return {simulation_.generation(), simulation_.population(), seconds_since(start_), known_area_,
            simulation_.stats()};
  }

  // The bounding box costs a pass over the cells (a copy of them, for some
  // backends), so it is measured only at log rows and checkpoints.
  void note_extent(const std::optional<BBox>& box) {
    known_area_ = std::max(known_area_, world_area(simulation_, box));
  }

  void log_row() {
    const std::optional<BBox> box = simulation_.bbox();
    note_extent(box);
    log_->row(state(), box);
  }

  void write_checkpoint() {
    const Pattern snapshot = simulation_.snapshot();
    note_extent(snapshot.cells.bbox());
    write_pattern_output(*plan_.checkpoint, snapshot);
    checkpoint_is_current_ = true;
  }

  void save_milestone() {
    if (log_ != nullptr) log_row();
    if (plan_.checkpoint) write_checkpoint();
  }

  void adapt_chunk(double chunk_seconds) {
    if (chunk_seconds < kChunkSeconds && chunk_ < kMaxChunk) chunk_ *= 2;
    if (chunk_seconds > 4 * kChunkSeconds && chunk_ > 1) chunk_ /= 2;
  }

  Simulation& simulation_;
  const RunPlan& plan_;
  RunLog* log_;
  ProgressLine& progress_;
  Clock::time_point start_;
  double known_area_;
  uint64_t chunk_ = 1;
  bool checkpoint_is_current_ = false;
  double seconds_ = 0;
};

}  // namespace

// "gol: stopped by SIGINT at generation 1234; the state reached is in
// out.rle and run.ckpt.rle".
std::string stop_message(int signal_number, uint64_t generation, const RunPlan& plan) {
  std::string message = "gol: stopped by ";
  message += signal_number == SIGINT ? "SIGINT" : "SIGTERM";
  message += " at generation ";
  message += std::to_string(generation);
  std::string kept;
  if (plan.out) kept = plan.out->path == "-" ? "standard output" : plan.out->path;
  if (plan.checkpoint) {
    if (!kept.empty()) kept += " and ";
    kept += plan.checkpoint->path;
  }
  if (!kept.empty()) {
    message += "; the state reached is in ";
    message += kept;
  }
  message += "\n";
  return message;
}

int run_command(const RunOptions& options) {
#ifdef GOL_HAVE_MPI
  if (dist::launched_with_several_ranks()) {
    if (options.gpus) {
      throw UsageError("--gpus drives every GPU from one process; run it without mpirun");
    }
    return run_on_bands(options);
  }
#endif
  if (options.gpus) return run_on_gpu_bands(options);
  const RunPlan plan = plan_run(options);
  // The loaded pattern is a temporary: once the backend holds the cells,
  // the input's copy is freed rather than kept for the whole run.
  auto world = std::make_unique<Simulation>(
      patterns::load_pattern(options.pattern, plan.input_format), simulation_options(options));
  Simulation& simulation = *world;
  const uint64_t start_generation = simulation.generation();
  const uint64_t target = target_generation(options, start_generation);
  const std::optional<BBox> bbox_before = simulation.bbox();

  std::unique_ptr<RunLog> log;
  if (options.log) log = std::make_unique<RunLog>(*options.log);
  ProgressLine progress(!options.quiet && isatty(STDERR_FILENO), start_generation, target);
  RunLoop loop(simulation, plan, log.get(), progress, world_area(simulation, bbox_before));
  int stopped_by = 0;
  {
    const StopRequests stop;
    stopped_by = loop.run_to(target, stop);
    progress.clear();
    loop.finish();
    // The cells are copied out only to be written: the summary's figures
    // come from the world itself.
    if (plan.out) write_pattern_output(*plan.out, simulation.snapshot());

    RunSummary summary;
    summary.pattern = options.pattern;
    summary.seconds = loop.seconds();
    summary.generation = simulation.generation();
    summary.generations_run = simulation.generation() - start_generation;
    summary.population = simulation.population();
    summary.bbox = simulation.bbox();
    summary.rule = simulation.rule().to_string();
    summary.topology = simulation.topology().to_string();
    summary.backend = simulation.backend_name();
    summary.area =
        std::max(world_area(simulation, bbox_before), world_area(simulation, summary.bbox));
    summary.stats = simulation.stats();
    const std::string report = options.json ? summary_json(summary) + "\n" : summary_text(summary);
    // With the pattern on standard output, the summary goes to stderr.
    std::fputs(report.c_str(), plan.out && plan.out->path == "-" ? stderr : stdout);
  }
  const uint64_t generation = simulation.generation();
  keep_until_exit(std::move(world));
  if (stopped_by == 0) return 0;
  std::fputs(stop_message(stopped_by, generation, plan).c_str(), stderr);
  return 128 + stopped_by;
}

}  // namespace gol::cli
