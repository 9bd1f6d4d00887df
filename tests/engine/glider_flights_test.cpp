// Lone gliders flown by formula (GliderFlights), against the same world
// stepped whole without them: gliders flying off in every course and
// landing where a call ends, head-on and crossing meetings after long
// flights, near misses of still lifes and of each other at every offset,
// a gun's stream flying off and landing before what it feeds, fields of
// gliders and soups on one thread and in strips, calls of every length,
// and rules with and without Life's glider.
#include "engine/glider_flights.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <random>
#include <thread>
#include <vector>

#include "engine/grid_stepper.h"
#include "engine/simulation.h"
#include "patterns/catalogue.h"
#include "patterns/rle.h"
#include "patterns/soup.h"
#include "sparse/sparse_grid.h"

namespace gol {
namespace {

// Life's glider at `x`, `y` on `course` (bit 0: moving west, bit 1:
// moving north), one of its phases a generation apart.
CellSet glider(int64_t x, int64_t y, int course, int phase = 0) {
  CellSet cells;
  const int cell[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (const auto& at : cell) {
    cells.set(x + ((course & 1) != 0 ? 2 - at[0] : at[0]),
              y + ((course & 2) != 0 ? 2 - at[1] : at[1]));
  }
  sparse::SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.step(grid, Rule::conway(), static_cast<uint64_t>(phase));
  return grid.cells();
}

void add(CellSet& into, const CellSet& cells) {
  for (const Cell& cell : cells.cells()) into.set(cell.x, cell.y);
}

// `count` gliders at random places in [0, span] squared, on random courses
// and, with `phases`, in random phases, drawn from `seed`.
CellSet random_gliders(uint64_t seed, int count, int64_t span, bool phases = false) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int64_t> place(0, span);
  CellSet cells;
  for (int i = 0; i < count; ++i) {
    const int64_t x = place(random);
    const int64_t y = place(random);
    const auto course = static_cast<int>(random() % 4);
    const int phase = phases ? static_cast<int>(random() % 4) : 0;
    add(cells, glider(x, y, course, phase));
  }
  return cells;
}

CellSet block(int64_t x, int64_t y) {
  CellSet cells;
  for (int64_t dy = 0; dy < 2; ++dy) {
    for (int64_t dx = 0; dx < 2; ++dx) cells.set(x + dx, y + dy);
  }
  return cells;
}

CellSet world_cells(const GridStepper& stepper, const sparse::SparseGrid& grid) {
  CellSet cells;
  for (const sparse::SparseGrid* part : stepper.world_parts(grid)) {
    part->visit_cpu_tiles([&](TileCoord coord, const Tile& tile) { cells.put_tile(coord, tile); });
  }
  return cells;
}

// Steps `cells` with gliders flying (fleets of `min_fleet` or more, each
// cleared as `map` says) on `threads`, in strips where it pays, and whole
// on one thread without flights, comparing the cells at each checkpoint
// (each a call's end); returns the gliders lifted out, and sets `longest`
// (where given) to the longest clearance given.
uint64_t expect_flown_matches_plain(const CellSet& cells, const Rule& rule, int threads,
                                    const std::vector<uint64_t>& checkpoints, size_t min_fleet,
                                    GliderFlights::CoarseMap map, uint64_t* longest = nullptr) {
  sparse::SparseGrid flown;
  sparse::SparseGrid plain;
  flown.load(cells, Topology::plane(), false);
  plain.load(cells, Topology::plane(), false);
  GridStepper flying(threads, cpu::SimdLibrary::kHighway);
  flying.allow_strips(true);
  flying.allow_flights(true, min_fleet, map);
  GridStepper stepping(1, cpu::SimdLibrary::kHighway);
  const char* const way = map == GliderFlights::CoarseMap::kAlways  ? "mapped"
                          : map == GliderFlights::CoarseMap::kNever ? "by tiles"
                                                                    : "as worth it";
  uint64_t done = 0;
  for (uint64_t checkpoint : checkpoints) {
    flying.step(flown, rule, checkpoint - done);
    stepping.step(plain, rule, checkpoint - done);
    EXPECT_EQ(flying.flights().flying(), 0u) << "a call leaves every glider landed";
    EXPECT_TRUE(world_cells(flying, flown) == plain.cells())
        << "generation " << checkpoint << ", " << threads << " threads, " << way;
    done = checkpoint;
  }
  EXPECT_EQ(flying.flights().lifted(), flying.flights().landed()) << way;
  if (longest != nullptr) *longest = flying.flights().longest_given();
  return flying.flights().lifted();
}

// expect_flown_matches_plain with any number of gliders flying, once with
// each way of clearing them (the coarse map, the tiles along their ways);
// returns the fewest lifted out either way.
uint64_t expect_flights_match_plain(const CellSet& cells, const Rule& rule, int threads,
                                    const std::vector<uint64_t>& checkpoints) {
  uint64_t fewest = ~uint64_t{0};
  for (GliderFlights::CoarseMap map :
       {GliderFlights::CoarseMap::kAlways, GliderFlights::CoarseMap::kNever}) {
    fewest =
        std::min(fewest, expect_flown_matches_plain(cells, rule, threads, checkpoints, 1, map));
  }
  return fewest;
}

TEST(GliderFlights, FlyWhereTheRulesGliderIsLifes) {
  GliderFlights flights;
  flights.set_rule(Rule::conway());
  EXPECT_TRUE(flights.rule_flies());
  flights.set_rule(parse_rule("B36/S23").rule);
  EXPECT_TRUE(flights.rule_flies()) << "HighLife's glider is Life's";
  for (const char* rule : {"B2/S", "B3/S12", "B03/S23", "B36/S125", "B3678/S34678"}) {
    flights.set_rule(parse_rule(rule).rule);
    EXPECT_FALSE(flights.rule_flies()) << rule;
  }
}

TEST(GliderFlights, AGliderIsWhereTheFormulaPutsIt) {
  GliderFlights flights;
  flights.set_rule(Rule::conway());
  const auto cells_of = [&](const GliderFlights::Flight& flight) {
    const Cell corner = flights.box(flight);
    const uint16_t bits = flights.courses()[flight.course].phases[flight.phase].cells;
    CellSet cells;
    for (int bit = 0; bit < 9; ++bit) {
      if ((bits >> bit) & 1u) cells.set(corner.x + bit % 3, corner.y + bit / 3);
    }
    return cells;
  };
  for (uint8_t course = 0; course < 4; ++course) {
    EXPECT_EQ(flights.courses()[course].dx, (course & 1) != 0 ? -1 : 1);
    EXPECT_EQ(flights.courses()[course].dy, (course & 2) != 0 ? -1 : 1);
    for (uint8_t phase = 0; phase < 4; ++phase) {
      const GliderFlights::Flight start{1000, -2000, course, phase};
      sparse::SparseGrid grid;
      grid.load(cells_of(start), Topology::plane(), false);
      GridStepper stepper(1, cpu::SimdLibrary::kHighway);
      uint64_t done = 0;
      for (uint64_t generations : {1, 2, 3, 4, 5, 11, 64, 257}) {
        stepper.step(grid, Rule::conway(), generations - done);
        done = generations;
        EXPECT_TRUE(grid.cells() == cells_of(flights.advanced(start, generations)))
            << "course " << int{course} << " phase " << int{phase} << " after " << generations;
      }
    }
  }
}

TEST(GliderFlights, GlidersFlyOffInEveryCourseAndLandExactly) {
  CellSet cells = block(0, 0);
  for (int course = 0; course < 4; ++course) {
    const int64_t x = (course & 1) != 0 ? -40 : 40;
    const int64_t y = (course & 2) != 0 ? -40 : 40;
    add(cells, glider(x, y, course, course));
  }
  for (int threads : {1, 2}) {
    EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), threads, {200, 1000, 1001, 2400}),
              0u);
  }
}

