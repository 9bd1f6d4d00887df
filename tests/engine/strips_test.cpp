// Strips: a plane world cut along tile columns, each strip stepped alone by
// a thread for epochs of up to 127 generations between exchanges of the
// columns beside the cuts. Against the same world stepped whole on one
// thread: growth in every direction across the cuts, a glider stream
// crossing them diagonally, debris and gliders of soups, two to seven
// strips, several segments; and the grid's side of it (what a strip keeps,
// makes and lists).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "engine/grid_stepper.h"
#include "engine/strip_exchange.h"
#include "patterns/catalogue.h"
#include "patterns/soup.h"
#include "sparse/sparse_grid.h"
#include "sparse/tile_map.h"

namespace gol {
namespace {

struct StripRun {
  uint64_t segments = 0;
  uint64_t cut_moves = 0;
};

// The world `stepper` steps in `grid`, read as the simd backend reads it:
// the CPU tiles of its parts (its strips, while it is held in strips).
CellSet world_cells(const GridStepper& stepper, const sparse::SparseGrid& grid) {
  CellSet cells;
  for (const sparse::SparseGrid* part : stepper.world_parts(grid)) {
    part->visit_cpu_tiles([&](TileCoord coord, const Tile& tile) { cells.put_tile(coord, tile); });
  }
  return cells;
}

uint64_t world_population(const GridStepper& stepper, const sparse::SparseGrid& grid) {
  uint64_t population = 0;
  for (const sparse::SparseGrid* part : stepper.world_parts(grid)) {
    population += part->cpu_population();
  }
  return population;
}

// Steps `cells` whole on one thread and in strips on `threads`, comparing
// the cells at each checkpoint (read through the strips where the world is
// still held in them) and, merged, at the end; returns how the strips went.
StripRun run_strips_against_whole(const CellSet& cells, int threads,
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
    for (const sparse::SparseGrid* part : many.world_parts(cut)) {
      EXPECT_EQ(part->generation(), checkpoint);
    }
    EXPECT_EQ(world_population(many, cut), whole.population()) << "generation " << checkpoint;
    EXPECT_TRUE(world_cells(many, cut) == whole.cells()) << "generation " << checkpoint;
    done = checkpoint;
  }
  many.merge_strips(cut);
  EXPECT_EQ(many.world_parts(cut).size(), 1u);
  EXPECT_TRUE(cut.all_cpu()) << "ghosts left after the merge";
  EXPECT_TRUE(cut.cells() == whole.cells()) << "merged";
  return {many.strip_segments(), many.cut_moves()};
}

uint64_t expect_strips_match_whole(const CellSet& cells, int threads,
                                   const std::vector<uint64_t>& checkpoints) {
  return run_strips_against_whole(cells, threads, checkpoints).segments;
}

CellSet mirrored_east_west(const CellSet& cells) {
  CellSet mirror;
  for (const Cell& cell : cells.cells()) mirror.set(-cell.x, cell.y);
  return mirror;
}

TEST(Strips, SpacefillerGrowingAcrossTheCutsMatchesTheWholeWorld) {
  const CellSet spacefiller = patterns::builtin_pattern("spacefiller").cells;
  // One segment over three calls: the world stays cut between them.
  EXPECT_EQ(expect_strips_match_whole(spacefiller, 2, {1500, 2600, 5000}), 1u);
  EXPECT_GT(expect_strips_match_whole(spacefiller, 3, {4100}), 0u);
  // Within one call, cut again into more strips as it grows.
  EXPECT_GT(expect_strips_match_whole(spacefiller, 6, {4100}), 1u);
}

// Every tile's links and neighbourhood name the tiles beside it, as the
// index finds them.
void expect_links_match_the_index(const sparse::TileMap& map) {
  for (int32_t slot : map.held()) {
    const TileCoord at = map.coord(slot);
    const Tile* around[3][3];
    map.neighbourhood(0, slot, around);
    for (int d = 0; d < sparse::kDirections; ++d) {
      const int32_t found =
          map.find({at.tx + sparse::kDirectionDx[d], at.ty + sparse::kDirectionDy[d]});
      const int32_t expected =
          found == sparse::TileMap::kAbsent ? sparse::TileMap::kEmptySlot : found;
      ASSERT_EQ(map.neighbours(slot)[d], expected)
          << "tile " << at.tx << "," << at.ty << " direction " << d;
      ASSERT_EQ((map.absent_neighbours(slot) >> d) & 1, found == sparse::TileMap::kAbsent ? 1 : 0);
      ASSERT_EQ(around[1 + sparse::kDirectionDy[d]][1 + sparse::kDirectionDx[d]],
                &map.tile(0, expected));
    }
  }
}

// The merge adopts the strips' tiles in place and links them across the
// cuts: the merged world, stepped whole by short calls (fewer generations
// than a cut is worth), stays the true one.
// The spacefiller stepped whole on one thread and, allowed strips, on two.
struct SpacefillerWholeAndCut {
  sparse::SparseGrid whole;
  sparse::SparseGrid cut;
  GridStepper one{1, cpu::SimdLibrary::kHighway};
  GridStepper two{2, cpu::SimdLibrary::kHighway};

