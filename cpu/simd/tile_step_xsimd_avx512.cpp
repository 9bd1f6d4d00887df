// The xsimd tile kernel for AVX-512 BW (compiled with -mavx512f/bw/dq/cd by cpu/CMakeLists.txt);
// called only where the CPU has it.
#define GOL_SIMD_NAMESPACE xsimd_avx512
#include "cpu/simd/tile_step_backends.h"
#include "cpu/simd/tile_step_xsimd-inl.h"

namespace gol::cpu {

void step_tiles_xsimd_avx512(const TileBatch& batch, const Rule& rule) {
  xsimd_avx512::StepTilesXsimd<xsimd::avx512bw>(batch, rule);
}

}  // namespace gol::cpu
