// The hybrid backend against the bit reference, with the CPU stand-in for
// the tile pool everywhere and the CUDA pool where a device is usable: soups
// on plane and torus, spaceships crossing the CPU<->GPU boundary in all
// eight directions, clusters migrating both ways, every epoch length, other
// rules. Partitions come from fixed cost models (or fixed regions), so they
// are the same on every machine and every pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cpu/reference/reference_backends.h"
#include "engine/backend_registry.h"
#include "engine/core/error.h"
#include "engine/hybrid_backend.h"
#include "engine/sparse_backend.h"
#include "gpu/gpu_backend.h"
#include "patterns/catalogue.h"
#include "patterns/soup.h"

namespace gol {
namespace {

enum class PoolKind { kStandin, kCuda };

std::string kind_name(const ::testing::TestParamInfo<PoolKind>& info) {
  return info.param == PoolKind::kStandin ? "Standin" : "Cuda";
}

// Fixed costs under which a GPU region pays for a handful of active tiles
// (at real costs it takes hundreds), and a partition pass every epoch:
// small worlds then cross the boundary often.
HybridOptions eager_options(int epoch_generations = 32) {
  HybridOptions options;
  options.epoch_generations = epoch_generations;
  options.partition_every = 1;
  options.max_partition_interval = 1;
  options.fixed_costs = hybrid::CostModel{.cpu_ns_per_tile = 20,
                                          .gpu_overhead_ns = 2000,
                                          .gpu_ns_per_tile = 1,
                                          .transfer_ns_per_byte = 0,
                                          .cpu_generation_ns = 0};
  options.clusters.dense_block_tiles = 4;
  options.clusters.min_fill = 0;
  options.partition.min_epochs_held = 1;
  return options;
}

HybridOptions regions_options(std::vector<gpu::TileRect> regions, int epoch_generations) {
  HybridOptions options;
  options.epoch_generations = epoch_generations;
  options.fixed_regions = std::move(regions);
  return options;
}

CellSet soup(int64_t width, int64_t height, double density, uint64_t seed) {
  return patterns::make_soup({width, height, density, seed});
}

// A pattern given as rows of '.' and 'O', its top-left cell at (x, y).
CellSet picture(std::initializer_list<const char*> rows, int64_t x, int64_t y) {
  CellSet cells;
  int64_t row_index = 0;
  for (const char* row : rows) {
    for (int64_t column = 0; row[column] != '\0'; ++column) {
      if (row[column] == 'O') cells.set(x + column, y + row_index);
    }
    ++row_index;
  }
  return cells;
}

// The cells turned a quarter clockwise about the origin, `times` times.
CellSet rotated(const CellSet& cells, int times) {
  CellSet result = cells;
  for (int turn = 0; turn < times; ++turn) {
    CellSet next;
    for (const Cell& cell : result.cells()) next.set(-cell.y, cell.x);
    result = next;
  }
  return result;
}

// A pool that counts how its regions come and grow, passing every call on.
struct RegionCalls {
  int added = 0;
  int grown = 0;
  int activities = 0;  // activity() calls (not activity_async())
};

class CountingPool final : public gpu::TilePool {
 public:
  CountingPool(std::unique_ptr<gpu::TilePool> pool, RegionCalls& calls)
      : pool_(std::move(pool)), calls_(calls) {}
  std::string name() const override { return pool_->name(); }
  void reset(const Rule& rule, int64_t x, int64_t y) override { pool_->reset(rule, x, y); }
  int add_region(const gpu::TileRect& owned) override {
    ++calls_.added;
    return pool_->add_region(owned);
  }
  void remove_region(int region) override { pool_->remove_region(region); }
  void grow_region(int region, const gpu::TileRect& owned) override {
    ++calls_.grown;
    pool_->grow_region(region, owned);
  }
  void upload(int region, std::span<const TileCoord> coords, std::span<const Tile> current,
              std::span<const Tile> previous) override {
    pool_->upload(region, coords, current, previous);
  }
  void step_async(int generations) override { pool_->step_async(generations); }
  void wait() override { pool_->wait(); }
  void download(int region, std::span<const TileCoord> coords, std::span<Tile> current,
                std::span<Tile> previous) override {
    pool_->download(region, coords, current, previous);
  }
  void download_async(int region, std::span<const TileCoord> coords, std::span<Tile> current,
                      std::span<Tile> previous) override {
    pool_->download_async(region, coords, current, previous);
  }
  void finish_downloads() override { pool_->finish_downloads(); }
  gpu::RegionActivity activity(int region) override {
    ++calls_.activities;
    return pool_->activity(region);
  }
  void activity_async(int region, gpu::RegionActivity& out) override {
    pool_->activity_async(region, out);
  }
  gpu::TilePoolStats stats() const override { return pool_->stats(); }

