// `gol bench --gpu-scaling strong|weak`: a torus stepped in bands on 1, 2,
// ... GPUs of this host with NCCL halos (gpu/nccl_bands.h), in this
// process, with the efficiency of every GPU count against one GPU.
#pragma once

#include "bench/bench_options.h"

namespace gol::bench {

// Strong scaling steps one SIDE x SIDE torus on every GPU count (efficiency
// t1 / (n tn)) and checks that all end with the same population; weak
// scaling gives every GPU a SIDE x SIDE band, a torus SIDE x (n SIDE)
// (efficiency t1 / tn). Counts this host cannot run (more GPUs than
// devices) are reported as skipped with the reason. Throws RuntimeError
// when one GPU cannot run either.
int run_gpu_scaling(const BenchOptions& options);

}  // namespace gol::bench
