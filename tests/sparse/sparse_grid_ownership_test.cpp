// SparseGrid's ownership for the hybrid scheduler: ghosts, GPU tiles and
// imports, checked directly and through epochs in which the bit reference
// plays the GPU (it steps the whole world exactly; the grid imports the
// region's boundary from it, as the hybrid backend does from the pool).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "patterns/soup.h"
#include "sparse/sparse_grid.h"
#include "tests/sparse/sparse_test_support.h"

namespace gol::sparse {
namespace {

// Tile rectangle [tx, tx + width) x [ty, ty + height), wrapped on a torus.
struct Region {
  int64_t tx, ty, width, height;
};

std::vector<TileCoord> region_coords(const Region& region, const Topology& topology) {
  std::vector<TileCoord> coords;
  for (int64_t dy = 0; dy < region.height; ++dy) {
    for (int64_t dx = 0; dx < region.width; ++dx) {
      TileCoord at{region.tx + dx, region.ty + dy};
      if (topology.is_torus()) {
        at = {wrap(at.tx, topology.width / kTileSize), wrap(at.ty, topology.height / kTileSize)};
      }
      coords.push_back(at);
    }
  }
  return coords;
}

bool on_region_edge(const Region& region, int64_t index) {
  const int64_t dx = index % region.width;
  const int64_t dy = index / region.width;
  return dx == 0 || dy == 0 || dx == region.width - 1 || dy == region.height - 1;
}

// Hands the region to the "GPU": its edge tiles become ghosts.
void give_to_gpu(SparseGrid& grid, const Region& region, const Topology& topology) {
  const std::vector<TileCoord> coords = region_coords(region, topology);
  for (size_t i = 0; i < coords.size(); ++i) {
    const int32_t slot = grid.ensure_tile(coords[i]);
    ASSERT_NE(slot, TileMap::kAbsent);
    grid.set_owner(slot, on_region_edge(region, static_cast<int64_t>(i)) ? TileOwner::kGhost
                                                                         : TileOwner::kGpu);
  }
  grid.replan();
}

Tile tile_of_cells(const CellSet& cells, TileCoord coord) {
  const Tile* tile = cells.find_tile(coord);
  return tile ? *tile : Tile{};
}

// Imports the region's tiles (all of them, or only the ghosts) at t and t-1
// from the oracle's cells, and optionally hands them back to the CPU.
void import_region(SparseGrid& grid, const Region& region, const Topology& topology,
                   const CellSet& current, const CellSet& previous, bool ghosts_only,
                   bool return_to_cpu) {
  const std::vector<TileCoord> coords = region_coords(region, topology);
  std::vector<int32_t> imported;
  for (size_t i = 0; i < coords.size(); ++i) {
    if (ghosts_only && !on_region_edge(region, static_cast<int64_t>(i))) continue;
    const int32_t slot = grid.map().find(coords[i]);
    if (grid.import_tile(slot, tile_of_cells(current, coords[i]),
                         tile_of_cells(previous, coords[i]))) {
      imported.push_back(slot);
    }
    if (return_to_cpu) grid.set_owner(slot, TileOwner::kCpu);
  }
  // Imports alone need only the planning near them, as the hybrid's epochs do.
  if (return_to_cpu) {
    grid.replan();
  } else {
    grid.replan_near(imported);
  }
}

// The CPU's tiles with the region's tiles taken from `truth`: equal to
// `truth` exactly when every CPU tile is right and holds nothing extra.
CellSet cpu_view_with_region(const SparseGrid& grid, const Region& region, const Topology& topology,
                             const CellSet& truth) {
  CellSet view = grid.cpu_cells();
  for (const TileCoord& coord : region_coords(region, topology)) {
    view.put_tile(coord, tile_of_cells(truth, coord));
  }
  return view;
}

// Runs `epochs` epochs of `k` generations with `region` on the "GPU", then
// hands it back and runs on; the CPU's tiles must match the reference at
// every epoch end.
void expect_exact_through_epochs(const CellSet& cells, const Rule& rule, const Topology& topology,
                                 const Region& region, uint64_t k, int epochs) {
  SparseGrid grid;
  grid.load(cells, topology, topology.is_torus() && rule.births_on_zero());
  give_to_gpu(grid, region, topology);
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, rule, topology);
  CellSet current = topology.is_torus() ? cells.wrapped(topology.width, topology.height) : cells;
  CellSet previous;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    test::run(grid, rule, k);
    if (k > 1) oracle->step(k - 1);
    previous = k > 1 ? oracle->cells() : current;
    oracle->step(1);
    current = oracle->cells();
    import_region(grid, region, topology, current, previous, true, false);
    ASSERT_TRUE(cpu_view_with_region(grid, region, topology, current) == current)
        << "epoch " << epoch << " of " << k;
  }
  import_region(grid, region, topology, current, previous, false, true);
  ASSERT_TRUE(grid.cells() == current);
  test::run(grid, rule, 3 * k + 5);
  oracle->step(3 * k + 5);
  ASSERT_TRUE(grid.cells() == oracle->cells()) << "after the region's return";
}