 private:
  std::unique_ptr<gpu::TilePool> pool_;
  RegionCalls& calls_;
};

class HybridTest : public ::testing::TestWithParam<PoolKind> {
 protected:
  void SetUp() override {
    if (GetParam() == PoolKind::kCuda && !gpu::device_available()) {
      GTEST_SKIP() << "no GPU: " << gpu::device_unavailable_reason();
    }
  }

  std::unique_ptr<Backend> make(const HybridOptions& options) const {
    return make_hybrid_backend({.threads = 2},
                               gpu::make_tile_pool(GetParam() == PoolKind::kStandin), options);
  }
  // A hybrid priced by the fixed (default) costs, loaded with `cells` on
  // Life's plane: one whose CPU keeps every world these tests give it.
  std::unique_ptr<Backend> loaded_at_fixed_costs(const CellSet& cells) const {
    HybridOptions options;
    options.fixed_costs = hybrid::CostModel{};
    auto hybrid = make(options);
    hybrid->load(cells, Rule::conway(), Topology::plane());
    return hybrid;
  }
  std::unique_ptr<Backend> make_counted(const HybridOptions& options, RegionCalls& calls) const {
    return make_hybrid_backend({.threads = 2},
                               std::make_unique<CountingPool>(
                                   gpu::make_tile_pool(GetParam() == PoolKind::kStandin), calls),
                               options);
  }

