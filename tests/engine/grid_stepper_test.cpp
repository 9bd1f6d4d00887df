// GridStepper's own counts: the cells each generation computes, from the
// bands each active tile planned to step.
#include "engine/grid_stepper.h"

#include <gtest/gtest.h>

#include "patterns/soup.h"
#include "sparse/sparse_grid.h"

namespace gol {
namespace {

TEST(GridStepper, CountsTheCellsOfEveryActiveTilesPlannedBands) {
  sparse::SparseGrid grid;
  grid.load(patterns::make_soup({700, 650, 0.35, 91}), Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  bool some_partial = false;
  for (int generation = 0; generation < 60; ++generation) {
    uint64_t bands = 0;
    for (BandMask mask : grid.active_bands()) bands += static_cast<uint64_t>(band_count(mask));
    ASSERT_GT(grid.active().size(), 8u) << "enough tiles for whole words of masks";
    some_partial = some_partial || bands != 8 * grid.active().size();
    const uint64_t before = stepper.cells_computed();
    stepper.step(grid, Rule::conway(), 1);
    ASSERT_EQ(stepper.cells_computed() - before, bands * kBandRows * kTileSize)
        << "generation " << generation;
  }
  EXPECT_TRUE(some_partial) << "some tiles stepped only some of their bands";
}

}  // namespace
}  // namespace gol