TEST(SparseGridOwnership, APlaneSoupAroundAGpuRegionStaysExact) {
  const CellSet cells = patterns::make_soup({420, 380, 0.45, 21}).translated(-40, -30);
  for (uint64_t k : {1, 2, 7, 32}) {
    SCOPED_TRACE(k);
    expect_exact_through_epochs(cells, Rule::conway(), Topology::plane(), {1, 1, 4, 5}, k,
                                k == 32 ? 8 : 12);
  }
  // Regions one and two tiles across: every tile is a ghost.
  expect_exact_through_epochs(cells, Rule::conway(), Topology::plane(), {2, 0, 1, 3}, 9, 10);
  expect_exact_through_epochs(cells, Rule::conway(), Topology::plane(), {2, 1, 2, 2}, 16, 10);
}

TEST(SparseGridOwnership, ATorusSoupAroundAWrappingGpuRegionStaysExact) {
  const Topology torus = Topology::torus(512, 384);
  const CellSet cells = patterns::make_soup({512, 384, 0.5, 22});
  // Tiles 6, 7 and 0 across, 4, 5, 0 and 1 down: the region wraps both ways.
  expect_exact_through_epochs(cells, Rule::conway(), torus, {6, 4, 3, 4}, 32, 6);
  expect_exact_through_epochs(cells, parse_rule("B36/S23").rule, torus, {2, 1, 4, 3}, 5, 10);
  expect_exact_through_epochs(cells, parse_rule("B0123478/S34678").rule, torus, {1, 1, 5, 3}, 8, 6);
}

TEST(SparseGridOwnership, GlidersCrossARegionBoundaryBothWays) {
  // Four gliders flying outwards through the region's corners and edges,
  // two more flying in from outside.
  CellSet cells = test::gliders_flying_apart(140, 150, 140, 150);
  cells = test::merged(cells, test::glider(-100, -100));                        // inbound
  cells = test::merged(cells, test::picture({"OOO", "O..", ".O."}, 420, 400));  // inbound
  expect_exact_through_epochs(cells, Rule::conway(), Topology::plane(), {1, 1, 3, 3}, 32, 30);
  expect_exact_through_epochs(cells, Rule::conway(), Topology::plane(), {1, 1, 3, 3}, 3, 250);
}

// A 3x3 block of tiles, each holding a block (still life) in its middle:
// every tile falls asleep after two generations.
void load_sleeping_blocks(SparseGrid& grid) {
  CellSet cells;
  for (int64_t ty = 0; ty < 3; ++ty) {
    for (int64_t tx = 0; tx < 3; ++tx) {
      cells = test::merged(cells, test::picture({"OO", "OO"}, 64 * tx + 30, 64 * ty + 30));
    }
  }
  grid.load(cells, Topology::plane(), false);
  test::run(grid, Rule::conway(), 3);
}

std::vector<TileCoord> active_coords(const SparseGrid& grid) {
  std::vector<TileCoord> coords;
  for (int32_t slot : grid.active()) coords.push_back(grid.map().coord(slot));
  std::sort(coords.begin(), coords.end());
  return coords;
}