  // Steps the hybrid and the oracle side by side and compares them at each
  // checkpoint (increasing generation counts). Returns the most tiles the
  // GPU held at a checkpoint.
  uint64_t expect_matches_reference(const CellSet& cells, const Rule& rule,
                                    const Topology& topology,
                                    const std::vector<uint64_t>& checkpoints,
                                    const HybridOptions& options) const {
    auto hybrid = make(options);
    hybrid->load(cells, rule, topology);
    auto oracle = cpu::make_bit_backend();
    oracle->load(cells, rule, topology);
    uint64_t done = 0;
    uint64_t most_gpu_tiles = 0;
    for (uint64_t checkpoint : checkpoints) {
      hybrid->step(checkpoint - done);
      oracle->step(checkpoint - done);
      done = checkpoint;
      most_gpu_tiles = std::max(most_gpu_tiles, hybrid->stats().tiles_gpu);
      EXPECT_EQ(hybrid->population(), oracle->population()) << "generation " << checkpoint;
      EXPECT_EQ(hybrid->bbox(), oracle->bbox()) << "generation " << checkpoint;
      const bool same = hybrid->cells() == oracle->cells();
      EXPECT_TRUE(same) << "generation " << checkpoint;
      if (!same) break;
    }
    return most_gpu_tiles;
  }
};

INSTANTIATE_TEST_SUITE_P(Pools, HybridTest, ::testing::Values(PoolKind::kStandin, PoolKind::kCuda),
                         kind_name);

TEST_P(HybridTest, PlaneSoupsOfSeveralDensitiesMatchTheReference) {
  for (double density : {0.15, 0.35, 0.5}) {
    SCOPED_TRACE(density);
    const CellSet cells = soup(700, 600, density, 31).translated(-300, -200);
    const uint64_t gpu_tiles = expect_matches_reference(
        cells, Rule::conway(), Topology::plane(), {1, 32, 33, 100, 257, 511}, eager_options());
    EXPECT_GT(gpu_tiles, 0u) << "the soup never reached the GPU";
  }
}

TEST_P(HybridTest, TorusSoupsMatchTheReference) {
  // Large enough for a region with a ring, and small enough (5 x 4 tiles)
  // for the whole torus to become one wrapping region.
  const uint64_t gpu_tiles =
      expect_matches_reference(soup(1024, 768, 0.4, 32), Rule::conway(), Topology::torus(1024, 768),
                               {1, 2, 45, 96, 301}, eager_options());
  EXPECT_GT(gpu_tiles, 0u);
  expect_matches_reference(soup(320, 256, 0.5, 33), Rule::conway(), Topology::torus(320, 256),
                           {1, 31, 64, 200}, eager_options());
  // Partition passes further apart: the whole-torus region runs epochs
  // of several passes' length (HybridBackend::epoch_length).
  HybridOptions spaced = eager_options();
  spaced.partition_every = 2;
  spaced.max_partition_interval = 8;
  expect_matches_reference(soup(320, 256, 0.5, 38), Rule::conway(), Topology::torus(320, 256),
                           {1, 31, 64, 200, 777}, spaced);
  // A sparse soup in one corner of a larger torus: a region that wraps
  // around the torus's edges without covering it.
  const CellSet corner = soup(400, 400, 0.5, 34).translated(-200, -200).wrapped(1536, 1536);
  expect_matches_reference(corner, Rule::conway(), Topology::torus(1536, 1536), {3, 64, 160},
                           eager_options());
}

TEST_P(HybridTest, FixedRegionsMatchTheReferenceOnPlaneAndTorus) {
  const CellSet cells = soup(600, 500, 0.45, 35).translated(-100, -100);
  expect_matches_reference(cells, Rule::conway(), Topology::plane(), {7, 64, 129, 300},
                           regions_options({{0, 0, 3, 2}, {4, 2, 1, 1}, {-2, 4, 2, 2}}, 32));
  expect_matches_reference(soup(512, 448, 0.5, 36), Rule::conway(), Topology::torus(512, 448),
                           {5, 64, 133}, regions_options({{6, 5, 4, 3}}, 19));
}

// Each ship starts at the middle of a region flying out, and outside it
// flying in (through the region and out the far side). Gliders cover the
// diagonals, lightweight spaceships the axes.
TEST_P(HybridTest, SpaceshipsCrossTheBoundaryInAllEightDirections) {
  const CellSet glider = picture({".O.", "..O", "OOO"}, 0, 0);
  const CellSet lwss = picture({".O..O", "O....", "O...O", "OOOO."}, 0, 0);
  const gpu::TileRect region{0, 0, 4, 4};  // cells 0..255
  int run = 0;
  for (const CellSet* ship : {&glider, &lwss}) {
    for (int turn = 0; turn < 4; ++turn) {
      const CellSet shape = rotated(*ship, turn);
      // Which way it flies: its live cells' bounds after one period.
      auto probe = cpu::make_bit_backend();
      probe->load(shape, Rule::conway(), Topology::plane());
      probe->step(4);
      const int64_t dx = probe->cells().bbox()->xmin - shape.bbox()->xmin;
      const int64_t dy = probe->cells().bbox()->ymin - shape.bbox()->ymin;
      ASSERT_TRUE((dx != 0 || dy != 0) && dx >= -2 && dx <= 2 && dy >= -2 && dy <= 2);
      // Generations to fly 300 cells along its direction.
      const uint64_t flight = 300 * 4 / static_cast<uint64_t>(std::max(std::abs(dx), std::abs(dy)));
      for (const bool inbound : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "turn " << turn << " velocity (" << dx << ", " << dy
                                          << ")/4 " << (inbound ? "inbound" : "outbound"));
        const int64_t back = inbound ? 300 / std::max(std::abs(dx), std::abs(dy)) : 0;
        const CellSet cells = shape.translated(128 - dx * back, 128 - dy * back);
        // Sixteen epoch lengths across the sixteen runs: 1, 3, ..., 31, 2, 4, ...
        const int k = run++ * 2 % 31 + 1;
        std::vector<uint64_t> checkpoints;
        for (uint64_t g = 37; g < flight * (inbound ? 2 : 1); g += 37) checkpoints.push_back(g);
        expect_matches_reference(cells, Rule::conway(), Topology::plane(), checkpoints,
                                 regions_options({region}, k));
      }
    }
  }
}

TEST_P(HybridTest, EveryEpochLengthAndOddGenerationCountsLandExactly) {
  const Topology torus = Topology::torus(384, 320);
  const CellSet cells = soup(384, 320, 0.5, 37);
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, Rule::conway(), torus);
  oracle->step(77);
  const CellSet expected_77 = oracle->cells();
  oracle->step(3);
  const CellSet expected_80 = oracle->cells();
  for (int k = 1; k <= gpu::kMaxEpochGenerations; ++k) {
    SCOPED_TRACE(k);
    auto hybrid = make(regions_options({{1, 1, 3, 2}}, k));
    hybrid->load(cells, Rule::conway(), torus);
    hybrid->step(77);
    EXPECT_TRUE(hybrid->cells() == expected_77);
    hybrid->step(1);
    hybrid->step(2);
    EXPECT_TRUE(hybrid->cells() == expected_80);
    EXPECT_EQ(hybrid->population(), expected_80.population());
    // An epoch never outlasts the requested generations: 77 in epochs of
    // at most k, then 1, then 2.
    const auto epochs_of = [k](uint64_t generations) {
      return (generations + static_cast<uint64_t>(k) - 1) / static_cast<uint64_t>(k);
    };
    EXPECT_EQ(hybrid->stats().epochs, epochs_of(77) + epochs_of(1) + epochs_of(2));
  }
}

