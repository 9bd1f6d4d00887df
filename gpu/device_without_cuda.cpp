// Device discovery in builds without CUDA: never a device, and the reason
// says how the binary was built.
#include "gpu/gpu_backend.h"

namespace gol::gpu {

bool device_available() { return false; }

std::string device_unavailable_reason() {
  return "this gol was built without CUDA (GOL_CUDA=OFF, or no nvcc when it was configured)";
}

}  // namespace gol::gpu
