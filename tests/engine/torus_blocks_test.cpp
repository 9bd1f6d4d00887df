// Torus blocks (several generations per sweep) against the bit reference,
// and against the same grid stepped a generation at a time: the same cells,
// and every tile and band that grid wakes awake too after every block, so
// sleep and wake resume where a block ends.
#include "engine/torus_blocks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "cpu/reference/reference_backends.h"
#include "engine/grid_stepper.h"
#include "patterns/soup.h"
#include "tests/engine/grid_checks.h"

namespace gol {
namespace {

using grid_checks::awake;
using grid_checks::wakes_at_least;

// Generations first, first + step, ... up to last.
std::vector<uint64_t> every(uint64_t first, uint64_t last, uint64_t step) {
  std::vector<uint64_t> generations;
  for (uint64_t generation = first; generation <= last; generation += step) {
    generations.push_back(generation);
  }
  return generations;
}

struct Case {
  int64_t tiles_x, tiles_y;
  uint64_t depth;
  int threads;
  cpu::SimdLibrary library = cpu::SimdLibrary::kHighway;
};

// Steps a grid in blocks, a grid a generation at a time and the oracle to
// each checkpoint, comparing all three.
void expect_blocks_match(const Case& c, const Rule& rule, const CellSet& cells,
                         const std::vector<uint64_t>& checkpoints) {
  SCOPED_TRACE(testing::Message() << c.tiles_x << "x" << c.tiles_y << " tiles, depth " << c.depth
                                  << ", " << c.threads << " threads, rule " << rule.to_string());
  const Topology torus = Topology::torus(c.tiles_x * kTileSize, c.tiles_y * kTileSize);
  const bool keep_all_active = rule.births_on_zero();
  sparse::SparseGrid blocked;
  sparse::SparseGrid plain;
  blocked.load(cells, torus, keep_all_active);
  plain.load(cells, torus, keep_all_active);
  GridStepper block_stepper(c.threads, c.library);
  block_stepper.set_block_depth(c.depth);
  GridStepper plain_stepper(1, c.library);
  plain_stepper.set_block_depth(1);
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, rule, torus);
  grid_checks::step_to_each(
      block_stepper, blocked, plain_stepper, plain, *oracle, rule, checkpoints,
      [&](uint64_t checkpoint) {
        ASSERT_TRUE(grid_checks::matches_reference(blocked, *oracle, checkpoint));
        ASSERT_TRUE(wakes_at_least(awake(blocked), awake(plain))) << "generation " << checkpoint;
      });
}

TEST(TorusBlocks, DepthFollowsTheCacheAndTheGenerationsLeft) {
  constexpr size_t kTwoMiB = size_t{2} << 20;
  // 128 tiles a row, both generations: 128 KiB a row, 16 rows in 2 MiB.
  EXPECT_EQ(TorusBlocks::depth_for(128, 200, kTwoMiB), 13u);
  EXPECT_EQ(TorusBlocks::depth_for(64, 200, kTwoMiB), 29u);
  EXPECT_EQ(TorusBlocks::depth_for(32, 200, kTwoMiB), 32u) << "at most 32 deep";
  EXPECT_EQ(TorusBlocks::depth_for(256, 200, kTwoMiB), 5u);
  EXPECT_EQ(TorusBlocks::depth_for(128, 5, kTwoMiB), 5u);
  EXPECT_LT(TorusBlocks::depth_for(128, 200, size_t{512} << 10), 2u);
  EXPECT_LT(TorusBlocks::depth_for(1024, 200, kTwoMiB), 2u);
}

TEST(TorusBlocks, BlocksTakeTheDeeperOfTheCoresCacheAndItsShareOfTheShared) {
  constexpr size_t kTwoMiB = size_t{2} << 20;
  constexpr size_t kShare = size_t{240} << 20;
  // 256 KiB rows: blocks of 5 in L2, of the most generations in the L3's share.
  EXPECT_EQ(TorusBlocks::choose_depth(256, 200, kTwoMiB, kShare), 32u);
  // A share that holds fewer rows than the L2 leaves the L2's depth.
  EXPECT_EQ(TorusBlocks::choose_depth(256, 200, kTwoMiB, size_t{1} << 20), 5u);
  EXPECT_EQ(TorusBlocks::choose_depth(128, 200, kTwoMiB, 0), 13u);
  // 512 KiB rows: 4 in L2, none to spare; hundreds in the L3's share.
  EXPECT_EQ(TorusBlocks::choose_depth(512, 200, kTwoMiB, kShare), 32u);
  EXPECT_EQ(TorusBlocks::choose_depth(128, 200, size_t{512} << 10, size_t{4} << 20), 29u);
  EXPECT_EQ(TorusBlocks::choose_depth(512, 7, kTwoMiB, kShare), 7u);
  // No shared cache reported, or too small a share: a generation at a time.
  EXPECT_LT(TorusBlocks::choose_depth(512, 200, kTwoMiB, 0), 2u);
  EXPECT_LT(TorusBlocks::choose_depth(4096, 200, kTwoMiB, size_t{8} << 20), 2u);
}

TEST(TorusBlocks, StripsComeInPairsUnlessThereIsOneRow) {
  EXPECT_EQ(TorusBlocks::strip_count(128, 1), 2);
  EXPECT_EQ(TorusBlocks::strip_count(128, 2), 2);
  EXPECT_EQ(TorusBlocks::strip_count(128, 3), 4);
  EXPECT_EQ(TorusBlocks::strip_count(128, 16), 16);
  EXPECT_EQ(TorusBlocks::strip_count(5, 16), 4);
  EXPECT_EQ(TorusBlocks::strip_count(2, 3), 2);
  EXPECT_EQ(TorusBlocks::strip_count(1, 4), 1);
}

TEST(TorusBlocks, SoupsMatchTheReferenceAndTheGenerationAtATimeGrid) {
  // One tile (its own neighbour every way), thin and odd shapes, strips of
  // unequal height, more threads than strips.
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{1, 1}, {2, 1}, {1, 3},
                                                           {3, 2}, {5, 7}, {4, 9}};
  for (const auto& [tiles_x, tiles_y] : shapes) {
    const CellSet cells = patterns::make_soup({tiles_x * kTileSize, tiles_y * kTileSize, 0.5,
                                               static_cast<uint64_t>(tiles_x * 10 + tiles_y)});
    for (uint64_t depth : {2, 3, 5, 8}) {
      for (int threads : {1, 2, 3, 5}) {
        expect_blocks_match({tiles_x, tiles_y, depth, threads}, Rule::conway(), cells,
                            {1, depth, depth + 1, 3 * depth + 2, 60});
      }
    }
  }
}

