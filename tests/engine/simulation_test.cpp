// Simulation: rule and topology overrides, wrapping onto a torus, generation
// bookkeeping, and backend choice through the registry.
#include "engine/simulation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/error.h"

namespace gol {
namespace {

SimulationOptions with_backend(const std::string& name) {
  SimulationOptions options;
  options.backend = name;
  return options;
}

Pattern blinker_at(int64_t x, int64_t y) {
  Pattern p;
  for (int i = 0; i < 3; ++i) p.cells.set(x + i, y);
  return p;
}

TEST(Simulation, PatternRuleAndTopologyApplyUnlessOverridden) {
  Pattern p = blinker_at(0, 0);
  p.rule = parse_rule("B36/S23").rule;
  p.topology = Topology::torus(64, 64);
  const Simulation from_file(p, with_backend("serial"));
  EXPECT_EQ(from_file.rule().to_string(), "B36/S23");
  EXPECT_TRUE(from_file.topology().is_torus());

  SimulationOptions options = with_backend("serial");
  options.rule = Rule::conway();
  options.topology = Topology::plane();
  const Simulation overridden(p, options);
  EXPECT_TRUE(overridden.rule().is_conway());
  EXPECT_FALSE(overridden.topology().is_torus());
}

TEST(Simulation, CellsOutsideTheTorusAreWrapped) {
  SimulationOptions options = with_backend("bit");
  options.topology = Topology::torus(64, 128);
  Simulation world(blinker_at(-1, -1), options);
  EXPECT_EQ(world.cells().cells(), (std::vector<Cell>{{0, 127}, {1, 127}, {63, 127}}));
  world.advance(2);
  EXPECT_EQ(world.population(), 3u);
}

TEST(Simulation, CountsGenerationsFromThePatternsOwn) {
  Pattern p = blinker_at(10, 10);
  p.generation = 100;
  Simulation world(p, with_backend("nibble"));
  world.advance(3);
  EXPECT_EQ(world.generation(), 103u);
  EXPECT_EQ(world.snapshot().generation, 103u);
  // A blinker after an odd number of generations stands vertically.
  CellSet vertical;
  for (int i = 0; i < 3; ++i) vertical.set(11, 9 + i);
  EXPECT_EQ(world.snapshot().cells, vertical);
}

TEST(Simulation, RefusesBirthOnZeroOnThePlane) {
  SimulationOptions options = with_backend("serial");
  options.rule = parse_rule("B03/S23").rule;
  EXPECT_THROW(Simulation(blinker_at(0, 0), options), InputError);
  options.topology = Topology::torus(64, 64);
  EXPECT_NO_THROW(Simulation(blinker_at(0, 0), options));
}

TEST(Simulation, UnknownBackendIsAUsageError) {
  EXPECT_THROW(Simulation(blinker_at(0, 0), with_backend("abacus")), UsageError);
}

TEST(Simulation, AutoAndCpuPickARealBackend) {
  const Simulation automatic(blinker_at(0, 0), with_backend("auto"));
  const Simulation cpu(blinker_at(0, 0), with_backend("cpu"));
  EXPECT_NE(automatic.backend_name(), "auto");
  EXPECT_NE(cpu.backend_name(), "cpu");
  EXPECT_NE(BackendRegistry::builtin().find(cpu.backend_name()), nullptr);
  EXPECT_TRUE(BackendRegistry::builtin().find(cpu.backend_name())->is_cpu);
}

// Scattered 16x16 soups far apart, so the world has many tiles and empty
// ones between them.
Pattern scattered_soups() {
  Pattern p;
  uint64_t state = 12345;
  for (int64_t block = 0; block < 6; ++block) {
    for (int64_t y = 0; y < 16; ++y) {
      for (int64_t x = 0; x < 16; ++x) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        if (state >> 63) p.cells.set(block * 150 - 400 + x, block * 97 - 300 + y);
      }
    }
  }
  return p;
}

// What a world says once a step has stopped part of the way: the reads and
// steps that would see its tiles at different generations refuse, naming
// the first failure; what it knew before the step stays readable.
void expect_spoilt(Simulation& world, uint64_t generation, const std::string& cause) {
  EXPECT_EQ(world.generation(), generation);
  const auto expect_refused = [&](const char* what, const std::function<void()>& call) {
    try {
      call();
      ADD_FAILURE() << what << " read a spoilt world";
    } catch (const RuntimeError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("unusable"), std::string::npos) << what << ": " << message;
      EXPECT_NE(message.find(cause), std::string::npos) << what << ": " << message;
      EXPECT_NE(message.find("from generation " + std::to_string(generation)), std::string::npos)
          << what << ": " << message;
    }
  };
  expect_refused("population", [&] { (void)world.population(); });
  expect_refused("cells", [&] { (void)world.cells(); });
  expect_refused("bbox", [&] { (void)world.bbox(); });
  expect_refused("snapshot", [&] { (void)world.snapshot(); });
  expect_refused("visit_tiles", [&] { world.visit_tiles([](TileCoord, const Tile&) {}); });
  expect_refused("advance", [&] { world.advance(1); });
}