TEST_P(HybridTest, AWholeTorusRegionRunsEpochsPastTheRingsReach) {
  // No ring and no CPU side: an epoch lasts max_partition_interval epochs
  // of 32 generations (fixed regions have no partition passes), and one
  // that would leave less than half that for another takes it all: 1500
  // generations are one epoch, not 1024 and 476.
  const Topology torus = Topology::torus(384, 320);
  const CellSet cells = soup(384, 320, 0.5, 39);
  auto hybrid = make(regions_options({{0, 0, 6, 5}}, 32));
  hybrid->load(cells, Rule::conway(), torus);
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, Rule::conway(), torus);
  for (uint64_t generations : {5u, 1500u, 33u}) {
    hybrid->step(generations);
    oracle->step(generations);
    EXPECT_TRUE(hybrid->cells() == oracle->cells()) << "after " << generations << " more";
    EXPECT_EQ(hybrid->population(), oracle->population());
    EXPECT_EQ(hybrid->bbox(), oracle->bbox());
  }
  EXPECT_EQ(hybrid->stats().epochs, 1u + 1u + 1u);
}

TEST_P(HybridTest, AWholeTorusRegionThatFallsAsleepReturnsToTheCpu) {
  // T-tetrominoes all over a small torus: it becomes the one wrapping
  // region, whose passes plan while the next epoch runs. Each T becomes a
  // traffic light (period 2) within ten generations, so the region goes back
  // one epoch after that, and then the world costs no epochs at all.
  const Topology torus = Topology::torus(256, 192);
  CellSet cells;
  for (int64_t y = 4; y < 192; y += 24) {
    for (int64_t x = 4; x < 256; x += 24) {
      for (const Cell& cell : picture({"OOO", ".O."}, x, y).cells()) cells.set(cell);
    }
  }
  HybridOptions options = eager_options();
  options.partition_every = 2;
  options.max_partition_interval = 4;
  auto hybrid = make(options);
  hybrid->load(cells, Rule::conway(), torus);
  EXPECT_EQ(hybrid->stats().tiles_gpu, 12u);
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, Rule::conway(), torus);
  hybrid->step(6000);
  oracle->step(6000);
  EXPECT_TRUE(hybrid->cells() == oracle->cells());
  EXPECT_EQ(hybrid->stats().tiles_gpu, 0u) << "the settled torus stayed on the GPU";
  // Settled with period 2 (as the oracle shows in two steps, not in the
  // million it took ThreadSanitizer minutes to step): the hybrid's million
  // more cost no epoch and end where they began.
  const CellSet settled = oracle->cells();
  oracle->step(2);
  ASSERT_TRUE(oracle->cells() == settled);
  const uint64_t epochs = hybrid->stats().epochs;
  hybrid->step(1000000);
  EXPECT_EQ(hybrid->stats().epochs, epochs);
  EXPECT_TRUE(hybrid->cells() == settled);
}

