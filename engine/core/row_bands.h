// A torus cut into horizontal bands of whole tiles, one for each worker
// that steps a part of it: the split the MPI ranks (dist/) and the NCCL
// bands on several GPUs (gpu/nccl_bands.h) share.
#pragma once

#include <cstdint>
#include <vector>

namespace gol {

// The rows [first_row, first_row + rows) of a torus.
struct RowBand {
  int64_t first_row = 0;
  int64_t rows = 0;
};

// The rows of 64-cell tiles a torus `height` rows high has: the most bands
// it can be cut into.
int64_t tile_rows_of(int64_t height);

// Splits a torus `height` rows high into `bands` bands of whole tiles, the
// first `tile_rows_of(height) % bands` of them one tile taller than the
// rest. Needs 1 <= bands <= tile_rows_of(height) (checked: callers say in
// their own words why a split is refused).
std::vector<RowBand> split_into_row_bands(int64_t height, int bands);

}  // namespace gol
