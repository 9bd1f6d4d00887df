// `gol bench --tile-pool SIDE`: the device tile pool the hybrid scheduler
// steps, against the dense `gpu` backend on the same SIDE^2 torus soup, and
// the pool's batched transfer throughput.
#pragma once

#include "bench/bench_options.h"

namespace gol::bench {

// Prints the figures; returns the exit code. Throws RuntimeError without a
// usable GPU and when the pool and the backend disagree on the population.
int run_tile_pool_bench(const BenchOptions& options);

}  // namespace gol::bench