TEST(SparseGridOwnership, PlanningNearImportsFindsWhatAFullReplanFinds) {
  const Topology plane = Topology::plane();
  const CellSet soup = patterns::make_soup({9 * kTileSize, 9 * kTileSize, 0.4, 21});
  const Region region{2, 2, 5, 5};
  const Rule rule = Rule::conway();
  auto oracle = cpu::make_bit_backend();
  oracle->load(soup, rule, plane);
  SparseGrid near;
  SparseGrid full;
  for (SparseGrid* grid : {&near, &full}) {
    grid->load(soup, plane, false);
    give_to_gpu(*grid, region, plane);
  }
  for (int epoch = 0; epoch < 6; ++epoch) {
    oracle->step(3);
    const CellSet previous = oracle->cells();
    oracle->step(1);
    const CellSet current = oracle->cells();
    std::vector<int32_t> imported;
    for (SparseGrid* grid : {&near, &full}) {
      test::run(*grid, rule, 4);
      const std::vector<TileCoord> coords = region_coords(region, plane);
      for (size_t i = 0; i < coords.size(); ++i) {
        if (!on_region_edge(region, static_cast<int64_t>(i))) continue;
        const int32_t slot = grid->map().find(coords[i]);
        const bool changed = grid->import_tile(slot, tile_of_cells(current, coords[i]),
                                               tile_of_cells(previous, coords[i]));
        if (changed && grid == &near) imported.push_back(slot);
      }
    }
    near.replan_near(imported);
    full.replan();
    ASSERT_FALSE(imported.empty()) << "epoch " << epoch << ": the soup reaches the ghosts";
    ASSERT_EQ(std::vector<int32_t>(near.active().begin(), near.active().end()),
              std::vector<int32_t>(full.active().begin(), full.active().end()))
        << "epoch " << epoch;
    ASSERT_EQ(std::vector<BandMask>(near.active_bands().begin(), near.active_bands().end()),
              std::vector<BandMask>(full.active_bands().begin(), full.active_bands().end()))
        << "epoch " << epoch;
  }
}

TEST(SparseGridOwnership, ImportWakesTheTileAndOnlyNeighboursFacingAChangedBorder) {
  SparseGrid grid;
  load_sleeping_blocks(grid);
  ASSERT_TRUE(grid.active().empty());
  const int32_t centre = grid.map().find({1, 1});
  Tile tile = grid.map().tile(0, centre);
  tile.set(63, 63, true);  // the south-east corner: E, SE and S see it
  EXPECT_TRUE(grid.import_tile(centre, tile, tile));
  grid.replan();
  EXPECT_EQ(active_coords(grid), (std::vector<TileCoord>{{1, 1}, {2, 1}, {1, 2}, {2, 2}}));

  EXPECT_FALSE(grid.import_tile(centre, tile, tile));  // the same again: nothing to do

  // A quiet tile coming back as it was wakes nothing.
  SparseGrid quiet;
  load_sleeping_blocks(quiet);
  const int parity = static_cast<int>(quiet.generation() & 1);
  EXPECT_FALSE(quiet.import_tile(centre, quiet.map().tile(parity, centre),
                                 quiet.map().tile(parity ^ 1, centre)));
  quiet.replan();
  EXPECT_TRUE(quiet.active().empty());

  SparseGrid again;
  load_sleeping_blocks(again);
  Tile west = again.map().tile(0, centre);
  west.set(0, 20, true);  // the west edge at generation t-1 only
  again.import_tile(centre, again.map().tile(0, centre), west);
  again.replan();
  EXPECT_EQ(active_coords(again), (std::vector<TileCoord>{{0, 1}, {1, 1}}));
}

TEST(SparseGridOwnership, AnEmptyTileComingBackEmptyChangesNothingAndALiveOneImports) {
  SparseGrid grid;
  grid.load(test::picture({"OO", "OO"}, 10, 10), Topology::plane(), false);
  const int32_t slot = grid.ensure_tile({5, 5});
  EXPECT_FALSE(grid.import_tile(slot, Tile{}, Tile{}));
  Tile one;
  one.set(3, 3, true);
  EXPECT_TRUE(grid.import_tile(slot, Tile{}, one));  // live at t-1 only
  EXPECT_FALSE(grid.import_tile(slot, Tile{}, one));
  EXPECT_TRUE(grid.import_tile(slot, Tile{}, Tile{}));  // and dead again
  EXPECT_EQ(grid.population(), 4u);
}

TEST(SparseGridOwnership, ImportCreatesAbsentNeighboursFacingLiveBorders) {
  SparseGrid grid;
  grid.load(test::picture({"OO", "OO"}, 10, 10), Topology::plane(), false);
  const int32_t slot = grid.map().find({0, 0});
  Tile tile;
  tile.set(0, 0, true);  // the north-west corner: N, NW and W must exist
  grid.import_tile(slot, tile, Tile{});
  grid.replan();
  for (TileCoord coord : {TileCoord{0, -1}, TileCoord{-1, -1}, TileCoord{-1, 0}}) {
    EXPECT_NE(grid.map().find(coord), TileMap::kAbsent) << coord.tx << "," << coord.ty;
  }
  EXPECT_EQ(grid.map().find({1, 0}), TileMap::kAbsent);
  EXPECT_EQ(grid.map().find({1, 1}), TileMap::kAbsent);
}

