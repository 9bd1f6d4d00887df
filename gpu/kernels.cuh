// Host-side launchers for the kernels (multi-step, the two baselines and
// the field utilities). Each checks its launch with GOL_CUDA_CHECK.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "engine/core/rule.h"

namespace gol::gpu {

// What lies beyond a field's edge: the field itself (torus) or dead cells
// (a plane region; exact while live cells keep clear of the border band).
enum class Edge { kTorus, kDead };

// A packed field on the device (layout in gpu_backend.h).
struct PackedFieldView {
  int64_t width_words = 0;
  int64_t height = 0;
  int64_t word_count() const { return width_words * height; }
};

// Advances src by `generations` (1..kMultiStepGenerations) into dst in one
// launch. Returns the cell updates the launch computed.
uint64_t launch_multistep(const uint32_t* src, uint32_t* dst, PackedFieldView field, Edge edge,
                          int generations, const Rule& rule, cudaStream_t stream);
// The same on a tile-pool region seen as a `view`-sized field through its
// tile table (gpu/tile_field.cuh says where results go).
struct TiledField;
uint64_t launch_multistep(const TiledField& field, PackedFieldView view, Edge edge, int generations,
                          const Rule& rule, cudaStream_t stream);
// The same on a window of a band's strip (gpu/band_plan.h): `window` rows
// from `src`, columns wrapping, dead above and below; stores into `dst`
// (the same rows of the other strip buffer) only the window's rows
// [keep_from, keep_to).
uint64_t launch_multistep_window(const uint32_t* src, uint32_t* dst, PackedFieldView window,
                                 int64_t keep_from, int64_t keep_to, int generations,
                                 const Rule& rule, cudaStream_t stream);
// The block shape launch_multistep() picks for such a field, in words.
std::string describe_multistep(PackedFieldView field, const Rule& rule);
// One generation, one thread a word.
uint64_t launch_bitstep(const uint32_t* src, uint32_t* dst, PackedFieldView field, Edge edge,
                        const Rule& rule, cudaStream_t stream);
// One generation of a one-byte-a-cell torus, one thread a cell.
uint64_t launch_naive(const uint8_t* src, uint8_t* dst, int64_t width, int64_t height,
                      const Rule& rule, cudaStream_t stream);

// Live cells of a packed field (synchronises the stream).
uint64_t count_live_packed(const uint32_t* words, int64_t word_count, cudaStream_t stream);
// Live cells of a byte field (synchronises the stream).
uint64_t count_live_bytes(const uint8_t* cells, int64_t cell_count, cudaStream_t stream);
// Whether any live cell lies within kPlaneBandCells of the field's edge
// (synchronises the stream).
bool border_band_live(const uint32_t* words, PackedFieldView field, cudaStream_t stream);
// A pseudo-random soup, each cell alive with probability 1/2: words[i] is
// word first_index + i of the soup `seed` makes, so the bands of a torus
// filled one by one hold the soup of the whole torus filled at once.
void fill_random_packed(uint32_t* words, int64_t word_count, uint64_t seed, cudaStream_t stream,
                        int64_t first_index = 0);
// The same soup density, one byte (0 or 1) a cell.
void fill_random_bytes(uint8_t* cells, int64_t cell_count, uint64_t seed, cudaStream_t stream);

}  // namespace gol::gpu
