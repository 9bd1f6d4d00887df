// The edge of the plane (issue 10): the sparse backends hold cells in
// [-2^62, 2^62) on each axis. A pattern that would bear a cell beyond must
// stop the run with RuntimeError naming the edge and the generation, never
// go on clipped; a pattern that only touches the edge runs as anywhere else.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "cpu/reference/reference_backends.h"
#include "engine/core/error.h"
#include "engine/sparse_backend.h"

namespace gol {
namespace {

constexpr int64_t kEdge = int64_t{1} << 62;

// A glider whose bounding box is (x, y)..(x + 2, y + 2), travelling one
// cell each way per 4 generations in the direction (dx, dy), each +-1.
CellSet glider(int64_t x, int64_t y, int dx, int dy) {
  CellSet cells;
  for (auto [cx, cy] :
       std::vector<std::pair<int64_t, int64_t>>{{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    cells.set(x + (dx > 0 ? cx : 2 - cx), y + (dy > 0 ? cy : 2 - cy));
  }
  return cells;
}

struct EdgeCase {
  std::string name;
  // Near the origin, where the bit reference runs it; `beyond` tells when
  // a cell has crossed the line that stands for the plane's edge there.
  CellSet near_origin;
  std::function<bool(const BBox&)> beyond;
  int64_t shift_x, shift_y;  // from there to the real edge
  std::string edge;          // as the error names it
};

std::vector<EdgeCase> edge_cases() {
  return {
      {"east", glider(-9, 0, 1, 1), [](const BBox& b) { return b.xmax >= 0; }, kEdge, 0,
       "x = 2^62"},
      {"west", glider(4, 0, -1, 1), [](const BBox& b) { return b.xmin < 0; }, -kEdge, 0,
       "x = -2^62 - 1"},
      {"south", glider(5, -13, 1, 1), [](const BBox& b) { return b.ymax >= 0; }, 0, kEdge,
       "y = 2^62"},
      {"north", glider(-7, 3, 1, -1), [](const BBox& b) { return b.ymin < 0; }, 0, -kEdge,
       "y = -2^62 - 1"},
  };
}

// The first generation in which the reference has a cell beyond the line.
uint64_t first_crossing(const EdgeCase& edge_case) {
  auto reference = cpu::make_bit_backend();
  reference->load(edge_case.near_origin, Rule::conway(), Topology::plane());
  for (uint64_t generation = 1; generation <= 200; ++generation) {
    reference->step(1);
    if (edge_case.beyond(*reference->cells().bbox())) return generation;
  }
  ADD_FAILURE() << edge_case.name << ": the glider never crosses";
  return 0;
}

class PlaneEdgeTest : public ::testing::TestWithParam<cpu::SimdLibrary> {
 protected:
  std::unique_ptr<Backend> load(const CellSet& cells) {
    auto backend = make_sparse_backend({2}, GetParam());
    backend->load(cells, Rule::conway(), Topology::plane());
    return backend;
  }
};

TEST_P(PlaneEdgeTest, AGliderLeavingThePlaneStopsTheRunAtTheGenerationItCrosses) {
  for (const EdgeCase& edge_case : edge_cases()) {
    SCOPED_TRACE(edge_case.name);
    const uint64_t crossing = first_crossing(edge_case);
    ASSERT_GT(crossing, 4u);
    auto backend = load(edge_case.near_origin.translated(edge_case.shift_x, edge_case.shift_y));
    auto reference = cpu::make_bit_backend();
    reference->load(edge_case.near_origin, Rule::conway(), Topology::plane());
    // Up to the generation before, the glider is exact.
    backend->step(crossing - 1);
    reference->step(crossing - 1);
    EXPECT_EQ(backend->cells(),
              reference->cells().translated(edge_case.shift_x, edge_case.shift_y));
    try {
      backend->step(1);
      ADD_FAILURE() << "the run went on past the edge";
    } catch (const RuntimeError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("into " + edge_case.edge + ","), std::string::npos) << message;
      EXPECT_NE(message.find("at generation " + std::to_string(crossing) + " "), std::string::npos)
          << message;
    }
  }
}

TEST_P(PlaneEdgeTest, ABirthAtTheEdgeOnTheFirstGenerationIsRefused) {
  // A vertical blinker on the last column: its horizontal phase needs x = 2^62.
  CellSet blinker;
  for (int64_t y : {0, 1, 2}) blinker.set(kEdge - 1, y);
  auto backend = load(blinker);
  EXPECT_THROW(backend->step(1), RuntimeError);
}

TEST_P(PlaneEdgeTest, PatternsTouchingTheEdgeWithoutGrowingPastItRun) {
  // Blocks in the four corners, a horizontal blinker along the east edge
  // (its vertical phase stays inside) and lone cells on each edge.
  CellSet cells;
  for (int64_t x : {-kEdge, kEdge - 2}) {
    for (int64_t y : {-kEdge, kEdge - 2}) {
      for (int64_t d : {0, 1}) {
        cells.set(x + d, y);
        cells.set(x + d, y + 1);
      }
    }
  }
  for (int64_t x : {kEdge - 3, kEdge - 2, kEdge - 1}) cells.set(x, 1000);
  cells.set(0, -kEdge);
  cells.set(0, kEdge - 1);
  auto backend = load(cells);
  backend->step(100);
  CellSet expected = cells;
  expected.set(0, -kEdge, false);
  expected.set(0, kEdge - 1, false);
  EXPECT_EQ(backend->cells(), expected);
}

INSTANTIATE_TEST_SUITE_P(Libraries, PlaneEdgeTest,
                         ::testing::Values(cpu::SimdLibrary::kHighway, cpu::SimdLibrary::kXsimd));

}  // namespace
}  // namespace gol
