// The `gol` subcommands. Each returns the process exit code and throws
// gol::Error subclasses for the caller to report.
#pragma once

#include "engine/cli/options.h"

namespace gol::cli {

int run_command(const RunOptions& options);
int info_command(const InfoOptions& options);
int backends_command();
// `gol run --gpus N`: the torus in bands, one a GPU, halos through NCCL
// (gpu_band_run_command.cpp).
int run_on_gpu_bands(const RunOptions& options);
#ifdef GOL_HAVE_MPI
// `gol run` when mpirun started several ranks: the torus in bands, one a rank
// (band_run_command.cpp, built only with MPI).
int run_on_bands(const RunOptions& options);
#endif

}  // namespace gol::cli
