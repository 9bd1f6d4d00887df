// The public kernel the bench compares ours with (gpu/public_baseline_kernel.cu
// credits it): kept apart from our kernels, used only by the bench.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/kernels.cuh"

namespace gol::gpu {

// The public kernel's most generations a launch.
inline constexpr int kPublicBaselineGenerations = 16;

// Advances a torus held in the public kernel's layout (column-major, bit 31
// westmost; its height a multiple of 4) by `generations`
// (1..kPublicBaselineGenerations) from src into dst in one launch. Returns
// the cell updates the launch computed.
uint64_t launch_public_baseline(const uint32_t* src, uint32_t* dst, PackedFieldView field,
                                int generations, cudaStream_t stream);
// Writes the row-major packed field src into dst in the public kernel's
// layout: the same cells.
void to_public_baseline_layout(const uint32_t* src, uint32_t* dst, PackedFieldView field,
                               cudaStream_t stream);

}  // namespace gol::gpu
