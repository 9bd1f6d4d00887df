// `gol bench --mpi-scaling strong|weak`: gol run on 1, 2, ... CPU ranks
// (mpirun for more than one), each a child process, with the efficiency of
// every rank count against one rank.
#pragma once

#include "bench/bench_options.h"

namespace gol::bench {

// Strong scaling runs one SIDE x SIDE torus on every rank count (efficiency
// t1 / (n tn)) and checks that all end with the same population; weak
// scaling gives every rank a SIDE x SIDE band, a torus SIDE x (n SIDE)
// (efficiency t1 / tn). Throws RuntimeError when mpirun is missing, a run
// fails, or this gol was built without MPI.
int run_mpi_scaling(const BenchOptions& options);

}  // namespace gol::bench
