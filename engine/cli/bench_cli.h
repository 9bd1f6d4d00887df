// The `gol bench` command line: fills bench::BenchOptions, so the bench
// harness itself never parses arguments.
#pragma once

#include <string>
#include <vector>

#include "bench/bench_options.h"

namespace gol::cli {

// `args`: everything after "gol bench". Throws UsageError for any mistake,
// as `gol bench` would exit 2.
bench::BenchOptions parse_bench_arguments(const std::vector<std::string>& args);

}  // namespace gol::cli
