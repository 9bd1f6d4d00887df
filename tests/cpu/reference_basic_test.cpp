// Each reference path on its own: bit order, known motions, torus wrapping,
// B0 rules, stats, plane growth and refused inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include "cpu/reference/dense_backend.h"
#include "cpu/reference/reference_backends.h"
#include "engine/core/error.h"

namespace gol::cpu {
namespace {

struct NamedFactory {
  std::string name;
  std::unique_ptr<Backend> (*make)();
};

void PrintTo(const NamedFactory& factory, std::ostream* out) { *out << factory.name; }

const NamedFactory kBackends[] = {
    {"serial", make_serial_backend}, {"nibble", make_nibble_backend}, {"bit", make_bit_backend}};

CellSet cells_of(const std::vector<Cell>& list) {
  CellSet set;
  for (const Cell& c : list) set.set(c);
  return set;
}

// .O.
// ..O
// OOO   moves (+1, +1) every 4 generations; flips move the other ways.
CellSet glider_at(int64_t x, int64_t y, int flip_x = 1, int flip_y = 1) {
  CellSet set;
  for (const Cell& c : {Cell{1, 0}, Cell{2, 1}, Cell{0, 2}, Cell{1, 2}, Cell{2, 2}}) {
    set.set(x + flip_x * (c.x - 1), y + flip_y * (c.y - 1));
  }
  return set;
}

Rule rule_from(const std::string& text) { return parse_rule(text).rule; }

class ReferenceBackendTest : public ::testing::TestWithParam<NamedFactory> {
 protected:
  std::unique_ptr<Backend> load(const CellSet& cells, const Topology& topology = Topology::plane(),
                                const Rule& rule = Rule::conway()) {
    std::unique_ptr<Backend> backend = GetParam().make();
    backend->load(cells, rule, topology);
    return backend;
  }
};

TEST_P(ReferenceBackendTest, ReportsItsName) {
  EXPECT_EQ(GetParam().make()->name(), GetParam().name);
}

TEST_P(ReferenceBackendTest, SingleCellRoundTripsOnThePlane) {
  const std::vector<Cell> places = {
      {0, 0},    {63, 0},   {0, 63},       {63, 63},
      {64, 64},  {-1, -1},  {-64, -64},    {-65, 3},
      {127, -1}, {-63, 64}, {4097, -4097}, {int64_t{1} << 40, -(int64_t{1} << 40)}};
  for (const Cell& c : places) {
    const std::unique_ptr<Backend> backend = load(cells_of({c}));
    EXPECT_EQ(backend->population(), 1u) << c.x << "," << c.y;
    const CellSet out = backend->cells();
    EXPECT_EQ(out.cells(), std::vector<Cell>{c}) << c.x << "," << c.y;
    // Bit i of row r of the tile is cell (64tx + i, 64ty + r).
    const Tile* tile = out.find_tile(tile_coord_of(c));
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->rows[offset_in_tile(c.y)], uint64_t{1} << offset_in_tile(c.x));
  }
}

TEST_P(ReferenceBackendTest, SingleCellRoundTripsOnATorusAndWrapsOutsiders) {
  const Topology torus = Topology::torus(128, 192);
  const std::vector<std::pair<Cell, Cell>> cases = {
      {{0, 0}, {0, 0}},     {{63, 0}, {63, 0}},     {{64, 0}, {64, 0}},   {{127, 191}, {127, 191}},
      {{0, 191}, {0, 191}}, {{-1, -1}, {127, 191}}, {{128, 192}, {0, 0}}, {{-129, 200}, {127, 8}}};
  for (const auto& [in, expected] : cases) {
    const std::unique_ptr<Backend> backend = load(cells_of({in}), torus);
    EXPECT_EQ(backend->cells().cells(), std::vector<Cell>{expected}) << in.x << "," << in.y;
  }
}

TEST_P(ReferenceBackendTest, BlinkerAcrossAWordBoundaryHasPeriodTwo) {
  // The horizontal blinker spans cells 63 and 64, which sit in different
  // words of every packed representation.
  const CellSet blinker = cells_of({{62, 10}, {63, 10}, {64, 10}});
  const CellSet vertical = cells_of({{63, 9}, {63, 10}, {63, 11}});
  for (const Topology& topology : {Topology::plane(), Topology::torus(128, 64)}) {
    const std::unique_ptr<Backend> backend = load(blinker, topology);
    backend->step(1);
    EXPECT_EQ(backend->cells(), vertical);
    backend->step(1);
    EXPECT_EQ(backend->cells(), blinker);
    backend->step(101);
    EXPECT_EQ(backend->cells(), vertical);
  }
}

TEST_P(ReferenceBackendTest, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  for (const Cell& start : {Cell{0, 0}, Cell{62, 62}, Cell{-64, -1}, Cell{-1000, 5000}}) {
    const CellSet glider = glider_at(start.x, start.y);
    const std::unique_ptr<Backend> backend = load(glider);
    for (int64_t k = 1; k <= 5; ++k) {
      backend->step(4);
      EXPECT_EQ(backend->cells(), glider.translated(k, k)) << start.x << "," << start.y;
      EXPECT_EQ(backend->population(), 5u);
    }
    backend->step(4 * 95);
    EXPECT_EQ(backend->cells(), glider.translated(100, 100));
  }
}

TEST_P(ReferenceBackendTest, GlidersLeaveThePlaneInAllFourDirections) {
  for (int flip_x : {1, -1}) {
    for (int flip_y : {1, -1}) {
      const CellSet glider = glider_at(7, -9, flip_x, flip_y);
      const std::unique_ptr<Backend> backend = load(glider);
      backend->step(4 * 150);
      EXPECT_EQ(backend->cells(), glider.translated(150 * flip_x, 150 * flip_y))
          << flip_x << "," << flip_y;
    }
  }
}

TEST_P(ReferenceBackendTest, GliderCrossesTorusEdgesAndComesBack) {
  for (const auto& [width, height] : {std::pair{64, 64}, std::pair{128, 64}, std::pair{64, 192}}) {
    const Topology torus = Topology::torus(width, height);
    const CellSet glider = glider_at(width - 2, height - 2);  // on the edge from the start
    const std::unique_ptr<Backend> backend = load(glider, torus);
    backend->step(4 * 3);
    EXPECT_EQ(backend->cells(), glider.translated(3, 3).wrapped(width, height));
    // Back where it started after lcm(width, height) diagonal moves.
    const int64_t period = 4 * std::lcm(int64_t{width}, int64_t{height});
    backend->step(period - 4 * 3);
    EXPECT_EQ(backend->cells(), glider.wrapped(width, height)) << width << "x" << height;
  }
}

TEST_P(ReferenceBackendTest, StepZeroChangesNothing) {
  const CellSet glider = glider_at(3, 3);
  const std::unique_ptr<Backend> backend = load(glider);
  backend->step(0);
  EXPECT_EQ(backend->cells(), glider);
  EXPECT_EQ(backend->stats().cells_computed, 0u);
}

TEST_P(ReferenceBackendTest, CountsTheTorusAreaEveryGeneration) {
  const std::unique_ptr<Backend> backend = load(glider_at(3, 3), Topology::torus(128, 64));
  backend->step(7);
  const BackendStats stats = backend->stats();
  EXPECT_EQ(stats.cells_computed, 7u * 128u * 64u);
  EXPECT_EQ(stats.tiles_active, 0u);
  EXPECT_EQ(stats.tiles_total, 0u);
  EXPECT_TRUE(stats.simd_target.empty());
  backend->load(glider_at(3, 3), Rule::conway(), Topology::torus(64, 64));
  EXPECT_EQ(backend->stats().cells_computed, 0u);  // cumulative since the last load
}

TEST_P(ReferenceBackendTest, BirthOnZeroFillsAndKeepsAnEmptyTorus) {
  // B0/S8: every dead cell is born; then each has 8 live neighbours.
  const std::unique_ptr<Backend> backend =
      load(CellSet{}, Topology::torus(64, 128), rule_from("B0/S8"));
  backend->step(1);
  EXPECT_EQ(backend->population(), 64u * 128u);
  backend->step(1);
  EXPECT_EQ(backend->population(), 64u * 128u);
}

TEST_P(ReferenceBackendTest, BirthOnZeroWithoutSurvivalAlternates) {
  const std::unique_ptr<Backend> backend =
      load(cells_of({{5, 5}}), Topology::torus(64, 64), rule_from("B0/S"));
  backend->step(1);  // all but the 3x3 block around the cell are born; it dies
  EXPECT_EQ(backend->population(), 64u * 64u - 9u);
  backend->step(1);  // all die; only the block's centre had no live neighbour
  EXPECT_EQ(backend->cells(), cells_of({{5, 5}}));
}

TEST_P(ReferenceBackendTest, RefusesBirthOnZeroOnThePlane) {
  EXPECT_THROW(load(CellSet{}, Topology::plane(), rule_from("B0/S8")), InputError);
}

TEST_P(ReferenceBackendTest, RefusesMalformedTorusSizes) {
  Topology odd;
  odd.kind = Topology::Kind::kTorus;
  odd.width = 100;
  odd.height = 64;
  EXPECT_THROW(load(CellSet{}, odd), InputError);
  odd.width = 0;
  EXPECT_THROW(load(CellSet{}, odd), InputError);
}

TEST_P(ReferenceBackendTest, RefusesPlanePatternsTooSparseForADenseGrid) {
  // Two cells far apart would need a grid of 2^80 cells: refused, not allocated.
  EXPECT_THROW(load(cells_of({{0, 0}, {int64_t{1} << 40, int64_t{1} << 40}})), InputError);
  EXPECT_THROW(load(cells_of({{int64_t{1} << 62, 0}})), InputError);
}

TEST_P(ReferenceBackendTest, PlaneGrowsWithAPatternThatGrowsOneCellAGeneration) {
  // Every cell next to a live one is born and none dies: after n
  // generations one cell has become the square of side 2n + 1 around it.
  const std::unique_ptr<Backend> backend =
      load(cells_of({{-3, 5}}), Topology::plane(), rule_from("B12345678/S012345678"));
  int64_t generation = 0;
  for (int64_t n : {1, 2, 20, 90}) {
    backend->step(static_cast<uint64_t>(n - generation));
    generation = n;
    EXPECT_EQ(backend->population(), static_cast<uint64_t>((2 * n + 1) * (2 * n + 1)));
    EXPECT_EQ(backend->cells().bbox(), (BBox{-3 - n, 5 - n, -3 + n, 5 + n})) << n;
  }
}

TEST_P(ReferenceBackendTest, PlaneGridFollowsAGliderWithoutGrowing) {
  std::unique_ptr<Backend> backend = load(glider_at(0, 0));
  backend->step(2000);
  EXPECT_EQ(backend->cells(), glider_at(500, 500));
  const GridWindow window = dynamic_cast<DenseBackend&>(*backend).window();
  EXPECT_LE(window.width * window.height, 128 * 64);
  EXPECT_EQ(window.origin_x % 64, 0);
}

INSTANTIATE_TEST_SUITE_P(Reference, ReferenceBackendTest, ::testing::ValuesIn(kBackends),
                         [](const auto& test) { return test.param.name; });

}  // namespace
}  // namespace gol::cpu
