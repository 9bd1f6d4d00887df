// The "simd" and "simd-xsimd" backends against the bit reference: soups on
// torus and plane with 1, 2 and 4 threads, stats, registry names.
#include "engine/sparse_backend.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "cpu/reference/reference_backends.h"
#include "engine/backend_registry.h"
#include "engine/core/error.h"
#include "patterns/catalogue.h"
#include "patterns/soup.h"

namespace gol {
namespace {

struct Config {
  cpu::SimdLibrary library;
  int threads;
};

std::vector<Config> every_config() {
  std::vector<Config> configs;
  for (cpu::SimdLibrary library : {cpu::SimdLibrary::kHighway, cpu::SimdLibrary::kXsimd}) {
    for (int threads : {1, 2, 4}) configs.push_back({library, threads});
  }
  return configs;
}

// A Highway backend of `threads` threads holding the spacefiller on Life's
// plane: on two threads a run of 1000 generations in one call cuts it into
// strips.
std::unique_ptr<Backend> spacefiller_on(int threads) {
  auto backend = make_sparse_backend({threads}, cpu::SimdLibrary::kHighway);
  backend->load(patterns::builtin_pattern("spacefiller").cells, Rule::conway(), Topology::plane());
  return backend;
}

// Steps every configuration and the oracle side by side, comparing cells,
// population and box at each checkpoint.
void expect_all_match_reference(const CellSet& cells, const Rule& rule, const Topology& topology,
                                const std::vector<uint64_t>& checkpoints) {
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, rule, topology);
  std::vector<std::unique_ptr<Backend>> backends;
  for (const Config& config : every_config()) {
    backends.push_back(make_sparse_backend({config.threads}, config.library));
    backends.back()->load(cells, rule, topology);
  }
  uint64_t done = 0;
  for (uint64_t checkpoint : checkpoints) {
    oracle->step(checkpoint - done);
    const CellSet expected = oracle->cells();
    for (size_t i = 0; i < backends.size(); ++i) {
      backends[i]->step(checkpoint - done);
      ASSERT_EQ(backends[i]->population(), expected.population())
          << backends[i]->name() << " config " << i << " generation " << checkpoint;
      ASSERT_TRUE(backends[i]->cells() == expected)
          << backends[i]->name() << " config " << i << " generation " << checkpoint;
      ASSERT_EQ(backends[i]->bbox(), expected.bbox())
          << backends[i]->name() << " config " << i << " generation " << checkpoint;
    }
    done = checkpoint;
  }
}

TEST(SparseBackend, APopulationAndBoxReadEveryGenerationMatchTheReference) {
  // Each tile's count of cells, and the tiles with cells by column and row,
  // are kept from read to read and counted again only after a write: read
  // every generation, and now and then after a
  // longer step (plane and torus blocks, strips, gliders flying), with more
  // steps to follow, so the reads do not land the gliders.
  struct World {
    CellSet cells;
    Topology topology;
  };
  const World worlds[] = {
      {patterns::make_soup({400, 300, 0.45, 21}).translated(-130, -70), Topology::plane()},
      {patterns::builtin_pattern("spacefiller").cells, Topology::plane()},
      {patterns::make_soup({512, 384, 0.5, 22}), Topology::torus(512, 384)},
  };
  for (const World& world : worlds) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(world.topology.to_string() + ", " + std::to_string(threads) + " threads");
      auto backend = make_sparse_backend({threads}, cpu::SimdLibrary::kHighway);
      backend->load(world.cells, Rule::conway(), world.topology);
      backend->expect_more_steps(true);
      auto oracle = cpu::make_bit_backend();
      oracle->load(world.cells, Rule::conway(), world.topology);
      for (uint64_t generation = 1; generation <= 400; ++generation) {
        const uint64_t step = generation % 50 == 0 ? 61 : 1;
        backend->step(step);
        oracle->step(step);
        ASSERT_EQ(backend->population(), oracle->population()) << "read " << generation;
        ASSERT_EQ(backend->bbox(), oracle->bbox()) << "read " << generation;
      }
    }
  }
}

TEST(SparseBackend, ARunInChunksIsCutIntoStripsForTheRunAndReadBetweenTheChunks) {
  // Told the run's length, chunks too short to cut the world into strips
  // alone are stepped in strips kept from chunk to chunk, and the reads
  // between them (a log row's) count each strip's own tiles, not its copies
  // of the columns beside it.
  const CellSet cells = patterns::make_soup({900, 700, 0.45, 23}).translated(-450, -350);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto backend = make_sparse_backend({threads}, cpu::SimdLibrary::kHighway);
    backend->load(cells, Rule::conway(), Topology::plane());
    auto oracle = cpu::make_bit_backend();
    oracle->load(cells, Rule::conway(), Topology::plane());
    constexpr uint64_t kRun = 1200;
    constexpr uint64_t kChunk = 50;
    for (uint64_t done = 0; done < kRun; done += kChunk) {
      backend->expect_more_steps(done + kChunk < kRun);
      backend->expect_run_length(kRun - done);
      backend->step(kChunk);
      oracle->step(kChunk);
      ASSERT_EQ(backend->population(), oracle->population()) << "generation " << done + kChunk;
      ASSERT_EQ(backend->bbox(), oracle->bbox()) << "generation " << done + kChunk;
    }
    EXPECT_TRUE(backend->cells() == oracle->cells());
    EXPECT_GT(backend->stats().strip_segments, 0u) << "the world was never cut";
  }
}

