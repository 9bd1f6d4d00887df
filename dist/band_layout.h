// How a torus is cut into one horizontal band per rank, and how many
// generations a band may run between halo exchanges.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/row_bands.h"

namespace gol::dist {

// Rows of halo above and below each band: the band runs this many
// generations between exchanges, since after j generations only the rows
// within j of the strip's edges can differ from the true world (the light
// cone). A band plus both halos must be whole tiles, so 2 * kHaloRows is a
// multiple of 64; 32 is the least such halo, which keeps the work stepped
// twice (the halos) smallest while an exchange still serves 32 generations.
inline constexpr int64_t kHaloRows = 32;

using Band = RowBand;

// split_into_row_bands() for `ranks` MPI ranks. Throws UsageError when
// there are fewer tile rows than ranks.
std::vector<Band> split_into_bands(int64_t height, int ranks);

}  // namespace gol::dist
