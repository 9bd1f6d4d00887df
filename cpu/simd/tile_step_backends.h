// The back ends behind step_tiles: one entry point per SIMD library, so
// tile_step.cpp dispatches without seeing either library's headers.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cpu/simd/tile_step.h"

namespace gol::cpu {

// A batch as step_tiles and step_tiles_over take it: results either to
// out[i] (targets null), or over *targets[i], with changes[i] noted only in
// the bands bands[i] (every band where bands is null) where changes is not
// null, and plainly in every band where it is.
struct TileBatch {
  const TileNeighbourhood* in;
  size_t count;
  Tile* out;
  Tile* const* targets;
  TileChange* changes;
  const BandMask* bands = nullptr;
  TileEdges* edges = nullptr;  // with `targets` and no `changes`: see step_tiles_noting_edges
  // With `targets` and `changes`: two generations (see step_tiles_twice).
  Tile* after = nullptr;
  TileChange* after_changes = nullptr;
  // In place of `in`, with `targets` and no `bands`, `edges` or `after`:
  // the neighbourhoods of a row's tiles (see step_tile_row_over).
  const TileRowRun* row_run = nullptr;
};

// Columns 0 and 63, the ones a tile's west and east neighbours read.
inline constexpr uint64_t kEdgeColumns = uint64_t{1} | uint64_t{1} << (kTileSize - 1);

// Each library: the dispatched kernel, its instruction set's name, the
// sets this CPU runs (best first), the sets compiled in, and the kernel of
// one of those this CPU runs.
void step_tiles_highway(const TileBatch& batch, const Rule& rule);
std::string highway_target_name();
std::vector<std::string> highway_targets_supported();
std::vector<std::string> highway_targets_compiled();
void step_tiles_highway_target(const TileBatch& batch, const Rule& rule, size_t target_index);

void step_tiles_xsimd(const TileBatch& batch, const Rule& rule);
std::string xsimd_target_name();
std::vector<std::string> xsimd_targets_supported();
std::vector<std::string> xsimd_targets_compiled();
void step_tiles_xsimd_target(const TileBatch& batch, const Rule& rule, size_t target_index);

// xsimd's per-instruction-set builds; each needs a CPU with that set.
void step_tiles_xsimd_sse2(const TileBatch& batch, const Rule& rule);
void step_tiles_xsimd_avx2(const TileBatch& batch, const Rule& rule);
void step_tiles_xsimd_avx512(const TileBatch& batch, const Rule& rule);

}  // namespace gol::cpu
