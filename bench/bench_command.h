// `gol bench`: the entry point engine/cli/main.cpp calls.
#pragma once

#include "bench/bench_options.h"

namespace gol::bench {

// Runs what `options` asks. Returns the process exit code. Throws
// UsageError (exit 2) for an unknown workload or backend, InputError (3) for a
// pattern that cannot be built, RuntimeError (4) when a backend fails or the
// backends disagree on a result (after the results have been written).
int run_bench_command(const BenchOptions& options);

}  // namespace gol::bench
