// Plane blocks (a busy plane stepped several generations with every tile
// stepped whole each generation) against the bit reference and against the
// same world stepped a generation at a time: the same cells, summaries that
// say what each tile holds, and every tile and band that world wakes awake
// after each block. Tiles are made inside blocks in every direction and
// across slab boundaries; sleeping tiles away from the active ones are left
// alone; strips step blocks of their own; a birth beyond the plane's edge
// is refused inside a block at its generation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpu/reference/reference_backends.h"
#include "engine/core/error.h"
#include "engine/grid_stepper.h"
#include "patterns/catalogue.h"
#include "patterns/soup.h"
#include "sparse/sparse_grid.h"
#include "tests/engine/grid_checks.h"

namespace gol {
namespace {

using grid_checks::awake_by_coord;
using grid_checks::wakes_at_least;

struct Case {
  uint64_t depth = 0;  // 0: the stepper's own choice
  int threads = 1;
  cpu::SimdLibrary library = cpu::SimdLibrary::kHighway;
  bool strips = false;
};

// Steps `cells` in blocks, a generation at a time and on the bit reference
// to each checkpoint, comparing all three; returns the blocks stepped.
uint64_t expect_blocks_match(const Case& c, const Rule& rule, const CellSet& cells,
                             const std::vector<uint64_t>& checkpoints) {
  SCOPED_TRACE(::testing::Message()
               << "depth " << c.depth << ", " << c.threads << " threads"
               << (c.strips ? " in strips" : "") << ", rule " << rule.to_string());
  sparse::SparseGrid blocked;
  sparse::SparseGrid plain;
  blocked.load(cells, Topology::plane(), false);
  plain.load(cells, Topology::plane(), false);
  GridStepper block_stepper(c.threads, c.library);
  block_stepper.set_block_depth(c.depth);
  block_stepper.allow_strips(c.strips);
  GridStepper plain_stepper(1, c.library);
  plain_stepper.set_block_depth(1);
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, rule, Topology::plane());
  grid_checks::step_to_each(
      block_stepper, blocked, plain_stepper, plain, *oracle, rule, checkpoints,
      [&](uint64_t checkpoint) {
        block_stepper.merge_strips(blocked);
        EXPECT_TRUE(grid_checks::matches_reference(blocked, *oracle, checkpoint));
        // Strips wake by rules of their own: a ghost tile's far edge column
        // faces frozen tiles, and where both its edge columns change a
        // neighbour wakes the rows either changed in, so a tile beside it
        // may wake other bands than in the whole world (both enough).
        if (!c.strips) {
          EXPECT_TRUE(wakes_at_least(awake_by_coord(blocked), awake_by_coord(plain)))
              << "generation " << checkpoint;
        }
      });
  EXPECT_EQ(plain_stepper.plane_blocks(), 0u);
  return block_stepper.plane_blocks();
}

// A glider moving (dx, dy) (each +-1) at (x, y), and a lightweight
// spaceship moving along one axis.
CellSet glider(int64_t x, int64_t y, int dx, int dy) {
  CellSet cells;
  for (auto [cx, cy] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    cells.set(x + (dx > 0 ? cx : 2 - cx), y + (dy > 0 ? cy : 2 - cy));
  }
  return cells;
}

CellSet lightweight_spaceship(int64_t x, int64_t y, int direction) {
  // Moving east; the others by turning it.
  const std::pair<int, int> east[] = {{1, 0}, {4, 0}, {0, 1}, {0, 2}, {4, 2},
                                      {0, 3}, {1, 3}, {2, 3}, {3, 3}};
  CellSet cells;
  for (auto [cx, cy] : east) {
    switch (direction) {
      case 0:
        cells.set(x + cx, y + cy);
        break;
      case 1:
        cells.set(x - cx, y + cy);
        break;
      case 2:
        cells.set(x + cy, y + cx);
        break;
      default:
        cells.set(x + cy, y - cx);
        break;
    }
  }
  return cells;
}

// Spaceships leaving a field every way: gliders on the four diagonals and
// lightweight spaceships along the axes, crossing tile borders and
// corners everywhere, so tiles are made inside blocks in all eight
// directions.
CellSet spaceship_field() {
  CellSet field;
  for (int64_t row = 0; row < 6; ++row) {
    for (int64_t column = 0; column < 6; ++column) {
      const int64_t x = column * 150 + row * 7;
      const int64_t y = row * 150 + column * 11;
      const int kind = static_cast<int>((row * 6 + column) % 8);
      const CellSet ship = kind < 4 ? glider(x, y, kind % 2 == 0 ? 1 : -1, kind < 2 ? 1 : -1)
                                    : lightweight_spaceship(x, y, kind - 4);
      for (const Cell& cell : ship.cells()) field.set(cell.x, cell.y);
    }
  }
  return field;
}

TEST(PlaneBlocks, AGliderStreamMatchesTheReference) {
  const CellSet gun = patterns::builtin_pattern("gosper-gun").cells;
  EXPECT_GT(expect_blocks_match({}, Rule::conway(), gun, {100, 1001, 3000, 6100}), 40u);
  EXPECT_GT(expect_blocks_match({3}, Rule::conway(), gun, {500, 1202}), 100u);
}

TEST(PlaneBlocks, SpaceshipsLeavingEveryWayMakeTilesInsideBlocks) {
  const CellSet field = spaceship_field();
  for (uint64_t depth : {0, 2, 5, 17}) {
    EXPECT_GT(expect_blocks_match({depth}, Rule::conway(), field, {64, 333, 900}), 0u);
  }
}

// A fleet of spaceships abreast, heading north: tiles made inside blocks
// land in several slabs.
TEST(PlaneBlocks, AFleetOverSeveralSlabsMatchesTheReference) {
  CellSet fleet;
  for (int64_t k = 0; k < 320; ++k) {
    const CellSet ship = lightweight_spaceship(k * kTileSize + (k % 5) * 13, (k % 3) * 20, 3);
    for (const Cell& cell : ship.cells()) fleet.set(cell.x, cell.y);
  }
  EXPECT_GT(expect_blocks_match({}, Rule::conway(), fleet, {150, 301}), 0u);
  sparse::SparseGrid grid;
  grid.load(fleet, Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), 301);
  EXPECT_GT(grid.tile_count(), size_t{sparse::TileMap::kSlabSlots});
  EXPECT_GT(stepper.plane_blocks(), 0u);
}

