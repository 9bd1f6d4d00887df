// The checks and settings `gol run` derives from its options before any
// work, shared by the single-process run and the run across MPI ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/cli/options.h"
#include "engine/cli/pattern_outputs.h"
#include "engine/simulation.h"

namespace gol::cli {

// What a run will write, checked before the pattern is even loaded.
struct RunPlan {
  std::optional<patterns::PatternFormat> input_format;
  std::optional<PatternOutput> out;
  std::optional<PatternOutput> checkpoint;
  uint64_t every = 0;  // 0: no log rows or checkpoints
};

// Throws UsageError for options that contradict each other and
// RuntimeError for outputs that cannot be written.
RunPlan plan_run(const RunOptions& options);
// The backend, threads and the --rule and --torus overrides.
SimulationOptions simulation_options(const RunOptions& options);
// The generation to stop at, from a pattern starting at `start`.
uint64_t target_generation(const RunOptions& options, uint64_t start);
// What a run stopped by `signal_number` tells on stderr: where it stopped and
// which outputs hold the state reached.
std::string stop_message(int signal_number, uint64_t generation, const RunPlan& plan);

}  // namespace gol::cli