TEST(SparseBackend, CallsTooShortToWakeTheWorkersForStepTheWholeWorldHere) {
  // A log row every generation of the spacefiller: each call is a
  // generation of a few hundred tiles, less work than waking the workers
  // and waiting for them to leave. The world stays whole and steps on the
  // calling thread; cut into strips, both strips ran one after the other.
  auto per_generation = spacefiller_on(2);
  auto in_one = spacefiller_on(2);
  constexpr uint64_t kRun = 1500;
  for (uint64_t done = 0; done < kRun; ++done) {
    per_generation->expect_more_steps(done + 1 < kRun);
    per_generation->expect_run_length(kRun - done);
    per_generation->step(1);
  }
  in_one->step(kRun);
  EXPECT_TRUE(per_generation->cells() == in_one->cells());
  EXPECT_EQ(per_generation->stats().strip_segments, 0u);
  EXPECT_GT(in_one->stats().strip_segments, 0u) << "a run in one call is cut";
}

TEST(SparseBackend, TorusSoupMatchesTheReferenceForEveryThreadCountAndLibrary) {
  // 32 x 33 tiles: above the backend's threshold for stepping in parallel.
  const CellSet soup = patterns::make_soup({2048, 2112, 0.5, 11});
  expect_all_match_reference(soup, Rule::conway(), Topology::torus(2048, 2112), {1, 2, 7, 40});
}

TEST(SparseBackend, PlaneSoupMatchesTheReferenceForEveryThreadCountAndLibrary) {
  const CellSet soup = patterns::make_soup({2100, 2080, 0.5, 12}).translated(-333, -100);
  expect_all_match_reference(soup, Rule::conway(), Topology::plane(), {1, 4, 33, 101});
  // A smaller one, stepped on the calling thread, for longer.
  expect_all_match_reference(patterns::make_soup({300, 280, 0.5, 14}), Rule::conway(),
                             Topology::plane(), {5, 150, 301});
}

// Growth and motion through band and tile edges: quadratic growth (the
// spacefiller's agar front, the breeder's guns), a puffer's trail, and a
// field of gliders in all four directions crossing each other's debris.
TEST(SparseBackend, GrowthPatternsMatchTheReferenceForEveryThreadCountAndLibrary) {
  expect_all_match_reference(patterns::builtin_pattern("spacefiller").cells, Rule::conway(),
                             Topology::plane(), {1, 7, 64, 200});
  expect_all_match_reference(patterns::builtin_pattern("breeder").cells, Rule::conway(),
                             Topology::plane(), {2, 90, 240});
  expect_all_match_reference(patterns::builtin_pattern("puffer-train").cells, Rule::conway(),
                             Topology::plane(), {33, 400});
  CellSet gliders;
  const char* const kShapes[4][3] = {
      {".O.", "..O", "OOO"}, {".O.", "O..", "OOO"}, {"OOO", "..O", ".O."}, {"OOO", "O..", ".O."}};
  for (int64_t i = 0; i < 24; ++i) {
    const int64_t x = (i * 37) % 300;
    const int64_t y = (i * 53) % 280;
    const auto& shape = kShapes[i % 4];
    for (int64_t row = 0; row < 3; ++row) {
      for (int64_t column = 0; column < 3; ++column) {
        if (shape[row][column] == 'O') gliders.set(x + column, y + row);
      }
    }
  }
  expect_all_match_reference(gliders, Rule::conway(), Topology::plane(), {1, 50, 130, 300});
}

