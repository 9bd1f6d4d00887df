// Published results for classic patterns, reproduced through Simulation with
// the reference backends: the end-to-end check that a backend, the plane's
// growth and the catalogue agree with what Golly and the literature report.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "engine/simulation.h"
#include "patterns/catalogue.h"

namespace gol {
namespace {

Simulation world_of(const std::string& name, const std::string& backend) {
  SimulationOptions options;
  options.backend = backend;
  return Simulation(patterns::builtin_pattern(name), options);
}

// Live cells outside the rectangle [0, width) x [0, height).
uint64_t population_outside(const CellSet& cells, int64_t width, int64_t height) {
  uint64_t count = 0;
  for (const Cell& c : cells.cells()) {
    if (c.x < 0 || c.y < 0 || c.x >= width || c.y >= height) ++count;
  }
  return count;
}

TEST(KnownResults, AcornHas633CellsAtGeneration5206) {
  Simulation world = world_of("acorn", "bit");
  world.advance(5206);
  EXPECT_EQ(world.generation(), 5206u);
  EXPECT_EQ(world.population(), 633u);
  // Stable from there on: still lifes, blinkers and 13 escaping gliders.
  world.advance(30);
  EXPECT_EQ(world.population(), 633u);
}

TEST(KnownResults, RPentominoHas116CellsAtGeneration1103) {
  Simulation world = world_of("r-pentomino", "bit");
  world.advance(1103);
  EXPECT_EQ(world.population(), 116u);
}

TEST(KnownResults, SerialAndBitAgreeOnTheRPentominosEarlyLife) {
  Simulation serial = world_of("r-pentomino", "serial");
  Simulation bit = world_of("r-pentomino", "bit");
  for (int i = 0; i < 4; ++i) {
    serial.advance(51);
    bit.advance(51);
    ASSERT_EQ(serial.cells(), bit.cells()) << "generation " << serial.generation();
  }
}

TEST(KnownResults, DiehardDiesAtGeneration130) {
  for (const char* backend : {"serial", "nibble", "bit"}) {
    Simulation world = world_of("diehard", backend);
    world.advance(129);
    EXPECT_GT(world.population(), 0u) << backend;
    world.advance(1);
    EXPECT_EQ(world.population(), 0u) << backend;
    EXPECT_TRUE(world.cells().empty()) << backend;
  }
}

TEST(KnownResults, GosperGunAddsOneGliderEvery30Generations) {
  Simulation world = world_of("gosper-gun", "bit");
  const BBox gun = *world.cells().bbox();
  world.advance(120);  // the first gliders are well clear of the gun
  uint64_t population = world.population();
  uint64_t escaped = population_outside(world.cells(), gun.width() + 2, gun.height() + 2);
  for (int period = 0; period < 10; ++period) {
    world.advance(30);
    const uint64_t next_population = world.population();
    const uint64_t next_escaped =
        population_outside(world.cells(), gun.width() + 2, gun.height() + 2);
    EXPECT_EQ(next_population, population + 5) << "generation " << world.generation();
    EXPECT_EQ(next_escaped, escaped + 5) << "generation " << world.generation();
    population = next_population;
    escaped = next_escaped;
  }
}

TEST(KnownResults, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  for (const char* backend : {"serial", "nibble", "bit"}) {
    Simulation world = world_of("glider", backend);
    const CellSet start = world.cells();
    world.advance(4);
    EXPECT_EQ(world.cells(), start.translated(1, 1)) << backend;
    world.advance(4 * 99);
    EXPECT_EQ(world.cells(), start.translated(100, 100)) << backend;
  }
}

TEST(KnownResults, BlinkerHasPeriodTwo) {
  for (const char* backend : {"serial", "nibble", "bit"}) {
    Simulation world = world_of("blinker", backend);
    const CellSet start = world.cells();
    world.advance(1);
    EXPECT_NE(world.cells(), start) << backend;
    EXPECT_EQ(world.population(), 3u) << backend;
    world.advance(1);
    EXPECT_EQ(world.cells(), start) << backend;
  }
}

}  // namespace
}  // namespace gol