bool is_active(const SparseGrid& grid, TileCoord coord) {
  const std::vector<TileCoord> active = active_coords(grid);
  return std::find(active.begin(), active.end(), coord) != active.end();
}

TEST(SparseGridOwnership, GhostsSleepAndWakeLikeCpuTilesAndGpuTilesNeverStep) {
  SparseGrid grid;
  load_sleeping_blocks(grid);
  const int32_t ghost = grid.map().find({0, 1});
  const int32_t gpu = grid.map().find({1, 1});
  grid.set_owner(ghost, TileOwner::kGhost);
  grid.set_owner(gpu, TileOwner::kGpu);
  grid.replan();
  EXPECT_TRUE(grid.active().empty());
  // An imported blinker wakes the ghost; it steps until it repeats with
  // period 2, then sleeps, and keeps alternating.
  Tile blinker = grid.map().tile(0, ghost);
  for (int y = 10; y <= 12; ++y) blinker.set(30, y, true);
  grid.import_tile(ghost, blinker, blinker);
  grid.replan();
  EXPECT_EQ(active_coords(grid), (std::vector<TileCoord>{{0, 1}}));
  test::step_generation(grid, Rule::conway(), test::TileStepper::kHighway);
  EXPECT_TRUE(is_active(grid, {0, 1}));
  test::step_generation(grid, Rule::conway(), test::TileStepper::kHighway);
  EXPECT_FALSE(is_active(grid, {0, 1}));
  test::run(grid, Rule::conway(), 5);
  const int parity = static_cast<int>(grid.generation() & 1);
  EXPECT_TRUE(grid.map().tile(parity, ghost).get(29, 11));  // horizontal at odd counts
  EXPECT_FALSE(grid.map().tile(parity, ghost).get(30, 10));
  // A change on the ghost's border towards the GPU tile wakes the ghost's
  // neighbours; the GPU tile among them stays unstepped.
  Tile edge = grid.map().tile(parity, ghost);
  for (int y = 40; y <= 42; ++y) edge.set(63, y, true);
  grid.import_tile(ghost, edge, grid.map().tile(parity ^ 1, ghost));
  grid.replan();
  for (int generation = 0; generation < 4; ++generation) {
    EXPECT_FALSE(is_active(grid, {1, 1}));
    test::step_generation(grid, Rule::conway(), test::TileStepper::kHighway);
  }
  // Handed back, the tile wakes.
  grid.set_owner(gpu, TileOwner::kCpu);
  grid.replan();
  EXPECT_TRUE(is_active(grid, {1, 1}));
}

TEST(SparseGridOwnership, EmptyGhostsAreNeverFreed) {
  SparseGrid grid;
  grid.load(test::picture({"OO", "OO"}, 10, 10), Topology::plane(), false);
  const int32_t ghost = grid.ensure_tile({5, 5});
  grid.set_owner(ghost, TileOwner::kGhost);
  grid.replan();
  test::run(grid, Rule::conway(), 10);
  EXPECT_EQ(grid.map().find({5, 5}), ghost);
  EXPECT_EQ(grid.owner(ghost), TileOwner::kGhost);
  EXPECT_TRUE(grid.active().empty());
  // As a CPU tile it is freed after one step.
  grid.set_owner(ghost, TileOwner::kCpu);
  grid.replan();
  test::run(grid, Rule::conway(), 1);
  EXPECT_EQ(grid.map().find({5, 5}), TileMap::kAbsent);
}

TEST(SparseGridOwnership, CpuCellsLeaveOutTheGpusTiles) {
  CellSet cells = test::picture({"OO", "OO"}, 10, 10);
  cells = test::merged(cells, test::picture({"OO", "OO"}, 80, 10));
  SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  grid.set_owner(grid.map().find({1, 0}), TileOwner::kGhost);
  grid.replan();
  EXPECT_EQ(grid.population(), 8u);
  EXPECT_EQ(grid.cpu_population(), 4u);
  EXPECT_TRUE(grid.cpu_cells() == test::picture({"OO", "OO"}, 10, 10));
}

}  // namespace
}  // namespace gol::sparse