  SpacefillerWholeAndCut() {
    const CellSet spacefiller = patterns::builtin_pattern("spacefiller").cells;
    whole.load(spacefiller, Topology::plane(), false);
    cut.load(spacefiller, Topology::plane(), false);
    two.allow_strips(true);
  }
  void step(uint64_t generations) {
    one.step(whole, Rule::conway(), generations);
    two.step(cut, Rule::conway(), generations);
  }
};

TEST(Strips, TheMergedWorldIsLinkedAcrossTheCutsAndStepsWhole) {
  SpacefillerWholeAndCut worlds;
  worlds.step(2000);
  ASSERT_GT(worlds.two.strip_segments(), 0u);
  worlds.two.merge_strips(worlds.cut);
  expect_links_match_the_index(worlds.cut.map());
  for (int call = 0; call < 4; ++call) {
    worlds.step(100);
    EXPECT_TRUE(worlds.cut.cells() == worlds.whole.cells())
        << "generation " << worlds.cut.generation();
  }
  EXPECT_EQ(worlds.two.strip_segments(), 1u) << "the short calls were stepped whole";
}

// A world cut into strips stays cut from one call to the next, however
// short the calls (a caller stepping in chunks, as `gol run` does), and is
// read through its strips meanwhile.
TEST(Strips, TheWorldStaysCutBetweenCalls) {
  SpacefillerWholeAndCut worlds;
  worlds.step(2000);
  ASSERT_EQ(worlds.two.world_parts(worlds.cut).size(), 2u);
  for (const uint64_t generations : {1, 2, 100, 37, 300}) {
    worlds.step(generations);
    EXPECT_EQ(worlds.two.world_parts(worlds.cut).size(), 2u);
    EXPECT_TRUE(world_cells(worlds.two, worlds.cut) == worlds.whole.cells())
        << "generation " << worlds.whole.generation();
  }
  EXPECT_EQ(worlds.two.strip_segments(), 1u);
}

// Merged within an epoch (a caller about to read or load the grid itself),
// with no exchange first: merged at three points of which at most one ends
// an epoch, the worlds then stepped whole stay the true one.
TEST(Strips, MergedWithinAnEpochTheWorldStepsOnRight) {
  for (const uint64_t offset : {1, 50, 126}) {
    SpacefillerWholeAndCut worlds;
    worlds.step(2000);
    worlds.step(offset);
    ASSERT_EQ(worlds.two.world_parts(worlds.cut).size(), 2u);
    worlds.two.merge_strips(worlds.cut);
    EXPECT_EQ(worlds.two.world_parts(worlds.cut).size(), 1u);
    EXPECT_TRUE(worlds.cut.all_cpu());
    for (int call = 0; call < 3; ++call) {
      worlds.step(100);
      ASSERT_TRUE(worlds.cut.cells() == worlds.whole.cells())
          << "merged at " << 2000 + offset << ", generation " << worlds.cut.generation();
    }
  }
}

// Diehards vanish after 130 generations: a world fallen asleep in strips
// is merged and jumps ahead whole (stepped on in strips, 2^40 generations
// would take billions of epochs).
TEST(Strips, AWorldFallenAsleepIsMerged) {
  CellSet diehards;
  for (int64_t k = 0; k < 60; ++k) {
    for (const auto& [x, y] : {std::pair{6, 0}, {0, 1}, {1, 1}, {1, 2}, {5, 2}, {6, 2}, {7, 2}}) {
      diehards.set(k * 128 + x, (k % 3) * 128 + y);
    }
  }
  sparse::SparseGrid grid;
  grid.load(diehards, Topology::plane(), false);
  GridStepper two(2, cpu::SimdLibrary::kHighway);
  two.allow_strips(true);
  constexpr uint64_t kGenerations = uint64_t{1} << 40;
  two.step(grid, Rule::conway(), kGenerations);
  EXPECT_EQ(two.strip_segments(), 1u);
  EXPECT_EQ(two.world_parts(grid).size(), 1u);
  EXPECT_EQ(grid.generation(), kGenerations);
  EXPECT_EQ(grid.population(), 0u);
  EXPECT_TRUE(grid.active().empty());
}

TEST(Strips, BreederAndPufferMatchTheWholeWorld) {
  EXPECT_GT(expect_strips_match_whole(patterns::builtin_pattern("breeder").cells, 2, {3000, 4500}),
            0u);
  // The puffer train's trail is narrow: cut or not, by how active it is.
  expect_strips_match_whole(patterns::builtin_pattern("puffer-train").cells, 4, {2000, 6100});
}

// The puffer's head drifts east across the cut at c/2 while its escaping
// spaceships stay west: the cut must follow it (and, mirrored, the other
// way), moving columns and their ghosts between the strips between epochs.
// The breeder's growth moves its cut too.
TEST(Strips, CutsFollowTheWorkBothWays) {
  const CellSet puffer = patterns::builtin_pattern("puffer-train").cells;
  for (const CellSet& cells : {puffer, mirrored_east_west(puffer)}) {
    const StripRun run = run_strips_against_whole(cells, 2, {3000, 9001, 20000});
    EXPECT_GT(run.segments, 0u);
    EXPECT_GT(run.cut_moves, 10u);
  }
  const StripRun breeder =
      run_strips_against_whole(patterns::builtin_pattern("breeder").cells, 2, {2500, 6000});
  EXPECT_GT(breeder.cut_moves, 0u);
}

// Cut in more than two, the cuts stay put for a segment and the world is
// cut anew: a growing world on seven threads, in one call.
TEST(Strips, ManyStripsAreCutAnewEachSegment) {
  const StripRun run =
      run_strips_against_whole(patterns::builtin_pattern("breeder").cells, 7, {9000});
  EXPECT_GT(run.segments, 2u);
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
// The narrowest strip, [0, kWidth - 1], and the roles its grid gives each
// column: its own, kGhosts ghost columns beside each end, then one frozen.
constexpr int64_t kGhosts = sparse::SparseGrid::kStripGhostColumns;
constexpr int64_t kEdge = sparse::SparseGrid::kStripEdgeColumns;
constexpr int64_t kWidth = kEdge;

sparse::TileOwner role_in_strip(int64_t tx, int64_t first, int64_t last) {
  if (tx == first - kEdge || tx == last + kEdge) return sparse::TileOwner::kFrozen;
  if ((tx >= first - kGhosts && tx < first) || (tx > last && tx <= last + kGhosts)) {
    return sparse::TileOwner::kGhost;
  }
  return sparse::TileOwner::kCpu;
}

TEST(StripGrid, KeepsItsColumnsGhostsAndFrozenCopiesAndMakesNothingBeyond) {
  ASSERT_GE(kGhosts, 1);
  CellSet cells;
  // A blinker in each of the columns from two beyond the strip's edges at
  // tile row 0, and a glider in its last column heading east (and south).
  const int64_t first = 0;
  const int64_t last = kWidth - 1;
  for (int64_t tx = first - kEdge - 2; tx <= last + kEdge + 2; ++tx) {
    for (int64_t dx = 0; dx < 3; ++dx) cells.set(tx * kTileSize + 30 + dx, 30);
  }
  for (auto [x, y] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    cells.set(last * kTileSize + 40 + x, 100 + y);
  }
  // The world moved into the strip as a cut moves it: what lies beyond the
  // frozen columns is not made.
  sparse::SparseGrid world;
  world.load(cells, Topology::plane(), false);
  sparse::SparseGrid grid;
  grid.start_empty_plane(world.generation(), first, last);
  world.drain([&](TileCoord coord, const Tile& current, const Tile& previous, sparse::TileOwner,
                  BandMask bands) { grid.place_tile(coord, current, previous, bands); });
  grid.replan();
  const auto expect_roles = [&]() {
    for (int32_t slot : grid.map().held()) {
      const int64_t tx = grid.map().coord(slot).tx;
      EXPECT_GE(tx, first - kEdge);
      EXPECT_LE(tx, last + kEdge);
      EXPECT_EQ(grid.owner(slot), role_in_strip(tx, first, last)) << "column " << tx;
    }
  };
  expect_roles();
  EXPECT_FALSE(grid.all_cpu());
  for (int64_t tx = first - kEdge; tx <= last + kEdge; ++tx) {
    // The blinker's tile, and in the last column the glider's too.
    EXPECT_EQ(grid.column_tiles(tx, tx).size(), tx == last ? 2u : 1u) << tx;
  }
  // The glider crosses the ghost columns (their tiles made as it comes)
  // into the frozen one, where it stands still; nothing is made beyond.
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), 4 * kTileSize * kEdge);
  expect_roles();
  for (int64_t tx = last + 1; tx <= last + kGhosts; ++tx) {
    EXPECT_GE(grid.column_tiles(tx, tx).size(), 2u) << "the glider's tiles in ghost column " << tx;
  }
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

// A cut moved one column west: the strip [0, kWidth - 1] made
// [-1, kWidth - 2]. Its old frozen column in the east goes, its last ghost
// there freezes, its last owned column becomes a ghost, its nearest ghost
// in the west is owned and its frozen column there becomes a ghost. Only
// that one must wake (its wake records were dropped while it stood still);
// the newly owned one wakes as any tile handed to the CPU.
TEST(StripGrid, MovesItsColumnsWakingOnlyTheFrozenTilesThatStepAgain) {
  const int64_t first = 0;
  const int64_t last = kWidth - 1;
  CellSet cells;
  for (int64_t tx = first - kEdge; tx <= last + kEdge; ++tx) {
    for (int64_t dx = 0; dx < 2; ++dx) {
      for (int64_t dy = 0; dy < 2; ++dy) cells.set(tx * kTileSize + 30 + dx, 30 + dy);
    }
  }
  sparse::SparseGrid grid;
  grid.start_empty_plane(0, first, last);
  sparse::SparseGrid world;
  world.load(cells, Topology::plane(), false);
  world.drain([&](TileCoord coord, const Tile& current, const Tile& previous, sparse::TileOwner,
                  BandMask) { grid.place_tile(coord, current, previous, 0); });
  grid.replan();
  ASSERT_TRUE(grid.active().empty());  // blocks, asleep
  const std::vector<int32_t> woken = grid.set_strip_columns(first - 1, last - 1);
  std::vector<int64_t> woken_columns;
  for (int32_t slot : woken) woken_columns.push_back(grid.map().coord(slot).tx);
  std::sort(woken_columns.begin(), woken_columns.end());
  EXPECT_EQ(woken_columns, (std::vector<int64_t>{first - kEdge, first - 1}));
  // Held: the old range less its east end (the new west end, one further
  // out, had no tile).
  EXPECT_EQ(grid.tile_count(), static_cast<size_t>(last - first + 2 * kEdge));
  for (int32_t slot : grid.map().held()) {
    const int64_t tx = grid.map().coord(slot).tx;
    EXPECT_LE(tx, last - 1 + kEdge);
    EXPECT_EQ(grid.owner(slot), role_in_strip(tx, first - 1, last - 1)) << tx;
  }
  for (int64_t tx = first - kEdge; tx <= last - 1 + kEdge; ++tx) {
    EXPECT_EQ(grid.column_tile_count(tx, tx), 1u) << tx;
  }
  EXPECT_EQ(grid.column_tile_count(last + kEdge, last + kEdge), 0u);  // dropped
  EXPECT_TRUE(grid.column_tiles(last + kEdge, last + kEdge).empty());
  EXPECT_EQ(world.column_tile_count(0, 0), 0u);  // a whole plane keeps no count
  // A range as wide as the plane is counted over the columns held, not
  // column by column (a cut may move across a gap that wide).
  EXPECT_EQ(grid.column_tile_count(-sparse::SparseGrid::kNoColumnLimit,
                                   sparse::SparseGrid::kNoColumnLimit - 1),
            grid.tile_count());
  grid.replan_near(woken);
  ASSERT_EQ(grid.active().size(), 2u);
  // The blocks stay as they are, stepped or not.
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), 4);
  EXPECT_EQ(grid.population(), 4u * grid.tile_count());
}