TEST_P(HybridTest, HighLifeAndABirthOnZeroRuleMatchTheReference) {
  const Rule highlife = parse_rule("B36/S23").rule;
  expect_matches_reference(soup(500, 400, 0.45, 38), highlife, Topology::plane(), {1, 64, 191},
                           eager_options());
  expect_matches_reference(soup(512, 384, 0.45, 39), highlife, Topology::torus(512, 384), {5, 100},
                           regions_options({{2, 1, 3, 3}}, 32));
  // B0 (with S8, so the torus does not flash between all and nothing
  // forever): every tile is active every generation.
  const Rule b0 = parse_rule("B0123478/S34678").rule;
  const Topology torus = Topology::torus(512, 384);
  expect_matches_reference(soup(512, 384, 0.5, 40), b0, torus, {1, 2, 33, 90},
                           regions_options({{3, 2, 2, 3}}, 32));
  expect_matches_reference(soup(512, 384, 0.5, 40), b0, torus, {1, 2, 33, 90}, eager_options());
}

TEST_P(HybridTest, ClustersMigrateBetweenTheSidesAsTheyGrowAndSettle) {
  // Two soups too far apart to meet in the run. Their clusters go to the
  // GPU, grow there (in place, the pool keeping the tiles it has) and come
  // back as they settle into ash.
  CellSet cells = soup(160, 160, 0.4, 3);
  for (const Cell& cell : soup(192, 192, 0.3, 5).translated(1536, 0).cells()) cells.set(cell);
  RegionCalls calls;
  auto hybrid = make_counted(eager_options(), calls);
  hybrid->load(cells, Rule::conway(), Topology::plane());
  std::vector<uint64_t> tiles;
  for (int stretch = 0; stretch < 40; ++stretch) {
    hybrid->step(64);
    tiles.push_back(hybrid->stats().tiles_gpu);
  }
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, Rule::conway(), Topology::plane());
  oracle->step(40 * 64);
  EXPECT_TRUE(hybrid->cells() == oracle->cells());
  EXPECT_GT(tiles.front(), 0u) << "the soups did not go to the GPU";
  // A rise: a region grew (or another came).
  EXPECT_NE(std::adjacent_find(tiles.begin(), tiles.end(), std::less<>()), tiles.end())
      << ::testing::PrintToString(tiles);
  EXPECT_EQ(tiles.back(), 0u) << "the settled clusters did not come back: "
                              << ::testing::PrintToString(tiles);
  EXPECT_GT(hybrid->stats().bytes_downloaded, 0u);
  EXPECT_GT(calls.grown, 0) << "no region grew in place";
}

