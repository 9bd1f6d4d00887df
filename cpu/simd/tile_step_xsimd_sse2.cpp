// The xsimd tile kernel for SSE2 (every x86-64 CPU; no extra compiler flags); called only where the
// CPU has it.
#define GOL_SIMD_NAMESPACE xsimd_sse2
#include "cpu/simd/tile_step_backends.h"
#include "cpu/simd/tile_step_xsimd-inl.h"

namespace gol::cpu {

void step_tiles_xsimd_sse2(const TileBatch& batch, const Rule& rule) {
  xsimd_sse2::StepTilesXsimd<xsimd::sse2>(batch, rule);
}

}  // namespace gol::cpu