TEST(GliderFlights, GlidersMeetingHeadOnAfterLongFlightsMatch) {
  // A glider going south-east and one going north-west on lines a few
  // cells apart, 1200 cells from each other: some offsets collide, some
  // pass at two, three or four cells.
  CellSet cells;
  for (int64_t offset = 0; offset < 9; ++offset) {
    const int64_t x = offset * 3000;
    add(cells, glider(x, 0, 0));
    add(cells, glider(x + 1200 + offset, 1200, 3, static_cast<int>(offset % 4)));
  }
  EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), 1, {700, 1300, 2600}), 0u);
}

TEST(GliderFlights, GlidersCrossingAtEveryOffsetMatch) {
  CellSet cells;
  for (int64_t lag = 0; lag < 12; ++lag) {
    const int64_t x = lag * 2500;
    add(cells, glider(x, 0, 0));
    add(cells, glider(x + 800 + lag, 0, 1, static_cast<int>(lag % 4)));
  }
  for (int threads : {1, 3}) {
    EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), threads, {1000, 2200}), 0u);
  }
}

TEST(GliderFlights, GlidersPassingStillLifesAtEveryOffsetMatch) {
  CellSet cells;
  for (int64_t offset = -6; offset <= 6; ++offset) {
    const int64_t x = (offset + 6) * 2000;
    add(cells, glider(x, 0, 0));
    add(cells, block(x + 700 + offset, 700));
  }
  EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), 1, {1500, 3200}), 0u);
}