TEST_P(HybridTest, ALogRowDownloadsEachRegionsActivityOnce) {
  // A log row reads the population, then the box: each stepped region's
  // activity is brought down for the first and kept for the second, until
  // the world changes.
  const CellSet cells = soup(256, 256, 0.4, 8);
  RegionCalls calls;
  auto hybrid = make_counted(regions_options({{0, 0, 4, 4}}, 8), calls);
  hybrid->load(cells, Rule::conway(), Topology::plane());
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, Rule::conway(), Topology::plane());
  for (uint64_t generations : {8, 16, 1}) {
    hybrid->step(generations);
    oracle->step(generations);
    const int before = calls.activities;
    EXPECT_EQ(hybrid->population(), oracle->population());
    EXPECT_EQ(hybrid->bbox(), oracle->bbox());
    EXPECT_EQ(hybrid->population(), oracle->population());
    EXPECT_EQ(calls.activities - before, 1) << "after " << generations << " generations";
  }
}

TEST_P(HybridTest, AWorldLeftToTheCpuRunsOnUntilThePartitionPasses) {
  // Two gliders stay on the CPU (no cluster is worth a region), so epochs
  // last until the next pass: passes every 4 epochs of 32, then ever less
  // often up to every 32, so 3200 generations take 5 epochs (128, 256, 512,
  // 1024, and 1280 rather than 1024 and 256), not 100.
  const CellSet cells = picture({".O.", "..O", "OOO"}, 0, 0);
  CellSet both = cells;
  for (const Cell& cell : cells.translated(500, -300).cells()) both.set(cell);
  auto hybrid = loaded_at_fixed_costs(both);
  auto oracle = cpu::make_bit_backend();
  oracle->load(both, Rule::conway(), Topology::plane());
  hybrid->step(3200);
  oracle->step(3200);
  EXPECT_TRUE(hybrid->cells() == oracle->cells());
  EXPECT_EQ(hybrid->stats().tiles_gpu, 0u);
  EXPECT_EQ(hybrid->stats().epochs, 5u);
}

// Pulsars (period 3: always active) on a grid `spacing` cells apart, each
// inside one tile, too far apart for a block of tiles to count as dense:
// active tiles enough for two strips that no partition gives the GPU.
CellSet pulsar_field(int side, int64_t spacing) {
  const CellSet pulsar = patterns::builtin_pattern("pulsar").cells;
  CellSet field;
  for (int row = 0; row < side; ++row) {
    for (int column = 0; column < side; ++column) {
      for (const Cell& cell :
           pulsar.translated(column * spacing + 20, row * spacing + 20).cells()) {
        field.set(cell);
      }
    }
  }
  return field;
}

// Steps the hybrid and simd on one thread (which never cuts strips) through
// the checkpoints, comparing their cells at each.
void expect_matches_one_thread(Backend& hybrid, const CellSet& cells,
                               const std::vector<uint64_t>& checkpoints) {
  auto simd = make_sparse_backend({.threads = 1}, cpu::SimdLibrary::kHighway);
  simd->load(cells, Rule::conway(), Topology::plane());
  uint64_t done = 0;
  for (uint64_t checkpoint : checkpoints) {
    hybrid.step(checkpoint - done);
    simd->step(checkpoint - done);
    done = checkpoint;
    EXPECT_EQ(hybrid.population(), simd->population()) << "generation " << checkpoint;
    EXPECT_EQ(hybrid.bbox(), simd->bbox()) << "generation " << checkpoint;
    EXPECT_TRUE(hybrid.cells() == simd->cells()) << "generation " << checkpoint;
  }
}

