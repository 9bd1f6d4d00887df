#include "gpu/band_plan.h"

#include <string>

#include "engine/core/error.h"

namespace gol::gpu {

std::vector<GpuBand> split_into_gpu_bands(int64_t height, int bands) {
  const int64_t tile_rows = tile_rows_of(height);
  if (bands < 1 || tile_rows < bands) {
    throw UsageError("--gpus " + std::to_string(bands) + ": a torus " + std::to_string(height) +
                     " rows high has " + std::to_string(tile_rows) +
                     " rows of 64-cell tiles, so it cannot be split into " + std::to_string(bands) +
                     " bands of at least 64 rows; expected --gpus " + std::to_string(tile_rows) +
                     " or fewer, or a taller torus");
  }
  return split_into_row_bands(height, bands);
}

// A window reaching kBandHaloRows beyond the rows it keeps on each side.
RoundWindows round_windows(int64_t band_rows) {
  constexpr int64_t h = kBandHaloRows;
  const auto around = [](int64_t keep_from, int64_t keep_to) {
    return StripWindow{keep_from - h, keep_to - keep_from + 2 * h, keep_from, keep_to};
  };
  return {around(h, 2 * h), around(band_rows, band_rows + h), around(2 * h, band_rows)};
}

RoundSchedule schedule_rounds(uint64_t generations) {
  const auto halo = static_cast<uint64_t>(kBandHaloRows);
  return {generations / halo, static_cast<int>(generations % halo)};
}

}  // namespace gol::gpu
