// step_tiles: hands a batch to the chosen SIMD library's kernel.
#include "cpu/simd/tile_step.h"

#include "cpu/simd/tile_step_backends.h"

namespace gol::cpu {

namespace {

void step_batch(const TileBatch& batch, const Rule& rule, SimdLibrary library) {
  if (library == SimdLibrary::kXsimd) {
    step_tiles_xsimd(batch, rule);
  } else {
    step_tiles_highway(batch, rule);
  }
}

void step_batch_on_target(const TileBatch& batch, const Rule& rule, size_t target_index,
                          SimdLibrary library) {
  if (library == SimdLibrary::kXsimd) {
    step_tiles_xsimd_target(batch, rule, target_index);
  } else {
    step_tiles_highway_target(batch, rule, target_index);
  }
}

}  // namespace

void step_tiles(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule,
                SimdLibrary library) {
  step_batch({in, count, out, nullptr, nullptr}, rule, library);
}

void step_tiles_over(const TileNeighbourhood* in, Tile* const* targets, TileChange* changes,
                     size_t count, const Rule& rule, SimdLibrary library, const BandMask* bands) {
  step_batch({in, count, nullptr, targets, changes, bands}, rule, library);
}

void step_tile_row_over(const TileRowRun& run, Tile* const* targets, TileChange* changes,
                        size_t count, const Rule& rule, SimdLibrary library) {
  TileBatch batch{nullptr, count, nullptr, targets, changes};
  batch.row_run = &run;
  step_batch(batch, rule, library);
}

void step_tiles_noting_edges(const TileNeighbourhood* in, Tile* const* targets, TileEdges* edges,
                             size_t count, const Rule& rule, SimdLibrary library) {
  step_batch({in, count, nullptr, targets, nullptr, nullptr, edges}, rule, library);
}

void step_tiles_twice(const TileNeighbourhood* in, Tile* const* targets, TileChange* changes,
                      Tile* after, TileChange* after_changes, size_t count, const Rule& rule,
                      SimdLibrary library) {
  step_batch({in, count, nullptr, targets, changes, nullptr, nullptr, after, after_changes}, rule,
             library);
}

std::string simd_target_name(SimdLibrary library) {
  return library == SimdLibrary::kXsimd ? xsimd_target_name() : highway_target_name();
}

std::vector<std::string> simd_targets_supported(SimdLibrary library) {
  return library == SimdLibrary::kXsimd ? xsimd_targets_supported() : highway_targets_supported();
}

std::vector<std::string> simd_targets_compiled(SimdLibrary library) {
  return library == SimdLibrary::kXsimd ? xsimd_targets_compiled() : highway_targets_compiled();
}

void step_tiles_on_target(const TileNeighbourhood* in, Tile* out, size_t count, const Rule& rule,
                          size_t target_index, SimdLibrary library) {
  step_batch_on_target({in, count, out, nullptr, nullptr}, rule, target_index, library);
}

void step_tiles_over_on_target(const TileNeighbourhood* in, Tile* const* targets,
                               TileChange* changes, size_t count, const Rule& rule,
                               const BandMask* bands, size_t target_index, SimdLibrary library) {
  step_batch_on_target({in, count, nullptr, targets, changes, bands}, rule, target_index, library);
}

void step_tile_row_over_on_target(const TileRowRun& run, Tile* const* targets, TileChange* changes,
                                  size_t count, const Rule& rule, size_t target_index,
                                  SimdLibrary library) {
  TileBatch batch{nullptr, count, nullptr, targets, changes};
  batch.row_run = &run;
  step_batch_on_target(batch, rule, target_index, library);
}

void step_tiles_noting_edges_on_target(const TileNeighbourhood* in, Tile* const* targets,
                                       TileEdges* edges, size_t count, const Rule& rule,
                                       size_t target_index, SimdLibrary library) {
  step_batch_on_target({in, count, nullptr, targets, nullptr, nullptr, edges}, rule, target_index,
                       library);
}

void step_tiles_twice_on_target(const TileNeighbourhood* in, Tile* const* targets,
                                TileChange* changes, Tile* after, TileChange* after_changes,
                                size_t count, const Rule& rule, size_t target_index,
                                SimdLibrary library) {
  step_batch_on_target(
      {in, count, nullptr, targets, changes, nullptr, nullptr, after, after_changes}, rule,
      target_index, library);
}

}  // namespace gol::cpu