TEST(TorusBlocks, OtherRulesAndTheXsimdKernelMatchTheReference) {
  const CellSet cells = patterns::make_soup({5 * kTileSize, 4 * kTileSize, 0.45, 21});
  expect_blocks_match({5, 4, 4, 2}, parse_rule("B36/S23").rule, cells, {4, 9, 30});
  expect_blocks_match({5, 4, 3, 2}, parse_rule("B3678/S34678").rule, cells, {3, 10, 31});
  // Birth on zero: every tile stays awake, and empty space changes.
  expect_blocks_match({5, 4, 5, 3}, parse_rule("B0123478/S34678").rule, cells, {5, 11, 40});
  expect_blocks_match({5, 4, 6, 2, cpu::SimdLibrary::kXsimd}, Rule::conway(), cells, {6, 13, 50});
}

// Many more threads than cores: threads are preempted anywhere, so one
// often finds another's strip free just as it ends, and must not count it
// finished twice (ending the block with strips unswept).
TEST(TorusBlocks, ManyThreadsOnFewCoresMatchTheReference) {
  const CellSet cells = patterns::make_soup({3 * kTileSize, 32 * kTileSize, 0.5, 31});
  const std::vector<uint64_t> checkpoints = every(8, 160, 8);
  expect_blocks_match({3, 32, 8, 16}, Rule::conway(), cells, checkpoints);
  expect_blocks_match({3, 32, 5, 12}, Rule::conway(), cells, checkpoints);
}

// One stepper's blocks on two tori of the same size in turn: the tiles'
// addresses it keeps from one block to the next are read again for the
// other torus (and again when a torus is loaded anew), not reused.
TEST(TorusBlocks, OneStepperStepsTwoToriInTurn) {
  const Topology torus = Topology::torus(4 * kTileSize, 6 * kTileSize);
  const std::vector<CellSet> soups = {patterns::make_soup({4 * kTileSize, 6 * kTileSize, 0.5, 41}),
                                      patterns::make_soup({4 * kTileSize, 6 * kTileSize, 0.4, 42})};
  GridStepper stepper(2, cpu::SimdLibrary::kHighway);
  stepper.set_block_depth(5);
  std::vector<sparse::SparseGrid> grids(2);
  std::vector<std::unique_ptr<Backend>> oracles;
  for (size_t k = 0; k < 2; ++k) {
    grids[k].load(soups[k], torus, false);
    oracles.push_back(cpu::make_bit_backend());
    oracles[k]->load(soups[k], Rule::conway(), torus);
  }
  uint64_t done[2] = {0, 0};
  for (int round = 1; round <= 6; ++round) {
    for (size_t k = 0; k < 2; ++k) {
      stepper.step(grids[k], Rule::conway(), 5);
      oracles[k]->step(5);
      done[k] += 5;
      ASSERT_TRUE(grid_checks::matches_reference(grids[k], *oracles[k], done[k]))
          << "torus " << k << ", round " << round;
    }
    if (round == 3) {
      grids[0].load(soups[1], torus, false);
      oracles[0]->load(soups[1], Rule::conway(), torus);
      done[0] = 0;
    }
  }
}

// A soup that settles into still lifes and blinkers: blocks while it is
// busy, then generations one at a time as tiles fall asleep, with the
// sleeping tiles' two phases right whichever way their last steps came.
TEST(TorusBlocks, ASettlingSoupSleepsAsItWouldAGenerationAtATime) {
  const CellSet cells = patterns::make_soup({6 * kTileSize, 6 * kTileSize, 0.35, 5});
  expect_blocks_match({6, 6, 8, 2}, Rule::conway(), cells, every(8, 1200, 37));
}

}  // namespace
}  // namespace gol
