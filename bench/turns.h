// Timing engines in turns on one workload: every engine's run r before any
// engine's run r + 1. On a shared host whose speed drifts from one spell of
// seconds to the next (bench/RESULTS.md), timing each engine's repeats back
// to back let a slow spell fall on one engine's whole set and bend the
// ratios between engines either way; in turns, each median is taken over
// the same spells.
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_result.h"

namespace gol::bench {

struct Contender {
  std::string name;                   // for the progress lines
  std::function<void()> time_one;     // one timed run
  std::function<RunResult()> result;  // the medians, once its runs are done
};

// What became of a contender: its result, or the exception that stopped
// it, after which it took no more turns.
struct TurnOutcome {
  std::optional<RunResult> result;
  std::exception_ptr error;
};

// `repeats` turns of every contender still running, in order; progress(name,
// run) before each timed run (run counted from 1). One outcome a contender.
std::vector<TurnOutcome> run_in_turns(const std::vector<Contender>& contenders, int repeats,
                                      const std::function<void(const std::string&, int)>& progress);

}  // namespace gol::bench
