// The GPU backends and device discovery, behind a plain C++ header: no
// CUDA types, so CPU-only code includes it freely. In builds without CUDA
// only device_available() and device_unavailable_reason() are defined (the
// resident tile pool is gpu/tile_pool.h).
//
// Packed device layout (both shapes): a field of W x H cells, W and H
// multiples of 64, stored row-major as 32-bit words, W/32 words a row. Bit i
// of word j of row y is the cell (32*j + i, y). On a little-endian host the
// words 2k and 2k+1 of a row are exactly the uint64_t row of the tile in
// tile column k (engine/core/tile.h: bit i of rows[r] is cell x = 64*tx + i),
// so tiles are copied to and from the device without reordering bits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/backend.h"
#include "engine/core/cell_set.h"
#include "engine/core/rule.h"

namespace gol::gpu {

// True when a CUDA device can be used now. Never throws; false (not a crash
// or a hang) where there is no driver or no GPU. Checked once per process.
bool device_available();
// Why device_available() is false ("" when it is true).
std::string device_unavailable_reason();

// The multi-step bit-packed kernel: many generations per launch. The torus
// lives entirely on the device; the plane runs on a device-resident region
// that regrows (with a margin) when live cells reach its border band.
std::unique_ptr<Backend> make_gpu_backend();
// Baselines from the published progression of CUDA Life kernels, for the
// benchmark: one byte a cell, one generation a launch (torus only) ...
std::unique_ptr<Backend> make_gpu_naive_backend();
// ... and bit-packed 32 cells a word, one generation a launch.
std::unique_ptr<Backend> make_gpu_bitstep_backend();

// Which kernel time_torus_kernel() measures: ours, or the public kernel the
// bench compares them with (gpu/public_baseline_kernel.cu).
enum class TorusKernel { kMultiStep, kPublicBaseline, kBitStep, kNaive };

// Kernel-only timing of a dense torus: a random 50% soup is built on the
// device, one warm-up run of `generations` is made, then each of `repeats`
// runs is timed with CUDA events. Throws RuntimeError without a device.
struct GpuKernelTiming {
  std::string device;
  std::string kernel;  // kernel and launch configuration, in words
  int64_t width = 0;
  int64_t height = 0;
  uint64_t generations = 0;
  std::vector<double> seconds;  // one entry per repeat
  uint64_t cells_computed = 0;  // per repeat, halo recomputation included
  // Live cells after the warm-up and every repeat: (repeats + 1) x
  // generations from the seed's soup, which is the same cells for every
  // kernel, so kernels can be checked against each other.
  uint64_t final_population = 0;
  double median_seconds() const;
  // width * height * generations / median_seconds().
  double cell_updates_per_second() const;
};
GpuKernelTiming time_torus_kernel(int64_t width, int64_t height, uint64_t generations, int repeats,
                                  uint64_t seed, TorusKernel kernel = TorusKernel::kMultiStep);

}  // namespace gol::gpu
