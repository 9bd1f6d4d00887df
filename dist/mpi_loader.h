// Finding and loading the MPI module (dist/mpi_calls.h), which gol_dist does
// only when a run spans several ranks.
#pragma once

#include <filesystem>

#include "dist/mpi_calls.h"

namespace gol::dist {

// Where the module lies for the running executable: the path from bin/gol to
// lib/gol/libgol_mpi.so that `cmake --install` gives them, which the build
// tree repeats from engine/gol.
std::filesystem::path mpi_module_path();

// The calls of the module at `path`, which stays loaded for the life of the
// process. Throws RuntimeError naming `path` and the loader's reason when it
// or the MPI library it links cannot be loaded, or when it is not a gol MPI
// module of this version.
const MpiCalls& load_mpi_calls(const std::filesystem::path& path);

}  // namespace gol::dist