TEST(GliderFlights, GlidersFlyingIntoAGrowingWorldLandInTime) {
  // The spacefiller's fronts move out towards gliders flying at them from
  // every side and distance, each of which it swallows: the gliders fly
  // while far from it and land before the fronts meet them.
  CellSet cells = patterns::builtin_pattern("spacefiller").cells;
  const std::optional<BBox> box = cells.bbox();
  ASSERT_TRUE(box.has_value());
  const int64_t cx = (box->xmin + box->xmax) / 2;
  const int64_t cy = (box->ymin + box->ymax) / 2;
  for (int64_t distance = 90; distance <= 330; distance += 48) {
    const int phase = static_cast<int>(distance % 4);
    add(cells, glider(cx - distance / 3, box->ymin - distance, 0, phase));  // from the north
    add(cells, glider(cx + distance / 3, box->ymax + distance, 3, phase));  // from the south
    add(cells, glider(box->xmin - distance, cy + distance / 3, 2, phase));  // from the west
    add(cells, glider(box->xmax + distance, cy - distance / 3, 1, phase));  // from the east
  }
  for (int threads : {1, 2}) {
    EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), threads, {1500}), 0u);
  }
}

TEST(GliderFlights, GlidersMeetingASpaceshipLandInTime) {
  // A lightweight spaceship flies west at half the speed of light, and is
  // the rest of the world to the gliders: gliders flying south-east cross
  // its row near where it will be, some hitting it, some not. Clearance
  // must allow for the spaceship closing in at three quarters of light
  // speed.
  const CellSet lwss = patterns::parse_rle("x = 5, y = 4\nbo2bo$o4b$o3bo$4o!\n", "lwss").cells;
  CellSet cells;
  for (int64_t k = -8; k <= 8; ++k) {
    const int64_t x = (k + 8) * 4000;
    for (const Cell& cell : lwss.cells()) cells.set(cell.x + x, cell.y);
    add(cells, glider(x - 600 + 3 * k, -200 + k, 0, static_cast<int>((k + 8) % 4)));
  }
  for (int threads : {1, 2}) {
    EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), threads, {1400}), 0u);
  }
}

TEST(GliderFlights, AFieldOfGlidersMatchesOnOneThreadAndInStrips) {
  const CellSet cells = random_gliders(2026, 150, 1800, true);
  for (int threads : {1, 2, 4}) {
    EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), threads, {500, 1001, 1500}), 0u);
  }
}

TEST(GliderFlights, AFleetOfHundredsLandsInPiecesExactly) {
  // More gliders fly at the call's end than one landing piece holds (256).
  const CellSet cells = random_gliders(77, 800, 6000, true);
  for (int threads : {1, 2}) {
    EXPECT_GT(expect_flown_matches_plain(cells, Rule::conway(), threads, {300, 700}, 1,
                                         GliderFlights::CoarseMap::kAlways),
              600u);
  }
}

TEST(GliderFlights, SoupsMatch) {
  for (uint64_t seed : {7u, 8u, 9u}) {
    const CellSet soup = patterns::make_soup({160, 160, 0.37, seed});
    for (int threads : {1, 2}) {
      expect_flights_match_plain(soup, Rule::conway(), threads, {1200, 3000});
    }
  }
}

