// Strips: a plane world cut along tile columns, each strip stepped alone by
// a thread for epochs of up to 63 generations between exchanges of the
// columns beside the cuts. Against the same world stepped whole on one
// thread: growth in every direction across the cuts, a glider stream
// crossing them diagonally, debris and gliders of soups, two to seven
// strips, several segments; and the grid's side of it (what a strip keeps,
// makes and lists).
#include <gtest/gtest.h>

#include <vector>

#include "engine/grid_stepper.h"
#include "patterns/catalogue.h"
#include "patterns/soup.h"
#include "sparse/sparse_grid.h"

namespace gol {
namespace {

// Steps `cells` whole on one thread and in strips on `threads`, comparing
// the cells at each checkpoint; returns the segments stepped in strips.
uint64_t expect_strips_match_whole(const CellSet& cells, int threads,
                                   const std::vector<uint64_t>& checkpoints) {
  sparse::SparseGrid whole;
  sparse::SparseGrid cut;
  whole.load(cells, Topology::plane(), false);
  cut.load(cells, Topology::plane(), false);
  GridStepper one(1, cpu::SimdLibrary::kHighway);
  GridStepper many(threads, cpu::SimdLibrary::kHighway);
  many.allow_strips(true);
  uint64_t done = 0;
  for (uint64_t checkpoint : checkpoints) {
    one.step(whole, Rule::conway(), checkpoint - done);
    many.step(cut, Rule::conway(), checkpoint - done);
    EXPECT_EQ(cut.generation(), checkpoint);
    EXPECT_EQ(cut.population(), whole.population()) << "generation " << checkpoint;
    EXPECT_TRUE(cut.cells() == whole.cells()) << "generation " << checkpoint;
    EXPECT_TRUE(cut.all_cpu()) << "ghosts left after the merge";
    done = checkpoint;
  }
  return many.strip_segments();
}

TEST(Strips, SpacefillerGrowingAcrossTheCutsMatchesTheWholeWorld) {
  const CellSet spacefiller = patterns::builtin_pattern("spacefiller").cells;
  EXPECT_GT(expect_strips_match_whole(spacefiller, 2, {1500, 2600, 5000}), 1u);
  EXPECT_GT(expect_strips_match_whole(spacefiller, 3, {4100}), 0u);
}

TEST(Strips, BreederAndPufferMatchTheWholeWorld) {
  EXPECT_GT(expect_strips_match_whole(patterns::builtin_pattern("breeder").cells, 2, {3000, 4500}),
            0u);
  // The puffer train's trail is narrow: cut or not, by how active it is.
  expect_strips_match_whole(patterns::builtin_pattern("puffer-train").cells, 4, {2000, 6100});
}

TEST(Strips, SoupsDebrisAndGlidersMatchTheWholeWorld) {
  // 32 x 30 tiles of soup: up to seven strips, the middle ones with a
  // ghost column on each side, and gliders leaving across the cuts.
  const CellSet soup = patterns::make_soup({2048, 1920, 0.4, 77}).translated(-900, 300);
  EXPECT_GT(expect_strips_match_whole(soup, 7, {300, 700, 1333}), 0u);
  EXPECT_GT(expect_strips_match_whole(soup, 2, {1000}), 0u);
}

TEST(Strips, ShortStepsAndSmallWorldsAreSteppedWhole) {
  const CellSet soup = patterns::make_soup({2048, 1920, 0.4, 78});
  // Calls of fewer generations than a cut is worth.
  EXPECT_EQ(expect_strips_match_whole(soup, 2, {100, 200, 255}), 0u);
  // Too few active tiles for two strips.
  EXPECT_EQ(expect_strips_match_whole(patterns::make_soup({64, 64, 0.5, 79}), 2, {1000}), 0u);
}

TEST(Strips, OnlyWhenAllowed) {
  sparse::SparseGrid grid;
  grid.load(patterns::make_soup({2048, 1920, 0.4, 80}), Topology::plane(), false);
  GridStepper stepper(2, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), 600);
  EXPECT_EQ(stepper.strip_segments(), 0u);
}

// A strip of columns [0, 1]: ghosts at -1 and 2, frozen copies at -2 and
// 3, nothing made beyond.
TEST(StripGrid, KeepsItsColumnsGhostsAndFrozenCopiesAndMakesNothingBeyond) {
  CellSet cells;
  // A blinker in each of columns -4 .. 5 at tile row 0, and a glider in
  // column 1 heading east (and south).
  for (int64_t tx = -4; tx <= 5; ++tx) {
    for (int64_t dx = 0; dx < 3; ++dx) cells.set(tx * kTileSize + 30 + dx, 30);
  }
  for (auto [x, y] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    cells.set(kTileSize + 40 + x, 100 + y);
  }
  // The world moved into the strip as a cut moves it: what lies beyond the
  // frozen columns is not made.
  sparse::SparseGrid world;
  world.load(cells, Topology::plane(), false);
  sparse::SparseGrid grid;
  grid.start_empty_plane(world.generation(), 0, 1);
  world.drain([&](TileCoord coord, const Tile& current, const Tile& previous, sparse::TileOwner,
                  BandMask bands) { grid.place_tile(coord, current, previous, bands); });
  grid.replan();
  const auto role = [](int64_t tx) {
    if (tx == -1 || tx == 2) return sparse::TileOwner::kGhost;
    if (tx == -2 || tx == 3) return sparse::TileOwner::kGpu;
    return sparse::TileOwner::kCpu;
  };
  for (int32_t slot : grid.map().held()) {
    const int64_t tx = grid.map().coord(slot).tx;
    EXPECT_GE(tx, -2);
    EXPECT_LE(tx, 3);
    EXPECT_EQ(grid.owner(slot), role(tx)) << "column " << tx;
  }
  EXPECT_FALSE(grid.all_cpu());
  for (int64_t tx : {-2, -1, 0, 2, 3}) EXPECT_EQ(grid.edge_column(tx).size(), 1u) << tx;
  EXPECT_EQ(grid.edge_column(1).size(), 2u);  // the blinker's tile and the glider's
  // The glider crosses the ghost column (its tiles made as it comes) into
  // the frozen one, where it stands still; nothing is made beyond.
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), 600);
  for (int32_t slot : grid.map().held()) {
    const int64_t tx = grid.map().coord(slot).tx;
    EXPECT_GE(tx, -2);
    EXPECT_LE(tx, 3);
    EXPECT_EQ(grid.owner(slot), role(tx)) << "column " << tx;
  }
  EXPECT_GE(grid.edge_column(2).size(), 2u);
  EXPECT_TRUE(grid.beyond_edge().empty());
  // Moved back as a merge moves it (its own tiles only), all are owned.
  sparse::SparseGrid merged;
  merged.start_empty_plane(grid.generation());
  grid.drain([&](TileCoord coord, const Tile& current, const Tile& previous,
                 sparse::TileOwner owner, BandMask bands) {
    if (owner == sparse::TileOwner::kCpu) merged.place_tile(coord, current, previous, bands);
  });
  EXPECT_TRUE(merged.all_cpu());
  EXPECT_GT(merged.tile_count(), 0u);
}

}  // namespace
}  // namespace gol
