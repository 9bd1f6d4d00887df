// step_tiles: hands a batch to the chosen SIMD library's kernel.
#include "cpu/simd/tile_step.h"

#include "cpu/simd/tile_step_backends.h"

namespace gol::cpu {

void step_tiles(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule,
                SimdLibrary library) {
  if (library == SimdLibrary::kXsimd) {
    step_tiles_xsimd(in, out, count, rule);
  } else {
    step_tiles_highway(in, out, count, rule);
  }
}

std::string simd_target_name(SimdLibrary library) {
  return library == SimdLibrary::kXsimd ? xsimd_target_name() : highway_target_name();
}

std::vector<std::string> simd_targets_supported(SimdLibrary library) {
  return library == SimdLibrary::kXsimd ? xsimd_targets_supported() : highway_targets_supported();
}

void step_tiles_on_target(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule,
                          size_t target_index, SimdLibrary library) {
  if (library == SimdLibrary::kXsimd) {
    step_tiles_xsimd_target(in, out, count, rule, target_index);
  } else {
    step_tiles_highway_target(in, out, count, rule, target_index);
  }
}

}  // namespace gol::cpu