TEST(GliderFlights, AcornsMatchOverCallsOfEveryLength) {
  const CellSet acorn = patterns::builtin_pattern("acorn").cells;
  CellSet cells;
  for (int64_t i = 0; i < 6; ++i) {
    for (const Cell& cell : acorn.cells())
      cells.set(cell.x + (i % 3) * 900, cell.y + (i / 3) * 900);
  }
  std::vector<uint64_t> checkpoints;
  std::mt19937_64 random(5);
  for (uint64_t at = 0; at < 3500;) {
    at += 1 + random() % 300;
    checkpoints.push_back(at);
  }
  for (int threads : {1, 2}) {
    EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), threads, checkpoints), 0u);
  }
}

TEST(GliderFlights, AFewStraysBesideALargeStillWorldFlyByDefault) {
  // A puffer train's case: a few gliders far from a world of many tiles
  // held (a block in each of 1600), cleared by the tiles along their ways,
  // with the stepper's own fleet floor.
  CellSet cells;
  for (int64_t ty = 0; ty < 40; ++ty) {
    for (int64_t tx = 0; tx < 40; ++tx) add(cells, block(tx * 64 + 20, ty * 64 + 20));
  }
  for (int64_t i = 0; i < static_cast<int64_t>(GliderFlights::kMinFleet) + 1; ++i) {
    add(cells, glider(3000 + i * 150, -400 - i * 40, 2, static_cast<int>(i % 4)));
  }
  ASSERT_LT((GliderFlights::kMinFleet + 1) * GliderFlights::kTilesPerClearance, size_t{1600});
  for (int threads : {1, 2}) {
    EXPECT_GT(
        expect_flown_matches_plain(cells, Rule::conway(), threads, {1500}, GliderFlights::kMinFleet,
                                   GliderFlights::CoarseMap::kWhereWorthIt),
        0u)
        << threads << " threads";
  }
}

TEST(GliderFlights, ASettledWorldPassesAnyNumberOfGenerationsWithoutReviews) {
  // A block and a blinker: asleep after their first generations, with
  // nothing flying, nothing a review could find.
  CellSet cells = block(10, 10);
  for (int64_t x = 40; x < 43; ++x) cells.set(x, 20);
  sparse::SparseGrid grid;
  grid.load(cells, Topology::plane(), false);
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  stepper.allow_flights(true);
  stepper.step(grid, Rule::conway(), uint64_t{1} << 40);
  EXPECT_LE(stepper.flights().reviews(), 1u);
  EXPECT_EQ(grid.generation(), uint64_t{1} << 40);
  EXPECT_TRUE(grid.cells() == cells) << "the blinker's phase after an even count";
  // With a glider added, the world reviews again.
  const uint64_t before = stepper.flights().reviews();
  add(cells, glider(200, 200, 0));
  grid.load(cells, Topology::plane(), false);
  stepper.step(grid, Rule::conway(), 1000);
  EXPECT_GT(stepper.flights().reviews(), before);
}

TEST(GliderFlights, AGunsStreamFliesAndMatches) {
  const CellSet gun = patterns::builtin_pattern("gosper-gun").cells;
  for (int threads : {1, 2}) {
    EXPECT_GT(expect_flights_match_plain(gun, Rule::conway(), threads, {900, 2500}), 0u)
        << threads << " threads";
  }
  // With the stepper's defaults too: a glider grounded beside the gun once
  // grounded the next along the stream, and none flew.
  EXPECT_GT(expect_flown_matches_plain(gun, Rule::conway(), 2, {3000}, GliderFlights::kMinFleet,
                                       GliderFlights::CoarseMap::kWhereWorthIt),
            0u);
}

TEST(GliderFlights, AGunsStreamLandsBeforeTheReactionItFeeds) {
  // The stream's first glider meets the block at about generation 2400,
  // and what they leave eats the gliders behind and grows back along the
  // stream: each must land before it gets there.
  CellSet cells = patterns::builtin_pattern("gosper-gun").cells;
  add(cells, block(610, 600));
  for (int threads : {1, 2}) {
    EXPECT_GT(expect_flights_match_plain(cells, Rule::conway(), threads, {1500, 2600, 3300, 4500}),
              0u)
        << threads << " threads";
  }
}

