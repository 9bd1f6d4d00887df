// make_tile_pool: the CUDA pool where this build has CUDA and a device is
// usable, the CPU stand-in everywhere else.
#include "gpu/tile_pool.h"

#include "gpu/gpu_backend.h"
#include "gpu/tile_pool_region.h"

namespace gol::gpu {

std::unique_ptr<TilePool> make_tile_pool([[maybe_unused]] bool force_standin) {
#ifdef GOL_HAVE_CUDA
  if (!force_standin && device_available()) return make_cuda_tile_pool();
#endif
  return make_standin_tile_pool();
}

}  // namespace gol::gpu