TEST(PlaneBlocks, OtherRulesAndTheXsimdKernelMatchTheReference) {
  const CellSet soup = patterns::make_soup({5 * kTileSize, 4 * kTileSize, 0.45, 41});
  EXPECT_GT(expect_blocks_match({4}, parse_rule("B36/S23").rule, soup, {4, 9, 130}), 0u);
  EXPECT_GT(expect_blocks_match({}, parse_rule("B3678/S34678").rule, soup, {3, 70, 131}), 0u);
  EXPECT_GT(
      expect_blocks_match({6, 1, cpu::SimdLibrary::kXsimd}, Rule::conway(), soup, {6, 13, 150}),
      0u);
}

// A soup settling into still lifes and blinkers: blocks while it is busy,
// then generations one at a time as tiles fall asleep and empty ones go.
TEST(PlaneBlocks, ASettlingSoupSleepsAsItWouldAGenerationAtATime) {
  const CellSet soup = patterns::make_soup({6 * kTileSize, 6 * kTileSize, 0.35, 42});
  std::vector<uint64_t> checkpoints;
  for (uint64_t generation = 8; generation <= 1400; generation += 37) {
    checkpoints.push_back(generation);
  }
  EXPECT_GT(expect_blocks_match({}, Rule::conway(), soup, checkpoints), 0u);
}

// A field of blocks staggered so that every column of a tile holds a live
// cell (a dense still agar whose tiles are alike, so they share one pair
// once asleep), with a soup beside it: a block lists the field's tiles
// beside the soup, which must take pairs of their own before it steps them.
TEST(PlaneBlocks, AnAgarsSharedTilesBesideABlockMatchTheReference) {
  constexpr int64_t kField = 8 * kTileSize;
  CellSet cells;
  for (int64_t y = 0; y < kField; y += 4) {
    for (int64_t x = (y / 4 % 2) * 2; x < kField; x += 4) {
      for (int64_t dy = 0; dy < 2; ++dy) {
        for (int64_t dx = 0; dx < 2; ++dx) cells.set(x + dx, y + dy);
      }
    }
  }
  const CellSet soup = patterns::make_soup({5 * kTileSize, 5 * kTileSize, 0.45, 43});
  for (const Cell& cell : soup.translated(kField + 8, kTileSize).cells()) cells.set(cell);
  EXPECT_GT(expect_blocks_match({}, Rule::conway(), cells, {2, 40, 150, 400}), 0u);
  sparse::SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), 2);
  EXPECT_GT(grid.map().shared_slots(), 30u) << "the field's tiles share";
}