TEST(GliderFlights, AGunsStreamFliesLongAndLandsBeforeASpaceshipCrossingIt) {
  // The stream (flying south-east) is a fleet of one course, so its
  // gliders far from the gun fly for longer than kMaxHorizon. A
  // lightweight spaceship flying west, the rest of the world to them,
  // crosses the stream's way at row 500 at about generation 6000, where the
  // gliders have flown long; each must land before it comes near.
  CellSet cells = patterns::builtin_pattern("gosper-gun").cells;
  const CellSet lwss = patterns::parse_rle("x = 5, y = 4\nbo2bo$o4b$o3bo$4o!\n", "lwss").cells;
  for (const Cell& cell : lwss.cells()) cells.set(cell.x + 3500, cell.y + 500);
  for (int threads : {1, 2}) {
    uint64_t longest = 0;
    EXPECT_GT(expect_flown_matches_plain(cells, Rule::conway(), threads, {3000, 5500, 6500, 8000},
                                         1, GliderFlights::CoarseMap::kAlways, &longest),
              0u);
    EXPECT_GT(longest, GliderFlights::kMaxHorizon) << threads << " threads";
  }
}

TEST(GliderFlights, OnlyAFleetOfOneCourseFliesLongerThanTheLongestPairLook) {
  // The same far-flung gliders, once all on one course and once on every
  // course: only the first may fly beyond kMaxHorizon, since pairs of
  // gliders on different courses are looked at for that long.
  std::mt19937_64 random(91);
  std::uniform_int_distribution<int64_t> place(0, 30000);
  CellSet one_course;
  CellSet every_course;
  for (int i = 0; i < 40; ++i) {
    const int64_t x = place(random);
    const int64_t y = place(random);
    add(one_course, glider(x, y, 0));
    add(every_course, glider(x, y, i % 4));
  }
  uint64_t one = 0;
  uint64_t every = 0;
  expect_flown_matches_plain(one_course, Rule::conway(), 1, {3000}, 1,
                             GliderFlights::CoarseMap::kAlways, &one);
  expect_flown_matches_plain(every_course, Rule::conway(), 1, {3000}, 1,
                             GliderFlights::CoarseMap::kAlways, &every);
  EXPECT_GT(one, GliderFlights::kMaxHorizon);
  EXPECT_EQ(every, GliderFlights::kMaxHorizon);
}

TEST(GliderFlights, HighLifesGlidersFly) {
  const CellSet cells = random_gliders(36, 80, 1500);
  EXPECT_GT(expect_flights_match_plain(cells, parse_rule("B36/S23").rule, 2, {600, 1400}), 0u);
}

TEST(GliderFlights, AReviewSharedOutDecidesAsOneAlone) {
  // Two fleets review copies of one field of 900 gliders, one alone, one
  // with its reads run on a thread a piece, the last piece first: the same
  // gliders fly and land, and the tiles hold the same cells.
  const CellSet cells = random_gliders(31, 900, 9000, true);
  std::array<sparse::SparseGrid, 2> grids;
  std::array<GliderFlights, 2> fleets;
  for (size_t k = 0; k < 2; ++k) {
    grids[k].load(cells, Topology::plane(), false);
    fleets[k].set_rule(Rule::conway());
    fleets[k].set_min_fleet(1);
    fleets[k].start(0);
  }
  std::atomic<int> shared_out{0};
  const GliderFlights::ForEach on_threads = [&](size_t count,
                                                const std::function<void(size_t, size_t)>& body) {
    ++shared_out;
    std::vector<std::thread> threads;
    for (size_t i = count; i-- > 0;) threads.emplace_back([&body, i] { body(i, i + 1); });
    for (std::thread& thread : threads) thread.join();
  };
  GridStepper stepper(1, cpu::SimdLibrary::kHighway);
  int reviews_shared = 0;
  for (int review = 0; review < 8; ++review) {
    const uint64_t due = fleets[0].next_review();
    ASSERT_EQ(due, fleets[1].next_review()) << "review " << review;
    std::array<std::array<sparse::SparseGrid*, 1>, 2> parts;
    for (size_t k = 0; k < 2; ++k) {
      stepper.step(grids[k], Rule::conway(), due - grids[k].generation());
      parts[k] = {&grids[k]};
    }
    const int shared_before = shared_out.load();
    EXPECT_EQ(fleets[0].review(parts[0]), fleets[1].review(parts[1], on_threads));
    reviews_shared += shared_out.load() > shared_before ? 1 : 0;
    EXPECT_EQ(fleets[0].flying(), fleets[1].flying()) << "review " << review;
    EXPECT_EQ(fleets[0].lifted(), fleets[1].lifted()) << "review " << review;
    EXPECT_EQ(fleets[0].landed(), fleets[1].landed()) << "review " << review;
    EXPECT_TRUE(grids[0].cells() == grids[1].cells()) << "review " << review;
  }
  EXPECT_GT(fleets[0].lifted(), 100u);
  EXPECT_GT(shared_out.load(), reviews_shared) << "some reviews shared out more than one read";
  EXPECT_GE(reviews_shared, 4) << "most reviews shared their reads out";
}

