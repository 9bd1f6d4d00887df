// How a torus is stepped as horizontal bands on several GPUs (the NCCL
// path, gpu/nccl_bands.h): the split into bands, the rows of a band's strip
// each launch of a round reads and keeps, and the rounds between halo
// exchanges. Plain C++, so it is tested without a GPU.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/row_bands.h"

namespace gol::gpu {

// A band's halo: this many rows of the band above and below it are kept
// beside it, and a round between two exchanges runs at most this many
// generations (the light cone: after g generations only the rows within g
// of a window's edge can differ from the true world). One multi-step launch
// runs up to 16 generations (kMultiStepGenerations), so a round is one
// launch per window.
inline constexpr int64_t kBandHaloRows = 16;

using GpuBand = RowBand;

// split_into_row_bands() for `bands` GPUs. Throws UsageError when there are
// fewer tile rows than bands.
std::vector<GpuBand> split_into_gpu_bands(int64_t height, int bands);

// A band lives on its device as a strip: kBandHaloRows rows of halo, the
// band's rows, kBandHaloRows rows of halo. A window is the rows
// [first_row, first_row + rows) of the strip that one launch steps as a
// field of its own (dead above and below); it stores only the strip rows
// [keep_from, keep_to), which are exact after up to kBandHaloRows
// generations.
struct StripWindow {
  int64_t first_row = 0;
  int64_t rows = 0;
  int64_t keep_from = 0;
  int64_t keep_to = 0;
};

// The three windows of a round. The edges keep the band's first and last
// kBandHaloRows rows, which are the neighbours' next halos; the interior
// keeps the rest of the band. Together they keep every band row once.
struct RoundWindows {
  StripWindow top_edge;
  StripWindow bottom_edge;
  StripWindow interior;
};
// `band_rows`: a multiple of 64 (so the interior keeps at least 32 rows).
RoundWindows round_windows(int64_t band_rows);

// Generations of each round for a run of `generations`: full rounds of
// kBandHaloRows, then one shorter round for the rest (0: none).
struct RoundSchedule {
  uint64_t full_rounds = 0;
  int last_round = 0;
  uint64_t rounds() const { return full_rounds + (last_round > 0 ? 1 : 0); }
};
RoundSchedule schedule_rounds(uint64_t generations);

}  // namespace gol::gpu