// Whether `into` holds, in columns [first, last], exactly what `from`
// holds there: each of its tiles equal to `from`'s at both generations
// (empty where `from` has none), and a tile wherever `from` has one.
void expect_columns_match(const sparse::SparseGrid& into, const sparse::SparseGrid& from,
                          int64_t first, int64_t last) {
  const Tile empty{};
  for (int32_t slot : into.column_tiles(first, last)) {
    const TileCoord coord = into.map().coord(slot);
    const int32_t there = from.map().find(coord);
    for (int parity = 0; parity < 2; ++parity) {
      const Tile& expected =
          there == sparse::TileMap::kAbsent ? empty : from.map().tile(parity, there);
      EXPECT_TRUE(into.map().tile(parity, slot) == expected)
          << "tile " << coord.tx << "," << coord.ty << " parity " << parity;
    }
  }
  for (int32_t there : from.column_tiles(first, last)) {
    EXPECT_NE(into.map().find(from.map().coord(there)), sparse::TileMap::kAbsent);
  }
}

// One exchange across a cut at column 0: the west strip takes the east's
// first kEdge columns into its ghost and frozen ones.
void take_east_columns(sparse::SparseGrid& west, sparse::SparseGrid& east, uint64_t since) {
  StripImports imports;
  for (int64_t column = 0; column < kEdge; ++column) {
    gather_column(west, east, column, since, imports);
  }
  east.clear_freed_near_ends();
  apply_imports(west, imports);
  west.replan_near(imports.imported);
}