TEST(GliderFlights, NoneFlyForMoreThanSixteenThreads) {
  const CellSet cells = random_gliders(9, 60, 1500);
  for (int threads : {GliderFlights::kMaxThreads, GliderFlights::kMaxThreads + 1}) {
    sparse::SparseGrid grid;
    grid.load(cells, Topology::plane(), false);
    GridStepper stepper(threads, cpu::SimdLibrary::kHighway);
    stepper.allow_strips(true);
    stepper.allow_flights(true, 1);
    stepper.step(grid, Rule::conway(), 800);
    EXPECT_EQ(stepper.flights().lifted() > 0, threads <= GliderFlights::kMaxThreads) << threads;
  }
}

// `cells` on the simd backend: on two threads with gliders flying, and on
// `plain_threads` without.
struct FlownAndPlain {
  Simulation flown;
  Simulation plain;
};
FlownAndPlain simd_flown_and_plain(const CellSet& cells, int plain_threads) {
  Pattern pattern;
  pattern.cells = cells;
  SimulationOptions options;
  options.backend = "simd";
  const auto made = [&](bool flights, int threads) {
    EXPECT_EQ(flights ? unsetenv("GOL_GLIDER_FLIGHTS") : setenv("GOL_GLIDER_FLIGHTS", "0", 1), 0);
    options.backend_options.threads = threads;
    Simulation simulation(pattern, options);
    EXPECT_EQ(unsetenv("GOL_GLIDER_FLIGHTS"), 0);
    return simulation;
  };
  return {made(true, 2), made(false, plain_threads)};
}

TEST(GliderFlights, GlidersFlyOnBetweenARunsChunksAndItsReadsCountThem) {
  // A run in chunks (gol run's) tells the backend that more steps follow:
  // the gliders stay flying between the chunks, and the population and
  // extent read there count them; the cells read land them.
  CellSet cells = patterns::builtin_pattern("gosper-gun").cells;
  add(cells, random_gliders(12, 40, 3000));
  auto [flown, plain] = simd_flown_and_plain(cells, 2);
  for (int chunk = 1; chunk <= 6; ++chunk) {
    const bool last = chunk == 6;
    flown.expect_more_steps(!last);
    flown.advance(700);
    plain.advance(700);
    if (last) {
      EXPECT_EQ(flown.stats().gliders_flying, 0u) << "the last chunk lands its gliders";
    } else {
      EXPECT_GT(flown.stats().gliders_flying, 0u) << "chunk " << chunk;
    }
    EXPECT_EQ(flown.population(), plain.population()) << "chunk " << chunk;
    EXPECT_EQ(flown.bbox(), plain.bbox()) << "chunk " << chunk;
    if (chunk % 2 == 0) {
      EXPECT_TRUE(flown.cells() == plain.cells()) << "chunk " << chunk;
      EXPECT_EQ(flown.stats().gliders_flying, 0u) << "reading the cells lands the gliders";
    }
  }
}

TEST(GliderFlights, TheSimdBackendFliesAFieldUnlessTurnedOff) {
  auto [flown, plain] = simd_flown_and_plain(random_gliders(11, 120, 2500), 1);
  flown.advance(2000);
  plain.advance(2000);
  EXPECT_EQ(flown.population(), plain.population());
  EXPECT_TRUE(flown.cells() == plain.cells());
}

}  // namespace
}  // namespace gol
