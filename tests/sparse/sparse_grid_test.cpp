// SparseGrid against the bit reference: soups on plane and torus, other
// rules, and the sleep/wake/create/free cases that could go subtly wrong.
#include "sparse/sparse_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "patterns/catalogue.h"
#include "patterns/soup.h"
#include "tests/sparse/sparse_test_support.h"

namespace gol::sparse {
namespace {

using test::TileStepper;

// Runs the grid and the oracle side by side and compares them at each
// checkpoint (generation counts, increasing).
void expect_matches_reference(const CellSet& cells, const Rule& rule, const Topology& topology,
                              const std::vector<uint64_t>& checkpoints,
                              TileStepper stepper = TileStepper::kBands) {
  SparseGrid grid;
  grid.load(cells, topology, topology.is_torus() && rule.births_on_zero());
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, rule, topology);
  uint64_t done = 0;
  for (uint64_t checkpoint : checkpoints) {
    test::run(grid, rule, checkpoint - done, stepper);
    oracle->step(checkpoint - done);
    done = checkpoint;
    ASSERT_EQ(grid.generation(), checkpoint);
    ASSERT_EQ(grid.population(), oracle->population()) << "generation " << checkpoint;
    ASSERT_TRUE(grid.cells() == oracle->cells()) << "generation " << checkpoint;
  }
}

CellSet soup(int64_t width, int64_t height, double density, uint64_t seed) {
  return patterns::make_soup({width, height, density, seed});
}

TEST(SparseGrid, PlaneSoupsMatchTheReference) {
  for (uint64_t seed : {1, 2}) {
    SCOPED_TRACE(seed);
    expect_matches_reference(soup(200, 150, 0.4, seed).translated(-90, -70), Rule::conway(),
                             Topology::plane(), {1, 2, 3, 10, 33, 100, 257, 400});
  }
}

TEST(SparseGrid, ScalarAndSimdTileStepsAgreeThroughTheGrid) {
  expect_matches_reference(soup(100, 100, 0.5, 9), Rule::conway(), Topology::plane(), {1, 5, 20},
                           TileStepper::kScalar);
  expect_matches_reference(soup(100, 100, 0.5, 9), Rule::conway(), Topology::plane(),
                           {1, 5, 20, 121}, TileStepper::kXsimd);
  expect_matches_reference(soup(200, 150, 0.5, 9), Rule::conway(), Topology::plane(),
                           {1, 5, 20, 121, 300}, TileStepper::kHighway);
  expect_matches_reference(soup(200, 150, 0.5, 9), Rule::conway(), Topology::plane(),
                           {1, 5, 20, 121, 300}, TileStepper::kBandsXsimd);
  expect_matches_reference(soup(200, 150, 0.5, 9), Rule::conway(), Topology::plane(),
                           {1, 2, 20, 121, 300}, TileStepper::kWrittenOver);
  expect_matches_reference(soup(128, 192, 0.5, 9), Rule::conway(), Topology::torus(128, 192),
                           {1, 2, 33, 150}, TileStepper::kWrittenOver);
}

// Loading from cells the grid may take apart gives the same world, on the
// plane and on a torus, and leaves the cells empty on the plane; the
// grid's bounding box is its cells' all along.
TEST(SparseGrid, ALoadThatTakesTheCellsApartGivesTheSameWorld) {
  const Rule rule = Rule::conway();
  for (const Topology& topology : {Topology::plane(), Topology::torus(256, 192)}) {
    SCOPED_TRACE(topology.to_string());
    const CellSet cells = soup(256, 192, 0.45, 14).translated(-70, -30).wrapped(256, 192);
    SparseGrid copied;
    copied.load(cells, topology, false);
    CellSet given = cells;
    SparseGrid taken;
    taken.load(std::move(given), topology, false);
    if (!topology.is_torus()) {
      EXPECT_TRUE(given.tiles().empty());
    }
    for (int generation = 0; generation <= 300; generation += 100) {
      ASSERT_TRUE(std::ranges::equal(copied.active(), taken.active()));
      ASSERT_TRUE(copied.cells() == taken.cells()) << "generation " << generation;
      EXPECT_EQ(taken.cpu_bbox(), taken.cells().bbox()) << "generation " << generation;
      test::run(copied, rule, 100);
      test::run(taken, rule, 100);
    }
  }
  EXPECT_FALSE(SparseGrid().cpu_bbox());
}

TEST(SparseGrid, TorusSoupsMatchTheReference) {
  expect_matches_reference(soup(192, 128, 0.5, 4), Rule::conway(), Topology::torus(192, 128),
                           {1, 2, 9, 64, 301});
  // One and two tiles across: a tile is its own (or its twin's) neighbour.
  expect_matches_reference(soup(64, 64, 0.5, 5), Rule::conway(), Topology::torus(64, 64),
                           {1, 4, 51, 200});
  expect_matches_reference(soup(128, 64, 0.5, 6), Rule::conway(), Topology::torus(128, 64),
                           {3, 80, 199});
}

TEST(SparseGrid, OtherRulesMatchTheReference) {
  const Rule highlife = parse_rule("B36/S23").rule;
  expect_matches_reference(soup(150, 150, 0.45, 7), highlife, Topology::plane(), {1, 30, 151});
  // Seeds explodes, so births keep creating tiles at every edge.
  const Rule seeds = parse_rule("B2/S").rule;
  expect_matches_reference(soup(20, 20, 0.3, 8), seeds, Topology::plane(), {1, 2, 15, 40});
  const Rule day_and_night = parse_rule("B3678/S34678").rule;
  expect_matches_reference(soup(128, 128, 0.5, 9), day_and_night, Topology::torus(128, 128),
                           {1, 50, 99});
}

TEST(SparseGrid, BirthOnZeroRulesRunOnATorusWithEveryTileAwake) {
  const Rule b0 = parse_rule("B0123478/S34678").rule;
  expect_matches_reference(soup(128, 128, 0.5, 10), b0, Topology::torus(128, 128),
                           {1, 2, 3, 20, 45});
  const Rule flicker = parse_rule("B0/S").rule;  // an empty torus fills, then empties
  expect_matches_reference(CellSet{}, flicker, Topology::torus(128, 64), {1, 2, 7});
}

// Blinkers inside tiles, across a vertical edge, a horizontal edge and a
// tile corner, far enough apart not to interact.
CellSet blinker_field() {
  CellSet cells;
  cells = test::merged(cells, test::picture({"OOO"}, 10, 10));
  cells = test::merged(cells, test::picture({"OOO"}, 63, 30));           // across x = 64
  cells = test::merged(cells, test::picture({"O", "O", "O"}, 100, 63));  // across y = 64
  cells = test::merged(cells, test::picture({"OOO"}, 127, 127));         // across a corner
  cells = test::merged(cells, test::picture({"O", "O", "O"}, 190, 10));
  return cells;
}

TEST(SparseGrid, ABlinkerFieldFallsAsleepAndKeepsAlternating) {
  const CellSet start = blinker_field();
  SparseGrid grid;
  grid.load(start, Topology::plane(), false);
  const Rule rule = Rule::conway();
  test::run(grid, rule, 4);
  EXPECT_TRUE(grid.active().empty());
  const CellSet odd = test::reference_run(start, rule, Topology::plane(), 1);
  for (uint64_t generation = 5; generation < 12; ++generation) {
    EXPECT_EQ(test::step_generation(grid, rule, TileStepper::kHighway), 0u);
    EXPECT_EQ(grid.population(), start.population());
    EXPECT_TRUE(grid.cells() == (generation % 2 == 0 ? start : odd)) << generation;
  }
  grid.advance_asleep(1000001);
  EXPECT_EQ(grid.generation(), 1000012u);
  EXPECT_TRUE(grid.cells() == start);
  grid.advance_asleep(1);
  EXPECT_TRUE(grid.cells() == odd);
}

TEST(SparseGrid, AGliderHittingASleepingBlockWakesIt) {
  const CellSet block = test::picture({"OO", "OO"}, 150, 150);
  const CellSet cells = test::merged(block, test::glider(10, 10));
  SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  const Rule rule = Rule::conway();
  test::run(grid, rule, 8);
  const int32_t block_slot = grid.map().find({2, 2});
  ASSERT_NE(block_slot, TileMap::kAbsent);
  // The block's tile has slept since the glider started far away.
  for (int32_t slot : grid.active()) EXPECT_NE(slot, block_slot);
  expect_matches_reference(cells, rule, Topology::plane(),
                           {50, 400, 520, 530, 545, 560, 600, 777, 1000, 1001});
}

// The spacefiller's agar sleeps in a few shared pairs. A hole cut deep
// inside it spreads into tiles that share, which take pairs of their own
// as they wake; the world matches the reference throughout.
TEST(SparseGrid, AnAgarSharesItsPairsAndTheTilesWokenTakeTheirOwn) {
  const Rule rule = Rule::conway();
  SparseGrid grid;
  grid.load(patterns::builtin_pattern("spacefiller").cells, Topology::plane(), false);
  test::run(grid, rule, 700);
  const TileMap& map = grid.map();
  ASSERT_GT(map.shared_slots(), 40u);
  EXPECT_LE(map.shared_pairs() * 4, map.shared_slots());
  EXPECT_TRUE(grid.cells() == test::reference_run(patterns::builtin_pattern("spacefiller").cells,
                                                  rule, Topology::plane(), 700));
  // The shared tile nearest the centre, with every neighbour shared too.
  int32_t deep = TileMap::kAbsent;
  for (int32_t slot : map.held()) {
    const auto& around = map.neighbours(slot);
    const bool inside =
        map.is_shared(slot) && std::all_of(around.begin(), around.end(), [&](int32_t other) {
          return other != TileMap::kEmptySlot && map.is_shared(other);
        });
    const auto distance = [&](int32_t at) {
      return std::abs(map.coord(at).tx) + std::abs(map.coord(at).ty);
    };
    if (inside && (deep == TileMap::kAbsent || distance(slot) < distance(deep))) deep = slot;
  }
  ASSERT_NE(deep, TileMap::kAbsent);
  const int parity = static_cast<int>(grid.generation() & 1);
  Tile flipped = map.tile(parity, deep);
  for (int y = 26; y < 38; ++y) {
    for (int x = 26; x < 38; ++x) flipped.set(x, y, false);
  }
  // Both generations flipped, as a load starts (a still tile's history).
  ASSERT_TRUE(grid.import_tile(deep, flipped, flipped));
  grid.replan();
  EXPECT_FALSE(map.is_shared(deep));
  const CellSet disturbed = grid.cells();
  const auto around = map.neighbours(deep);
  bool woken_while_shared = false;
  uint64_t done = 0;
  for (uint64_t checkpoint : {1, 2, 5, 20, 60, 150}) {
    for (; done < checkpoint; ++done) {
      test::step_generation(grid, rule, TileStepper::kBands);
      woken_while_shared |= std::any_of(around.begin(), around.end(),
                                        [&](int32_t slot) { return !map.is_shared(slot); });
    }
    ASSERT_TRUE(grid.cells() == test::reference_run(disturbed, rule, Topology::plane(), done))
        << "generation " << done << " after the flip";
  }
  EXPECT_TRUE(woken_while_shared);
}

// A world moved tile by tile (as a cut or a moved cut moves it) keeps its
// agar in shared pairs: each dense tile placed asleep shares as one
// stepped to sleep does, and a tile placed awake keeps its own pair.
TEST(SparseGrid, DenseTilesPlacedAsleepShareTheirPairs) {
  const Rule rule = Rule::conway();
  const CellSet start = patterns::builtin_pattern("spacefiller").cells;
  SparseGrid world;
  world.load(start, Topology::plane(), false);
  test::run(world, rule, 700);
  SparseGrid moved;
  moved.start_empty_plane(world.generation());
  world.drain([&](TileCoord coord, const Tile& current, const Tile& previous, TileOwner,
                  BandMask bands) { moved.place_tile(coord, current, previous, bands); });
  moved.replan();
  const TileMap& map = moved.map();
  ASSERT_GT(map.shared_slots(), 40u);
  EXPECT_LE(map.shared_pairs() * 4, map.shared_slots());
  ASSERT_FALSE(moved.active().empty());
  for (int32_t slot : moved.active()) EXPECT_FALSE(map.is_shared(slot));
  for (uint64_t more : {1, 50}) {
    test::run(moved, rule, more);
    ASSERT_TRUE(moved.cells() ==
                test::reference_run(start, rule, Topology::plane(), moved.generation()))
        << "generation " << moved.generation();
  }
}

// Asked to, planning lists the tiles to step in slot order (their records
// lie in that order) once they are many, through the spacefiller's growth,
// an import and the generations after it; and the world steps as it does
// listed in the order its tiles were woken.
TEST(SparseGrid, ListsManyTilesToStepInSlotOrder) {
  const Rule rule = Rule::conway();
  const CellSet start = patterns::builtin_pattern("spacefiller").cells;
  SparseGrid woken;
  SparseGrid by_slot;
  woken.load(start, Topology::plane(), false);
  by_slot.load(start, Topology::plane(), false);
  by_slot.list_by_slot(true);
  size_t ordered = 0;
  // Checked where the list planned from held kSlotOrderTiles or more.
  const auto expect_slot_order = [&](size_t planned_from, const char* when) {
    const std::span<const int32_t> active = by_slot.active();
    if (planned_from < SparseGrid::kSlotOrderTiles) return;
    ++ordered;
    ASSERT_TRUE(std::is_sorted(active.begin(), active.end())) << when;
    ASSERT_EQ(std::adjacent_find(active.begin(), active.end()), active.end()) << when;
  };
  const auto step_both = [&](int generations, const char* when) {
    for (int generation = 0; generation < generations; ++generation) {
      test::step_generation(woken, rule, TileStepper::kBands);
      const size_t planned_from = by_slot.active().size();
      test::step_generation(by_slot, rule, TileStepper::kBands);
      expect_slot_order(planned_from, when);
    }
  };
  step_both(4500, "after a generation");
  ASSERT_GT(ordered, 100u) << "the list never grew long enough";
  // A cell flipped in both generations of one tile, as a load starts (a
  // still tile's history), in both worlds.
  const TileCoord coord = by_slot.map().coord(by_slot.active()[by_slot.active().size() / 2]);
  const int parity = static_cast<int>(by_slot.generation() & 1);
  for (SparseGrid* grid : {&woken, &by_slot}) {
    const int32_t slot = grid->map().find(coord);
    ASSERT_NE(slot, TileMap::kAbsent);
    Tile changed = grid->map().tile(parity, slot);
    changed.set(31, 31, !changed.get(31, 31));
    ASSERT_TRUE(grid->import_tile(slot, changed, changed));
    const std::vector<int32_t> imported = {slot};
    grid->replan_near(imported);
  }
  expect_slot_order(by_slot.active().size(), "after an import");
  step_both(60, "after the import's generations");
  EXPECT_EQ(woken.population(), by_slot.population());
  EXPECT_TRUE(woken.cells() == by_slot.cells());
}

TEST(SparseGrid, GlidersEscapingIntoEmptySpaceCreateAndFreeTiles) {
  const CellSet cells = test::gliders_flying_apart(-10, 0, -10, 0);
  SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  const Rule rule = Rule::conway();
  size_t most_tiles = 0;
  for (int generation = 0; generation < 1200; ++generation) {
    test::step_generation(grid, rule, TileStepper::kHighway);
    most_tiles = std::max(most_tiles, grid.tile_count());
  }
  // Each glider needs at most four tiles around it plus a trail being
  // freed; without freeing the count would grow to hundreds.
  EXPECT_LE(most_tiles, 4u * 9u);
  EXPECT_LE(grid.tile_count(), 4u * 6u);
  EXPECT_EQ(grid.population(), 20u);
  EXPECT_TRUE(grid.cells() == test::reference_run(cells, rule, Topology::plane(), 1200));
  EXPECT_EQ(grid.map().find({0, 0}), TileMap::kAbsent);  // the start is empty and freed
}

// Four gliders far apart keep creating and freeing tiles, so their new
// tiles take slots in turn; the active list keeps each glider's tiles
// together all the same (what lets each thread step a region of its own).
TEST(SparseGrid, TheActiveListKeepsEachRegionsTilesTogether) {
  const CellSet cells = test::gliders_flying_apart(-1000, 1000, -1000, 1000);
  SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  const Rule rule = Rule::conway();
  auto quadrant = [&](int32_t slot) {
    const TileCoord at = grid.map().coord(slot);
    return (at.tx < 0 ? 1 : 0) + (at.ty < 0 ? 2 : 0);
  };
  for (int generation = 0; generation < 1200; ++generation) {
    test::step_generation(grid, rule, TileStepper::kHighway);
    int runs = 0;
    std::vector<bool> seen(4, false);
    for (size_t i = 0; i < grid.active().size(); ++i) {
      const int here = quadrant(grid.active()[i]);
      if (i == 0 || here != quadrant(grid.active()[i - 1])) ++runs;
      seen[here] = true;
    }
    ASSERT_EQ(runs, std::count(seen.begin(), seen.end(), true)) << "generation " << generation + 1;
  }
  EXPECT_TRUE(grid.cells() == test::reference_run(cells, rule, Topology::plane(), 1200));
}

// Gliders flying out in all four directions through debris that dies at
// once: the debris tiles fill several slabs and are freed in the first
// generations, the gliders keep creating and freeing tiles across the slab
// boundaries, and the emptied slabs are released.
TEST(SparseGrid, TilesCreatedAndFreedAcrossSlabBoundariesMatchTheReference) {
  // Gliders heading south-east, south-west, north-east and north-west.
  const std::initializer_list<const char*> kGliders[4] = {
      {".O.", "..O", "OOO"}, {".O.", "O..", "OOO"}, {"OOO", "..O", ".O."}, {"OOO", "O..", ".O."}};
  CellSet cells;
  constexpr int64_t kSide = 32;  // 1024 tiles of debris, over four slabs; 60 gliders
  for (int64_t ty = 0; ty < kSide; ++ty) {
    for (int64_t tx = 0; tx < kSide; ++tx) {
      cells.set(64 * tx + 30, 64 * ty + 30);  // a lone cell dies at once
      if ((5 * tx + 3 * ty) % 17 != 0) continue;
      const CellSet flying = test::picture(kGliders[(3 * tx + ty) % 4], 64 * tx + 10, 64 * ty + 10);
      cells = test::merged(cells, flying);
    }
  }
  SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  const size_t slabs_at_start = grid.map().slabs_mapped();
  EXPECT_GE(slabs_at_start, 4u);
  expect_matches_reference(cells, Rule::conway(), Topology::plane(),
                           {1, 2, 3, 4, 5, 17, 64, 130, 300});
  test::run(grid, Rule::conway(), 300);
  EXPECT_LT(grid.map().slabs_mapped(), slabs_at_start);
  EXPECT_TRUE(grid.cells() == test::reference_run(cells, Rule::conway(), Topology::plane(), 300));
}

// A glider inside a tile steps only the bands around it (its own band, and
// the next one up or down only when it changes a band's edge row), and
// crossing band and tile edges every generation it stays exact.
TEST(SparseGrid, AGliderStepsOnlyTheBandsAroundIt) {
  const CellSet start = test::glider(20, 3);
  SparseGrid grid;
  grid.load(start, Topology::plane(), false);
  const Rule rule = Rule::conway();
  test::run(grid, rule, 2);
  int most_bands = 0;
  int all_bands = 0;
  for (int generation = 2; generation < 200; ++generation) {
    ASSERT_EQ(grid.active().size(), grid.active_bands().size());
    int bands = 0;
    for (BandMask mask : grid.active_bands()) bands += band_count(mask);
    most_bands = std::max(most_bands, bands);
    all_bands += bands;
    test::step_generation(grid, rule, TileStepper::kBands);
    ASSERT_TRUE(grid.cells() == test::reference_run(start, rule, Topology::plane(), generation + 1))
        << generation + 1;
  }
  // Three bands (rows within one of the glider's) in each of at most four
  // tiles at a corner, never whole tiles.
  EXPECT_LE(most_bands, 4 * 3);
  // Most generations its changes stay inside one band: were every changed
  // band's neighbours stepped too, it would take three bands or more.
  EXPECT_LE(all_bands, 2 * 198);
}

TEST(SparseGrid, AnEastNeighbourWakesOnlyBesideTheRowsItsFacingColumnChanged) {
  // Gliders in every band of tile (0, 0), away from its east edge, and one
  // that crosses that edge; tile (1, 0) holds a block so it exists, asleep.
  CellSet start = test::picture({"OO", "OO"}, 64 + 40, 60);
  for (int64_t y = 0; y < 56; y += 8) start = test::merged(start, test::glider(10, y));
  start = test::merged(start, test::glider(56, 28));
  SparseGrid grid;
  grid.load(start, Topology::plane(), false);
  const Rule rule = Rule::conway();
  test::run(grid, rule, 4);
  const int32_t east = grid.map().find({1, 0});
  ASSERT_NE(east, TileMap::kAbsent);
  int woken = 0;
  for (int generation = 4; generation < 60; ++generation) {
    const auto active = grid.active();
    const auto found = std::find(active.begin(), active.end(), east);
    if (found != active.end()) {
      const BandMask bands = grid.active_bands()[found - active.begin()];
      // The crossing glider's rows (28 to 45 by generation 60) and a row
      // either side: bands 3 to 5, never the bands of the other gliders.
      EXPECT_EQ(bands & ~BandMask{0x38}, 0) << "generation " << generation;
      ++woken;
    }
    test::step_generation(grid, rule, TileStepper::kBands);
  }
  EXPECT_GT(woken, 0);
  EXPECT_TRUE(grid.cells() == test::reference_run(start, rule, Topology::plane(), 60));
}

TEST(SparseGrid, APatternCrossesTheTorusEdges) {
  const Topology torus = Topology::torus(128, 192);
  const CellSet start = test::glider(120, 185);
  expect_matches_reference(start, Rule::conway(), torus, {1, 4, 9, 16, 25, 40, 41, 100});
  // A glider moves (1, 1) every 4 generations, so it is back after 4 * lcm.
  SparseGrid grid;
  grid.load(start, torus, false);
  test::run(grid, Rule::conway(), 4 * 384);
  EXPECT_TRUE(grid.cells() == start);
}

TEST(SparseGrid, ActivityThroughATileCornerOnly) {
  // Gliders in all four directions whose paths pass diagonally through the
  // corner where four tiles meet, at several offsets from it, checked every
  // generation as they cross: a corner cell alone must wake the diagonal
  // neighbour, in the band facing it.
  const std::initializer_list<const char*> kGliders[4] = {
      {".O.", "..O", "OOO"}, {".O.", "O..", "OOO"}, {"OOO", "..O", ".O."}, {"OOO", "O..", ".O."}};
  const int kStartX[4] = {-12, 10, -12, 10};  // moving east starts west of the corner
  const int kStartY[4] = {-12, -12, 10, 10};  // moving south starts north of it
  std::vector<uint64_t> every_generation;
  for (uint64_t g = 1; g <= 60; ++g) every_generation.push_back(g);
  for (int direction = 0; direction < 4; ++direction) {
    for (int offset = -2; offset <= 2; ++offset) {
      SCOPED_TRACE(testing::Message() << "glider " << direction << " offset " << offset);
      const CellSet start =
          test::picture(kGliders[direction], kStartX[direction] + offset, kStartY[direction]);
      expect_matches_reference(start, Rule::conway(), Topology::plane(), every_generation);
    }
  }
  // B1 births a cell diagonal to a single live corner cell.
  const Rule b1 = parse_rule("B1/S").rule;
  expect_matches_reference(test::picture({"O"}, 63, 63), b1, Topology::plane(), {1, 2, 3, 4, 5});
}

TEST(SparseGrid, TorusCellsAreTakenModuloItsSize) {
  CellSet cells;
  cells.set(-1, -1);
  cells.set(64 + 5, 3);
  SparseGrid grid;
  grid.load(cells, Topology::torus(64, 64), false);
  CellSet expected;
  expected.set(63, 63);
  expected.set(5, 3);
  EXPECT_TRUE(grid.cells() == expected);
  EXPECT_EQ(grid.tile_count(), 1u);
}

TEST(SparseGrid, RefusesPlaneCellsBeyondTheTileRange) {
  CellSet cells;
  cells.set(int64_t{1} << 62, 0);
  SparseGrid grid;
  EXPECT_THROW(grid.load(cells, Topology::plane(), false), InputError);
}

TEST(SparseGrid, WorldsBeyondTheMemoryBudgetAreRefusedBeforeAllocating) {
  const uint64_t saved = memory_budget();
  set_memory_budget(uint64_t{64} << 20);
  SparseGrid grid;
  const CellSet glider = patterns::make_soup({8, 8, 0.5, 3});
  // 4096 tiles of 1280 bytes fit 64 MiB; 2^36 cells of torus (16.7 M
  // tiles, 20 GiB) do not, and are refused at once.
  EXPECT_NO_THROW(grid.load(glider, Topology::torus(4096, 4096), false));
  try {
    grid.load(glider, Topology::torus(65536, 1048576), false);
    ADD_FAILURE() << "accepted";
  } catch (const RuntimeError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("16777216 tiles of 64x64"), std::string::npos) << message;
    EXPECT_NE(message.find("more than the memory budget of 64 MiB"), std::string::npos) << message;
  }
  set_memory_budget(saved);
}

// Room made ahead (as strips make it between epochs) is room kept: the
// index grows again only once the tiles made fill it.
TEST(SparseGrid, RoomMadeAheadIsKeptWhileTilesAreMade) {
  SparseGrid grid;
  grid.load(CellSet{}, Topology::plane(), false);
  const size_t room = grid.tile_room();
  grid.reserve_tiles(4 * room);
  ASSERT_GE(grid.tile_room(), 4 * room);
  const size_t reserved = grid.tile_room();
  for (int64_t i = 0; grid.tile_count() < reserved; ++i) grid.ensure_tile({i % 256, i / 256});
  EXPECT_EQ(grid.tile_room(), reserved);
  grid.ensure_tile({-1, -1});
  EXPECT_GT(grid.tile_room(), reserved);
}

}  // namespace
}  // namespace gol::sparse
