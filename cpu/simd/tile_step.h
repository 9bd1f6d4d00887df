// The SIMD adder-tree step over whole 64x64 tiles: one generation of a batch
// of tiles, each read with its eight neighbours. No vector types here; the
// kernel is written once (tile_step-inl.h) over a small vector-ops policy
// and instantiated for Highway (runtime dispatch) and xsimd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/rule.h"
#include "engine/core/tile.h"
#include "engine/core/tile_change.h"

namespace gol::cpu {

// A tile and its neighbours: at[dy + 1][dx + 1] is the tile at offset
// (dx, dy); at[1][1] is the tile itself. Never null: absent neighbours point
// at an all-zero tile.
struct TileNeighbourhood {
  const Tile* at[3][3];
};

// Consecutive tiles of a row of a grid whose tiles are listed row by row:
// tile i's neighbourhood is north[i..i+2], middle[i..i+2] and south[i..i+2]
// (west to east), so each array starts at the column before the first tile.
// A caller that keeps such lists (a torus's rows) hands the kernel three
// pointers a batch rather than nine a tile.
struct TileRowRun {
  const Tile* const* north;
  const Tile* const* middle;
  const Tile* const* south;
};

enum class SimdLibrary { kHighway, kXsimd };

// Writes the next generation of in[i] into out[i] for i < count. `out` must
// not alias any input tile. Any rule without B0 on the plane, any rule on a
// torus (the caller supplies wrapped neighbours). Thread-safe; no allocation.
void step_tiles(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule,
                SimdLibrary library);

// Tiles per call the engine's steppers hand the kernel: enough to amortise
// its dispatch, few enough that the batch's neighbourhoods and new rows are
// still in cache when the caller commits them.
inline constexpr size_t kBatchTiles = 32;

// step_tiles writing in[i]'s next generation over *targets[i] (which holds an
// older generation, e.g. t-1 of a two-buffer pool) and noting in changes[i]
// how it differs from what it overwrote (noted while the new rows are in
// registers, so the caller never reads the tile again). No target may alias an input tile
// or another target. With `changes` null, every band is stepped and
// nothing noted (the plain store step_tiles does, to scattered tiles).
// With `bands`, only the bands bands[i] of tile i are stepped; the rows of
// the others are left as they are, which is right where *targets[i] already
// holds their next generation (the sparse world's generation t-1 of a band
// whose inputs at t equal those at t-2).
void step_tiles_over(const TileNeighbourhood* in, Tile* const* targets, TileChange* changes,
                     size_t count, const Rule& rule, SimdLibrary library,
                     const BandMask* bands = nullptr);

// step_tiles_over of `count` consecutive tiles of a row run, every band
// stepped: targets[i] takes the next generation of the tile whose
// neighbourhood the run gives at i, with changes[i] noted where `changes`
// is not null.
void step_tile_row_over(const TileRowRun& run, Tile* const* targets, TileChange* changes,
                        size_t count, const Rule& rule, SimdLibrary library);

// step_tiles_over stepping every band and noting, in place of a change
// record, what the neighbours of each new tile read of it (edges[i]): the
// cheaper record for a caller that steps every tile each generation and
// needs to know only where live cells reach a tile's border.
void step_tiles_noting_edges(const TileNeighbourhood* in, Tile* const* targets, TileEdges* edges,
                             size_t count, const Rule& rule, SimdLibrary library);

// Two generations of each tile at once, from in[i] at generation t alone:
// t+1 written over *targets[i] (its t-1) with changes[i] noting how it
// differs from that, and t+2 into after[i] with after_changes[i] noting how
// it differs from t (in[i].at[1][1]). Every band is stepped. No target or
// after[i] may alias an input tile or each other. The alternative to a
// generation at a time that `gol bench --cpu-kernels` times: a sparse
// world's planning and committing would run once for two generations, but
// the step costs about twice as much a generation (bench/RESULTS.md), so
// the engine steps one at a time.
void step_tiles_twice(const TileNeighbourhood* in, Tile* const* targets, TileChange* changes,
                      Tile* after, TileChange* after_changes, size_t count, const Rule& rule,
                      SimdLibrary library);

// The instruction set the Highway kernel dispatches to on this machine
// ("AVX3", "AVX2", "SSE4", "SCALAR", ...), or xsimd's architecture name.
std::string simd_target_name(SimdLibrary library);

// The instruction sets a library's kernel was compiled for that this CPU
// can run, best first: Highway's targets ("AVX3", "AVX2", "SSE4", ...,
// "SCALAR"), xsimd's builds ("avx512bw", "avx2", "sse2"). For tests that
// check every one, not only the one dispatch picks.
std::vector<std::string> simd_targets_supported(SimdLibrary library = SimdLibrary::kHighway);
// Every instruction set a library's kernel was compiled for, whether or not
// this CPU runs it, best first: what `gol --version` reports.
std::vector<std::string> simd_targets_compiled(SimdLibrary library = SimdLibrary::kHighway);
// step_tiles with the kernel of simd_targets_supported(library)[target_index].
void step_tiles_on_target(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule,
                          size_t target_index, SimdLibrary library = SimdLibrary::kHighway);
// step_tiles_over with the kernel of simd_targets_supported(library)[target_index].
void step_tiles_over_on_target(const TileNeighbourhood* in, Tile* const* targets,
                               TileChange* changes, size_t count, const Rule& rule,
                               const BandMask* bands, size_t target_index,
                               SimdLibrary library = SimdLibrary::kHighway);

// step_tiles_twice with the kernel of simd_targets_supported(library)[target_index].
void step_tiles_twice_on_target(const TileNeighbourhood* in, Tile* const* targets,
                                TileChange* changes, Tile* after, TileChange* after_changes,
                                size_t count, const Rule& rule, size_t target_index,
                                SimdLibrary library = SimdLibrary::kHighway);

// step_tile_row_over with the kernel of simd_targets_supported(library)[target_index].
void step_tile_row_over_on_target(const TileRowRun& run, Tile* const* targets, TileChange* changes,
                                  size_t count, const Rule& rule, size_t target_index,
                                  SimdLibrary library = SimdLibrary::kHighway);

// step_tiles_noting_edges with the kernel of simd_targets_supported(library)[target_index].
void step_tiles_noting_edges_on_target(const TileNeighbourhood* in, Tile* const* targets,
                                       TileEdges* edges, size_t count, const Rule& rule,
                                       size_t target_index,
                                       SimdLibrary library = SimdLibrary::kHighway);

}  // namespace gol::cpu
