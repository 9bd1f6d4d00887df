// `gol bench --gpu-kernels`: kernel-only timing of dense random tori on the
// GPU (multi-step against the one-generation baselines), as issue 4 asks.
#pragma once

#include "bench/bench_options.h"

namespace gol::bench {

// Prints the table (and --json/--csv when asked); returns the exit code.
// Throws RuntimeError when the binary has no GPU support or no GPU is
// usable, and when the kernels disagree on the final population.
int run_gpu_kernel_bench(const BenchOptions& options);

}  // namespace gol::bench