// `cells` stepped `warm_up` generations on one thread in blocks of 63,
// then `generations` more: what the second call stepped.
struct LaterSteps {
  size_t listed = 0;           // tiles active when it began
  uint64_t tiles = 0;          // tile generations it stepped
  uint64_t blocks_before = 0;  // plane blocks before it
  uint64_t blocks = 0;         // and after
  uint64_t generation = 0;     // the grid's after
};
LaterSteps steps_after(const CellSet& cells, uint64_t warm_up, uint64_t generations) {
  sparse::SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.set_block_depth(63);
  stepper.step(grid, Rule::conway(), warm_up);
  LaterSteps steps;
  steps.listed = grid.active().size();
  steps.blocks_before = stepper.plane_blocks();
  const uint64_t before = stepper.tiles_stepped();
  stepper.step(grid, Rule::conway(), generations);
  steps.tiles = stepper.tiles_stepped() - before;
  steps.blocks = stepper.plane_blocks();
  steps.generation = grid.generation();
  return steps;
}

// Still lifes in tiles beside a glider's path, which it never comes near,
// and a block and a blinker (period 2) in the paths of two gliders. A
// block lists only the tiles active at its start; a sleeping tile joins it
// in the generation after a border it reads changes, as a generation at a
// time would wake it: the ones the gliders hit wake inside blocks, and the
// ones beside the path are never stepped.
CellSet still_lifes_by_a_glider(bool with_gliders) {
  CellSet cells;
  const auto add_block = [&](int64_t x, int64_t y) {
    for (auto [dx, dy] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}}) cells.set(x + dx, y + dy);
  };
  if (with_gliders) {
    for (const Cell& cell : glider(10, 40, 1, 1).cells()) cells.set(cell);  // along y = x + 30
    // North-east along x + y = 404, towards the blinker.
    for (const Cell& cell : glider(20, 6 * kTileSize, 1, -1).cells()) cells.set(cell);
  }
  // In tile (k + 1, k), whose facing borders the first glider's path stays
  // 19 cells or more from.
  for (int64_t k = 0; k < 5; ++k) add_block((k + 1) * kTileSize + 30, k * kTileSize + 30);
  add_block(4 * kTileSize + 12, 4 * kTileSize + 42);            // on the first path
  for (int64_t dx = 0; dx < 3; ++dx) cells.set(200 + dx, 203);  // on the second
  return cells;
}

TEST(PlaneBlocks, SleepingTilesJoinABlockOnlyWhereABorderTheyReadChanges) {
  const CellSet cells = still_lifes_by_a_glider(true);
  for (uint64_t depth : {0, 63, 7}) {
    EXPECT_GT(
        expect_blocks_match({depth}, Rule::conway(), cells, {64, 200, 301, 700, 1100, 1500, 2000}),
        0u);
  }
  // Before the first glider reaches the block on its path, the still
  // lifes beside it cost no tile steps: the glider alone steps as many.
  CellSet lone = still_lifes_by_a_glider(false);
  const CellSet just_the_glider = glider(10, 40, 1, 1);
  for (const Cell& cell : just_the_glider.cells()) lone.set(cell);
  // The still lifes fall asleep in the first two generations.
  const LaterSteps with_still_lifes = steps_after(lone, 2, 300);
  const LaterSteps glider_alone = steps_after(just_the_glider, 2, 300);
  EXPECT_GT(with_still_lifes.blocks, 2u);
  EXPECT_GT(glider_alone.blocks, 2u);
  EXPECT_EQ(with_still_lifes.tiles, glider_alone.tiles);
}

// Just loaded, every tile is awake; the field of still blocks sleeps after
// one step, and only then do blocks start, listing the glider's tiles: a
// block at once would have stepped the whole field to its end.
TEST(PlaneBlocks, TilesWokenButUnchangedSleepBeforeABlockStarts) {
  constexpr int64_t kField = 8 * kTileSize;
  CellSet cells;
  for (int64_t y = 0; y < kField; y += 8) {
    for (int64_t x = 0; x < kField; x += 8) {
      for (auto [dx, dy] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}}) cells.set(x + dx, y + dy);
    }
  }
  for (const Cell& cell : glider(3 * kField, 20, 1, 1).cells()) cells.set(cell);
  EXPECT_GT(expect_blocks_match({}, Rule::conway(), cells, {1, 64, 200}), 0u);
  sparse::SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), 64);
  EXPECT_GT(stepper.plane_blocks(), 0u);
  EXPECT_LT(stepper.tiles_stepped(), 2 * grid.tile_count() + 64 * 4);
}

// A pi-heptomino settles into still lifes and blinkers at about generation
// 175, in the middle of a block: its tiles leave the block once two steps
// left them as they were, and none of their listed neighbours' facing
// borders changed, as a generation at a time would put them to sleep. A
// glider later hits what it left, inside a block.
CellSet pi_heptomino() {
  CellSet cells;
  for (auto [x, y] : {std::pair{0, 0}, {1, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}}) {
    cells.set(x + 20, y + 20);
  }
  return cells;
}

