// What one thread of the multi-step kernel holds, for the Field types that
// move its rows between device memory and registers (gpu/multistep_kernel.cu
// and gpu/tile_field.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gol::gpu {

// Wraps (torus) or flags as outside (dead edge, -1) one coordinate; the
// division runs only for coordinates outside [0, extent).
__device__ __forceinline__ int64_t resolve(int64_t index, int64_t extent, bool torus) {
  if (index >= 0 && index < extent) return index;
  if (!torus) return -1;
  const int64_t r = index % extent;
  return r < 0 ? r + extent : r;
}

// Lane `lane` holds word `word` of rows [first_row, first_row + rows) of a
// field of width_words x height, in register cells[i] for row first_row + i.
// The coordinates may lie outside the field (the halo): resolve() maps them.
// Rows i in [store_from, store_to) are exact after the launch and are
// stored; the words of lanes 0 and 31 never are. first_row, store_from and
// store_to are multiples of 4 (whole 32-byte sectors of a pool tile).
struct ThreadRows {
  int lane;
  int64_t first_row;
  int64_t word;
  int64_t width_words;
  int64_t height;
  bool torus;
  int store_from;
  int store_to;
};

}  // namespace gol::gpu