// Between steps a world may be held in strips (GridStepper::world_parts,
// a spacefiller on two threads is after 1000 generations): every read sees
// the world, each tile once, as the world stepped whole on one thread; and
// a world loaded in its place drops the strips. It reports the tiles it
// steps as the whole world does.
TEST(SparseBackend, ReadsAWorldHeldInStripsBetweenSteps) {
  auto whole = spacefiller_on(1);
  auto cut = spacefiller_on(2);
  for (uint64_t generations : {1000, 300, 7}) {
    whole->step(generations);
    cut->step(generations);
    const CellSet expected = whole->cells();
    EXPECT_EQ(cut->population(), expected.population());
    EXPECT_TRUE(cut->cells() == expected);
    EXPECT_EQ(cut->bbox(), expected.bbox());
    CellSet visited;
    cut->visit_tiles([&](TileCoord coord, const Tile& tile) {
      EXPECT_EQ(visited.find_tile(coord), nullptr) << "tile visited twice";
      visited.put_tile(coord, tile);
    });
    EXPECT_TRUE(visited == expected);
    std::vector<CellSet> by_part(cut->tile_parts());
    cut->visit_tiles_in_parts([&](size_t part, TileCoord coord, const Tile& tile) {
      by_part[part].put_tile(coord, tile);
    });
    CellSet in_parts;
    for (const CellSet& part : by_part) {
      for (const auto& [coord, tile] : part.tiles()) {
        EXPECT_EQ(in_parts.find_tile(coord), nullptr) << "tile visited in two parts";
        in_parts.put_tile(coord, tile);
      }
    }
    EXPECT_TRUE(in_parts == expected);
    EXPECT_GE(cut->stats().tiles_total, expected.tiles().size());
    // Each strip also steps its cut's columns; they are counted once (not
    // equal: the strips and the whole world start plane blocks, which list
    // tiles to their end, in different generations).
    const auto active = static_cast<double>(whole->stats().tiles_active);
    EXPECT_NEAR(static_cast<double>(cut->stats().tiles_active), active, active / 8);
  }
  EXPECT_GT(cut->stats().strip_segments, 0u);
  const CellSet soup = patterns::make_soup({256, 256, 0.4, 14});
  cut->load(soup, Rule::conway(), Topology::plane());
  EXPECT_TRUE(cut->cells() == soup);
  EXPECT_GE(cut->stats().tiles_total, soup.tiles().size());
}

TEST(SparseBackend, OtherRulesMatchTheReference) {
  const CellSet soup = patterns::make_soup({512, 512, 0.4, 13});
  expect_all_match_reference(soup, parse_rule("B36/S23").rule, Topology::plane(), {1, 40, 99});
  expect_all_match_reference(soup, parse_rule("B0123478/S34678").rule, Topology::torus(512, 512),
                             {1, 2, 25});
}

TEST(SparseBackend, StatsCountSteppedTilesAndSleep) {
  auto backend = make_sparse_backend({1}, cpu::SimdLibrary::kHighway);
  CellSet block;
  for (int64_t y : {10, 11}) {
    for (int64_t x : {10, 11}) block.set(x, y);
  }
  backend->load(block, Rule::conway(), Topology::plane());
  EXPECT_FALSE(backend->stats().simd_target.empty());
  EXPECT_EQ(backend->stats().threads, 1);
  EXPECT_EQ(make_sparse_backend({3}, cpu::SimdLibrary::kXsimd)->stats().threads, 3);
  EXPECT_EQ(backend->stats().tiles_total, 1u);
  backend->step(1);
  EXPECT_EQ(backend->stats().tiles_active, 1u);
  EXPECT_EQ(backend->stats().cells_computed, 4096u);
  // Unchanged for a generation, the block's tile sleeps from now on.
  backend->step(1000000000000ull);
  EXPECT_EQ(backend->stats().tiles_active, 0u);
  EXPECT_EQ(backend->stats().cells_computed, 4096u);
  EXPECT_TRUE(backend->cells() == block);
  EXPECT_EQ(backend->population(), 4u);
}

TEST(SparseBackend, ABlinkerFieldSleepsWhilePopulationAndPhaseStayRight) {
  CellSet field;
  for (int64_t i = 0; i < 40; ++i) {
    // Blinkers 16 cells apart, some across tile edges.
    for (int64_t k = 0; k < 3; ++k) field.set(i * 16 % 256 + 62 + k, i * 16 / 256 * 16 + 63);
  }
  auto backend = make_sparse_backend({2}, cpu::SimdLibrary::kHighway);
  backend->load(field, Rule::conway(), Topology::plane());
  auto oracle = cpu::make_bit_backend();
  oracle->load(field, Rule::conway(), Topology::plane());
  for (uint64_t generations : {3, 1, 1, 10, 1}) {
    backend->step(generations);
    oracle->step(generations);
    EXPECT_EQ(backend->population(), 120u);
    EXPECT_TRUE(backend->cells() == oracle->cells());
  }
  EXPECT_EQ(backend->stats().tiles_active, 0u);
  EXPECT_GT(backend->stats().tiles_total, 0u);
}

TEST(SparseBackend, RefusesBirthOnZeroOnThePlane) {
  auto backend = make_sparse_backend({1}, cpu::SimdLibrary::kHighway);
  EXPECT_THROW(backend->load(CellSet{}, parse_rule("B0/S").rule, Topology::plane()), InputError);
}

TEST(SparseBackend, RegisteredAsTheBestCpuPath) {
  const BackendRegistry& registry = BackendRegistry::builtin();
  const WorkloadHint hint{Topology::plane(), 0, std::nullopt};
  EXPECT_EQ(registry.resolve("cpu", hint).name, "simd");
  EXPECT_EQ(registry.create("simd", {2}, hint)->name(), "simd");
  EXPECT_EQ(registry.create("simd-xsimd", {2}, hint)->name(), "simd-xsimd");
}

}  // namespace
}  // namespace gol