TEST_P(HybridTest, AWorldLeftToTheCpuIsSteppedInStripsAsSimdSteps) {
  // No region is worth its cost here, so the CPU holds the world alone and
  // cuts it into strips as simd does, keeping them from call to call: the
  // reads between calls must see every strip.
  CellSet cells = pulsar_field(7, 600);
  for (const Cell& cell : patterns::builtin_pattern("acorn").cells.translated(1500, 1800).cells()) {
    cells.set(cell);
  }
  auto hybrid = loaded_at_fixed_costs(cells);
  expect_matches_one_thread(*hybrid, cells, {1400, 1700, 3000});
  EXPECT_EQ(hybrid->stats().tiles_gpu, 0u);
  EXPECT_GT(hybrid->stats().strip_segments, 0u);
}

TEST_P(HybridTest, AWorldInStripsIsMergedBeforeARegionIsAdded) {
  // The spacefiller grows into a cluster that the eager costs give the GPU,
  // some epochs after the pulsars' world was cut into strips (its epochs
  // are worth a crew: 169 pulsars). Regions hold the grid's slots, so the
  // strips are merged first.
  CellSet cells = pulsar_field(13, 600);
  for (const Cell& cell :
       patterns::builtin_pattern("spacefiller").cells.translated(1500, 1800).cells()) {
    cells.set(cell);
  }
  RegionCalls calls;
  auto hybrid = make_counted(eager_options(), calls);
  hybrid->load(cells, Rule::conway(), Topology::plane());
  ASSERT_EQ(calls.added, 0);
  expect_matches_one_thread(*hybrid, cells, {400, 1000, 1600});
  EXPECT_GT(calls.added, 0);
  EXPECT_GT(hybrid->stats().strip_segments, 0u);
}

// Six gliders flying apart, and a block they leave behind.
CellSet gliders_leaving_a_block() {
  const CellSet glider = picture({".O.", "..O", "OOO"}, 0, 0);
  CellSet cells = picture({"OO", "OO"}, -200, -200);
  for (int i = 0; i < 6; ++i) {
    for (const Cell& cell : glider.translated(300 * i, -150 * i).cells()) cells.set(cell);
  }
  return cells;
}

TEST_P(HybridTest, GlidersFlyOnFromStretchToStretchWhileTheTilesSleep) {
  // Six gliders leave a block behind: once they fly, no tile is active,
  // yet the world is not asleep. They stay in flight between the stretches
  // of one call (a partition pass comes every few hundred generations) and
  // land before the reads.
  const CellSet cells = gliders_leaving_a_block();
  auto hybrid = loaded_at_fixed_costs(cells);
  expect_matches_one_thread(*hybrid, cells, {3000, 3001, 9000});
  EXPECT_EQ(hybrid->population(), 4u + 6u * 5u);
}

TEST_P(HybridTest, GlidersFlyOnBetweenCallsWhenMoreStepsFollow) {
  // A run in chunks (gol run's): the gliders stay flying from call to
  // call, counted by the population and the cells read between them, and
  // land in the last.
  const CellSet cells = gliders_leaving_a_block();
  auto hybrid = loaded_at_fixed_costs(cells);
  auto simd = make_sparse_backend({.threads = 1}, cpu::SimdLibrary::kHighway);
  simd->load(cells, Rule::conway(), Topology::plane());
  for (int call = 1; call <= 4; ++call) {
    hybrid->expect_more_steps(call < 4);
    hybrid->step(1000);
    simd->step(1000);
    EXPECT_EQ(hybrid->stats().gliders_flying, call < 4 ? 6u : 0u) << "call " << call;
    EXPECT_EQ(hybrid->population(), simd->population()) << "call " << call;
    EXPECT_EQ(hybrid->bbox(), simd->bbox()) << "call " << call;
    EXPECT_TRUE(hybrid->cells() == simd->cells()) << "call " << call;
  }
}

