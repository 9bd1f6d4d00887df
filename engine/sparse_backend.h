// The production CPU backends "simd" (Highway) and "simd-xsimd": the sparse
// tile world of sparse/ stepped one generation at a time by the SIMD tile
// kernel on oneTBB workers.
#pragma once

#include <memory>

#include "cpu/simd/tile_step.h"
#include "engine/core/backend.h"

namespace gol {

// Any rule without B0 on the plane; any rule on a torus.
std::unique_ptr<Backend> make_sparse_backend(const BackendOptions& options,
                                             cpu::SimdLibrary library);

}  // namespace gol
