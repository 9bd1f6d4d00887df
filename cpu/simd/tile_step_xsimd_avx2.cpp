// The xsimd tile kernel for AVX2 (compiled with -mavx2 by cpu/CMakeLists.txt); called only where
// the CPU has it.
#define GOL_SIMD_NAMESPACE xsimd_avx2
#include "cpu/simd/tile_step_backends.h"
#include "cpu/simd/tile_step_xsimd-inl.h"

namespace gol::cpu {

void step_tiles_xsimd_avx2(const TileBatch& batch, const Rule& rule) {
  xsimd_avx2::StepTilesXsimd<xsimd::avx2>(batch, rule);
}

}  // namespace gol::cpu