TEST(PlaneBlocks, TilesThatSettleInsideABlockLeaveIt) {
  CellSet aimed = pi_heptomino();
  for (const Cell& cell : glider(150, 150, -1, -1).cells()) aimed.set(cell);
  for (uint64_t depth : {0, 63, 7}) {
    EXPECT_GT(expect_blocks_match({depth}, Rule::conway(), aimed, {150, 213, 400, 560, 700}), 0u);
  }
  EXPECT_GT(expect_blocks_match({63, 2, cpu::SimdLibrary::kXsimd, true}, Rule::conway(), aimed,
                                {213, 700}),
            0u);
  // A block from generation 150 to 213 lists the pi's tiles at its start,
  // with those of a glider flying away; they stop costing steps once the
  // pi has settled.
  const CellSet away = glider(1000, 1000, 1, 1);
  CellSet with_pi = pi_heptomino();
  for (const Cell& cell : away.cells()) with_pi.set(cell);
  const LaterSteps steps[2] = {steps_after(away, 150, 63), steps_after(with_pi, 150, 63)};
  for (const LaterSteps& run : steps) {
    EXPECT_EQ(run.blocks, run.blocks_before + 1);
    EXPECT_EQ(run.generation, 213u);
  }
  const size_t pi_tiles = steps[1].listed - steps[0].listed;
  ASSERT_GE(pi_tiles, 2u);
  EXPECT_LT(steps[1].tiles - steps[0].tiles, pi_tiles * 63 * 3 / 4);
}

// A puffer's head is stepped in blocks with the tiles around it, while the
// trail of debris behind it sleeps on: a block steps the active tiles and
// those they wake, not every tile.
TEST(PlaneBlocks, APufferHeadIsSteppedWithoutItsSleepingTrail) {
  const CellSet puffer = patterns::builtin_pattern("puffer-train").cells;
  EXPECT_GT(expect_blocks_match({}, Rule::conway(), puffer, {700, 1801, 3000}), 20u);
  sparse::SparseGrid grid;
  grid.load(puffer, Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  uint64_t held = 0;  // tiles held, summed over the generations
  for (int part = 0; part < 200; ++part) {
    stepper.step(grid, Rule::conway(), 100);
    held += 100 * grid.tile_count();
  }
  EXPECT_GT(stepper.plane_blocks(), 20u);
  EXPECT_LT(stepper.tiles_stepped() * 4, held);
}

// Each strip steps blocks of its own while its tiles are busy, a
// breeder's cut moving between epochs.
TEST(PlaneBlocks, StripsStepBlocksOfTheirOwn) {
  const CellSet breeder = patterns::builtin_pattern("breeder").cells;
  EXPECT_GT(expect_blocks_match({0, 2, cpu::SimdLibrary::kHighway, true}, Rule::conway(), breeder,
                                {1200, 2600}),
            0u);
  // Many threads: strips of a few columns each, and the gun's stream.
  EXPECT_GT(expect_blocks_match({0, 7, cpu::SimdLibrary::kHighway, true}, Rule::conway(), breeder,
                                {3100}),
            0u);
  EXPECT_GT(expect_blocks_match({0, 5, cpu::SimdLibrary::kXsimd, true}, Rule::conway(),
                                patterns::builtin_pattern("gosper-gun").cells, {4000}),
            0u);
}

// A glider reaching the plane's edge in the middle of a block stops the
// run at the generation in which it would bear a cell beyond, as a
// generation at a time does.
TEST(PlaneBlocks, ABirthBeyondThePlaneIsRefusedInsideABlock) {
  constexpr int64_t kEdge = int64_t{1} << 62;
  const CellSet near_origin = glider(-40, 0, 1, 1);
  auto reference = cpu::make_bit_backend();
  reference->load(near_origin, Rule::conway(), Topology::plane());
  uint64_t crossing = 0;
  while (crossing < 400 && reference->cells().bbox()->xmax < 0) {
    reference->step(1);
    ++crossing;
  }
  ASSERT_GT(crossing, 100u);
  sparse::SparseGrid grid;
  grid.load(near_origin.translated(kEdge, 0), Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  try {
    stepper.step(grid, Rule::conway(), crossing + 50);
    ADD_FAILURE() << "the run went on past the edge";
  } catch (const RuntimeError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("at generation " + std::to_string(crossing) + " "), std::string::npos)
        << message;
  }
  EXPECT_GT(stepper.plane_blocks(), 0u);
  // What the grid holds is the generation before, exact.
  reference->load(near_origin, Rule::conway(), Topology::plane());
  reference->step(grid.generation());
  EXPECT_EQ(grid.generation(), crossing - 1);
  EXPECT_TRUE(grid.cells() == reference->cells().translated(kEdge, 0));
}

}  // namespace
}  // namespace gol