// A glider coming west out of the west strip's frozen column meets a block
// in its last ghost column, and both vanish. In the west strip the glider
// stands still, so the block stays, unchanged since the last exchange;
// in the east strip, which owns both columns, the block's tile is freed.
// The exchange must still empty the west's copy: the east's freed tile is
// the only trace of the change.
TEST(StripExchange, EmptiesACopyOfATileTheOwnerChangedAndFreed) {
  const int64_t block_tx = kGhosts - 1;  // the west strip's last ghost column
  ASSERT_EQ(block_tx + 1, kEdge - 1);    // and its frozen column beside it
  const int64_t bx = block_tx * kTileSize + 60;
  CellSet cells;
  for (int64_t dx = 0; dx < 2; ++dx) {
    for (int64_t dy = 0; dy < 2; ++dy) cells.set(bx + dx, 30 + dy);
  }
  // Heading west and south, eight cells east of the block and eight above:
  // the pair annihilates in generation 25.
  for (auto [x, y] : {std::pair{1, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    cells.set(bx + 8 + x, 22 + y);
  }
  sparse::SparseGrid world;
  world.load(cells, Topology::plane(), false);
  sparse::SparseGrid west;
  sparse::SparseGrid east;
  west.start_empty_plane(0, -kEdge, -1);
  east.start_empty_plane(0, 0, kEdge + 2);
  world.drain([&](TileCoord coord, const Tile& current, const Tile& previous, sparse::TileOwner,
                  BandMask bands) {
    west.place_tile(coord, current, previous, bands);
    east.place_tile(coord, current, previous, bands);
  });
  west.replan();
  east.replan();
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(west, Rule::conway(), 1);
  stepper.step(east, Rule::conway(), 1);
  take_east_columns(west, east, 0);
  expect_columns_match(west, east, 0, kEdge - 1);

  const uint64_t since = west.generation();
  stepper.step(west, Rule::conway(), 60);
  stepper.step(east, Rule::conway(), 60);
  const TileCoord block_tile{block_tx, 0};
  ASSERT_EQ(east.map().find(block_tile), sparse::TileMap::kAbsent) << "the block was not freed";
  ASSERT_EQ(east.freed_near_ends().size(), 2u);  // the block's tile and the glider's
  const int32_t copy = west.map().find(block_tile);
  ASSERT_NE(copy, sparse::TileMap::kAbsent);
  ASSERT_LE(west.changed_in(copy), since);
  ASSERT_FALSE(west.map().tile(0, copy).empty());
  take_east_columns(west, east, since);
  expect_columns_match(west, east, 0, kEdge - 1);
  EXPECT_TRUE(west.map().tile(0, copy).empty());
  EXPECT_TRUE(east.freed_near_ends().empty());
}

}  // namespace
}  // namespace gol
