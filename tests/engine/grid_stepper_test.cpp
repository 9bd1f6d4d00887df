// GridStepper's own counts: the cells each generation computes, from the
// bands each active tile planned to step; and the tile pairs that tiles
// freed all over the world give back.
#include "engine/grid_stepper.h"

#include <gtest/gtest.h>

#include "cpu/reference/reference_backends.h"
#include "patterns/soup.h"
#include "sparse/sparse_grid.h"
#include "tests/engine/grid_checks.h"

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

// A field of tiles, every other column of them holding a still block and
// the others a lone cell, which dies: half the tiles are freed, one in
// every two of each block of pairs, and the pairs left are packed so that
// the blocks go back (sparse::TileMap::release_empty_slabs). A glider then
// runs into the field, stepping beside tiles whose pairs moved.
TEST(GridStepper, TilesFreedAllOverGiveTheirPairsBack) {
  constexpr int64_t kColumns = 48;
  constexpr int64_t kRows = 32;
  CellSet cells;
  for (int64_t ty = 0; ty < kRows; ++ty) {
    for (int64_t tx = 0; tx < kColumns; ++tx) {
      const int64_t x = tx * kTileSize + 30;
      const int64_t y = ty * kTileSize + 30;
      cells.set(x, y);
      if (tx % 2 == 0) {
        cells.set(x + 1, y);
        cells.set(x, y + 1);
        cells.set(x + 1, y + 1);
      }
    }
  }
  // Moving south-east, it meets the block in tile (2, 2) after about 80
  // generations.
  for (auto [dx, dy] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    cells.set(2 * kTileSize + 10 + dx, 2 * kTileSize + 10 + dy);
  }
  sparse::SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  const size_t full = grid.map().pair_blocks_mapped();
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, Rule::conway(), Topology::plane());
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  uint64_t done = 0;
  for (uint64_t checkpoint : {8, 60, 140}) {
    stepper.step(grid, Rule::conway(), checkpoint - done);
    oracle->step(checkpoint - done);
    done = checkpoint;
    EXPECT_TRUE(grid_checks::matches_reference(grid, *oracle, checkpoint));
    if (checkpoint == 8) {
      EXPECT_LT(grid.tile_count(), static_cast<size_t>(kColumns * kRows) / 2 + 8);
      // The pairs in use fill whole blocks but one, and one emptied block
      // is kept for the tiles made next.
      const size_t needed = (grid.tile_count() + sparse::TilePairPool::kBlockPairs) /
                            sparse::TilePairPool::kBlockPairs;
      EXPECT_LT(needed + 1, full);
      EXPECT_LE(grid.map().pair_blocks_mapped(), needed + 1);
    }
  }
}

}  // namespace
}  // namespace gol
