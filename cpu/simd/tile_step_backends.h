// The back ends behind step_tiles: one entry point per SIMD library, so
// tile_step.cpp dispatches without seeing either library's headers.
#pragma once

#include <cstddef>
#include <string>

#include "cpu/simd/tile_step.h"

namespace gol::cpu {

void step_tiles_highway(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule);
std::string highway_target_name();

void step_tiles_xsimd(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule);
std::string xsimd_target_name();

}  // namespace gol::cpu
