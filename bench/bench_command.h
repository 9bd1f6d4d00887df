// `gol bench`: the entry point engine/cli/main.cpp calls.
#pragma once

#include <string>
#include <vector>

namespace gol::bench {

// `args`: everything after "gol bench". Returns the process exit code.
// Throws UsageError (exit 2) for a bad command line, InputError (3) for a
// pattern that cannot be built, RuntimeError (4) when a backend fails or the
// backends disagree on a result (after the results have been written).
int run_bench_command(const std::vector<std::string>& args);

}  // namespace gol::bench
