// The one CUDA error check: every runtime call and launch goes through
// GOL_CUDA_CHECK, which records file and line and turns a failure into
// gol::RuntimeError at the host boundary (kernels themselves never throw).
// Define GOL_CUDA_DEBUG_SYNC to synchronise after each checked launch.
#pragma once

#include <cuda_runtime.h>

namespace gol::gpu {

// Throws RuntimeError("CUDA error at FILE:LINE in EXPR: message").
void throw_cuda_error(cudaError_t error, const char* expression, const char* file, int line);

inline void check_cuda(cudaError_t error, const char* expression, const char* file, int line) {
  if (error != cudaSuccess) throw_cuda_error(error, expression, file, line);
}

}  // namespace gol::gpu

#define GOL_CUDA_CHECK(call) ::gol::gpu::check_cuda((call), #call, __FILE__, __LINE__)

#ifdef GOL_CUDA_DEBUG_SYNC
#define GOL_CUDA_CHECK_LAUNCH()              \
  do {                                       \
    GOL_CUDA_CHECK(cudaGetLastError());      \
    GOL_CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
#else
#define GOL_CUDA_CHECK_LAUNCH() GOL_CUDA_CHECK(cudaGetLastError())
#endif
