// The band run in builds without CUDA or without NCCL: never available,
// and every entry point says why.
#include "engine/core/error.h"
#include "gpu/gpu_backend.h"
#include "gpu/nccl_bands.h"

namespace gol::gpu {

std::string nccl_bands_unavailable_reason(int) {
  if (!device_available()) return "no usable GPU: " + device_unavailable_reason();
  return nccl_library_unavailable_reason();
}

std::string nccl_library_unavailable_reason() {
  return "this gol was built without NCCL (no libnccl and nccl.h in the CUDA toolkit when it was "
         "configured)";
}

std::unique_ptr<GpuBands> make_nccl_bands(const CellSet&, const Rule&, const Topology&, int gpus) {
  throw RuntimeError(nccl_bands_unavailable_reason(gpus));
}

std::unique_ptr<GpuBands> make_nccl_bands_soup(const Rule&, const Topology&, int gpus, uint64_t) {
  throw RuntimeError(nccl_bands_unavailable_reason(gpus));
}

}  // namespace gol::gpu