TEST_P(HybridTest, CellsComputedOnTheCpuAreCountedAsTheSimdBackendCountsThem) {
  // With no region, the hybrid steps the same bands as simd: its cells
  // computed are those bands, not whole tiles. (A generation a call: over
  // longer calls both may step plane blocks of whole tiles, where their
  // calls end and so where the blocks fall differ.)
  const CellSet gun = patterns::builtin_pattern("gosper-gun").cells;
  auto hybrid = loaded_at_fixed_costs(gun);
  auto simd = make_sparse_backend({.threads = 2}, cpu::SimdLibrary::kHighway);
  simd->load(gun, Rule::conway(), Topology::plane());
  for (int generation = 0; generation < 400; ++generation) {
    hybrid->step(1);
    simd->step(1);
  }
  ASSERT_EQ(hybrid->stats().tiles_gpu, 0u);
  // Gliders leave the gun through partly stepped tiles, so whole tiles
  // would count more.
  EXPECT_NE(simd->stats().cells_computed % (kTileSize * kTileSize), 0u);
  EXPECT_EQ(hybrid->stats().cells_computed, simd->stats().cells_computed);
  EXPECT_TRUE(hybrid->cells() == simd->cells());
}

// A block and a blinker, the blinker in the phase of an even generation
// (`odd` false) or an odd one.
CellSet block_and_blinker(bool odd) {
  CellSet cells = picture({"OO", "OO"}, 10, 10);
  const CellSet blinker = odd ? picture({"O", "O", "O"}, 301, 39) : picture({"OOO"}, 300, 40);
  for (const Cell& cell : blinker.cells()) cells.set(cell);
  return cells;
}

TEST_P(HybridTest, SleepingWorldsCostNothing) {
  // Blocks and blinkers: after a few generations nothing is active, on
  // either side, and a billion generations take no epochs.
  auto hybrid = make(eager_options());
  hybrid->load(block_and_blinker(false), Rule::conway(), Topology::plane());
  hybrid->step(64);
  const uint64_t epochs = hybrid->stats().epochs;
  hybrid->step(1000000001);
  EXPECT_EQ(hybrid->stats().epochs, epochs);
  EXPECT_EQ(hybrid->population(), 7u);
  EXPECT_TRUE(hybrid->cells() == block_and_blinker(true));
}

TEST_P(HybridTest, AWorldFallingAsleepWithinACallCostsNoMoreEpochs) {
  // As above, but awake when the call starts, and with more steps to
  // follow or not: once asleep, the rest of the call costs no epoch.
  const CellSet odd = block_and_blinker(true);
  for (bool more_follow : {false, true}) {
    auto hybrid = make(eager_options());
    hybrid->load(block_and_blinker(false), Rule::conway(), Topology::plane());
    hybrid->expect_more_steps(more_follow);
    hybrid->step(1000000001);
    EXPECT_LE(hybrid->stats().epochs, 4u) << (more_follow ? "more follow" : "the last call");
    EXPECT_TRUE(hybrid->cells() == odd);
  }
}

TEST(HybridRegistry, NeedsAGpuAndHasAStandinEverywhere) {
  const BackendRegistry& registry = BackendRegistry::builtin();
  const WorkloadHint hint{Topology::plane(), 1, BBox{0, 0, 0, 0}};
  if (gpu::device_available()) {
    EXPECT_EQ(registry.resolve("auto", hint).name, "hybrid");
  } else {
    try {
      registry.resolve("hybrid", hint);
      ADD_FAILURE() << "hybrid resolved without a GPU";
    } catch (const RuntimeError& error) {
      EXPECT_EQ(error.code(), ExitCode::kRuntime);
      EXPECT_NE(std::string(error.what()).find("hybrid"), std::string::npos);
    }
    EXPECT_NE(registry.resolve("auto", hint).name, "hybrid-standin");
  }
  auto standin = registry.create("hybrid-standin", {}, hint);
  EXPECT_EQ(standin->name(), "hybrid-standin");
  EXPECT_THROW(standin->load(CellSet{}, parse_rule("B0/S").rule, Topology::plane()), InputError);
}

}  // namespace
}  // namespace gol