TEST(Simulation, AStepStoppedPartOfTheWaySpoilsTheWorld) {
  constexpr int64_t kEdge = int64_t{1} << 62;
  for (const int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    SimulationOptions options = with_backend("simd");
    options.backend_options.threads = threads;
    // A vertical blinker on the plane's last column: its next phase needs
    // x = 2^62.
    Pattern edge_blinker;
    edge_blinker.generation = 7;
    for (int64_t y : {0, 1, 2}) edge_blinker.cells.set(kEdge - 1, y);
    Simulation refused(edge_blinker, options);
    EXPECT_THROW(refused.advance(10), RuntimeError);
    expect_spoilt(refused, 7, "x = 2^62");

    // Busy soups near the origin while a glider far east flies off the
    // plane: the step stops at the crossing, part of the way through.
    Pattern soups_and_glider = scattered_soups();
    for (auto [x, y] :
         std::vector<std::pair<int64_t, int64_t>>{{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
      soups_and_glider.cells.set(kEdge - 40 + x, 1000 + y);
    }
    Simulation flown(soups_and_glider, options);
    flown.advance(20);
    EXPECT_THROW(flown.advance(1000), RuntimeError);
    expect_spoilt(flown, 20, "x = 2^62");
  }
}

TEST(Simulation, VisitTilesSeesEachLiveTileOfCellsOnce) {
  for (const std::string backend : {"serial", "bit", "simd", "simd-xsimd", "hybrid-standin"}) {
    for (const bool torus : {false, true}) {
      SCOPED_TRACE(backend + (torus ? " on a torus" : " on the plane"));
      SimulationOptions options = with_backend(backend);
      if (torus) options.topology = Topology::torus(512, 384);
      Simulation world(scattered_soups(), options);
      world.advance(40);
      CellSet visited;
      world.visit_tiles([&](TileCoord coord, const Tile& tile) {
        EXPECT_FALSE(tile.empty());
        EXPECT_EQ(visited.find_tile(coord), nullptr) << "tile visited twice";
        visited.put_tile(coord, tile);
      });
      EXPECT_EQ(visited, world.cells());
      EXPECT_GT(world.population(), 0u);
    }
  }
}

TEST(Simulation, VisitingInPartsSeesEachLiveTileOnceAndKeepsEachPartToOneThreadAtATime) {
  for (const std::string backend : {"simd", "bit"}) {
    for (const int threads : {1, 2, 3}) {
      for (const bool torus : {false, true}) {
        SCOPED_TRACE(backend + " on " + std::to_string(threads) + " threads" +
                     (torus ? " on a torus" : " on the plane"));
        SimulationOptions options = with_backend(backend);
        options.backend_options.threads = threads;
        if (torus) options.topology = Topology::torus(512, 384);
        Simulation world(scattered_soups(), options);
        world.advance(40);
        const size_t parts = world.tile_parts();
        ASSERT_GE(parts, 1u);
        if (backend == "simd") {
          EXPECT_EQ(parts, static_cast<size_t>(threads));
        }
        // Each part's tiles kept apart, written without a lock: the parts
        // must not run a part's calls at once.
        std::vector<CellSet> by_part(parts);
        std::vector<std::atomic<int>> inside(parts);
        world.visit_tiles_in_parts([&](size_t part, TileCoord coord, const Tile& tile) {
          ASSERT_LT(part, parts);
          EXPECT_EQ(inside[part].fetch_add(1), 0) << "two calls of one part at once";
          EXPECT_FALSE(tile.empty());
          by_part[part].put_tile(coord, tile);
          inside[part].fetch_sub(1);
        });
        CellSet visited;
        size_t tiles = 0;
        for (const CellSet& part : by_part) {
          for (const auto& [coord, tile] : part.tiles()) {
            EXPECT_EQ(visited.find_tile(coord), nullptr) << "tile visited in two parts";
            visited.put_tile(coord, tile);
            ++tiles;
          }
        }
        EXPECT_EQ(visited, world.cells());
        EXPECT_GT(tiles, 8u);
        if (backend == "simd" && threads > 1) {
          EXPECT_GT(by_part.back().tiles().size(), 0u) << "the last part was given no tiles";
        }
      }
    }
  }
}

}  // namespace
}  // namespace gol
