// Serial vs nibble vs bit: the three reference paths must agree cell for
// cell on random soups, growing plane patterns and non-Conway rules, at odd
// and even generations.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpu/reference/reference_backends.h"
#include "patterns/catalogue.h"
#include "patterns/soup.h"

namespace gol::cpu {
namespace {

Rule rule_from(const std::string& text) { return parse_rule(text).rule; }

std::string describe(const Rule& rule, const Topology& topology, uint64_t generation) {
  return rule.to_string() + " on " + topology.to_string() + " at generation " +
         std::to_string(generation);
}

// Runs all three paths from `start` and compares nibble and bit with serial
// at every generation listed in `checkpoints` (ascending).
void expect_paths_agree(const CellSet& start, const Rule& rule, const Topology& topology,
                        const std::vector<uint64_t>& checkpoints) {
  std::unique_ptr<Backend> serial = make_serial_backend();
  std::vector<std::unique_ptr<Backend>> others;
  others.push_back(make_nibble_backend());
  others.push_back(make_bit_backend());
  serial->load(start, rule, topology);
  for (auto& other : others) other->load(start, rule, topology);
  uint64_t generation = 0;
  for (uint64_t checkpoint : checkpoints) {
    serial->step(checkpoint - generation);
    for (auto& other : others) other->step(checkpoint - generation);
    generation = checkpoint;
    const CellSet expected = serial->cells();
    for (auto& other : others) {
      ASSERT_EQ(other->population(), serial->population())
          << other->name() << ": " << describe(rule, topology, generation);
      ASSERT_EQ(other->cells(), expected)
          << other->name() << ": " << describe(rule, topology, generation);
    }
  }
}

CellSet soup(int64_t width, int64_t height, double density, uint64_t seed) {
  return patterns::make_soup({width, height, density, seed});
}

const std::vector<uint64_t> kLongRun = {0, 1, 2, 37, 200, 201};
const std::vector<uint64_t> kShortRun = {0, 1, 2, 3, 60, 61};

TEST(ReferenceDifferentialTest, ConwaySoupsOnSquareAndNonSquareTori) {
  const std::pair<int64_t, int64_t> sizes[] = {{64, 64}, {128, 64}, {64, 192}, {256, 256}};
  uint64_t seed = 1;
  for (const auto& [width, height] : sizes) {
    for (double density : {0.1, 0.35, 0.5, 0.8}) {
      SCOPED_TRACE(::testing::Message() << width << "x" << height << " density " << density);
      expect_paths_agree(soup(width, height, density, seed++), Rule::conway(),
                         Topology::torus(width, height), kLongRun);
    }
  }
}

TEST(ReferenceDifferentialTest, OtherRulesOnTori) {
  // HighLife, Seeds, Day & Night, Replicator, Diamoeba, and B0 rules, which
  // only a torus can hold.
  const char* rules[] = {"B36/S23",     "B2/S",         "B3678/S34678",
                         "B1357/S1357", "B35678/S5678", "B0/S8",
                         "B0/S2345678", "B01245/S0125", "B012345678/S012345678"};
  uint64_t seed = 100;
  for (const char* text : rules) {
    for (const auto& [width, height] : {std::pair<int64_t, int64_t>{128, 64}, {64, 192}}) {
      for (double density : {0.35, 0.8}) {
        SCOPED_TRACE(::testing::Message() << text << " density " << density);
        expect_paths_agree(soup(width, height, density, seed++), rule_from(text),
                           Topology::torus(width, height), kShortRun);
      }
    }
  }
}

// .O.
// ..O
// OOO   heading (+1, +1); the flips head to the other three diagonals.
CellSet glider(int64_t x, int64_t y, int flip_x, int flip_y) {
  CellSet set;
  for (const Cell& c : {Cell{1, 0}, Cell{2, 1}, Cell{0, 2}, Cell{1, 2}, Cell{2, 2}}) {
    set.set(x + flip_x * (c.x - 1), y + flip_y * (c.y - 1));
  }
  return set;
}

CellSet merged(const std::vector<CellSet>& parts) {
  CellSet all;
  for (const CellSet& part : parts) {
    for (const Cell& c : part.cells()) all.set(c);
  }
  return all;
}

TEST(ReferenceDifferentialTest, GlidersToAllDiagonalsAroundASoupBlob) {
  const CellSet start =
      merged({glider(-40, -40, -1, -1), glider(40, -40, 1, -1), glider(-40, 40, -1, 1),
              glider(40, 40, 1, 1), soup(32, 32, 0.4, 7).translated(-16, -16)});
  expect_paths_agree(start, Rule::conway(), Topology::plane(), {0, 1, 2, 99, 300, 301});
}

TEST(ReferenceDifferentialTest, SoupsOnThePlaneAtNegativeCoordinates) {
  uint64_t seed = 200;
  for (double density : {0.1, 0.35, 0.5, 0.8}) {
    SCOPED_TRACE(::testing::Message() << "density " << density);
    expect_paths_agree(soup(48, 40, density, seed++).translated(-1000, -70), Rule::conway(),
                       Topology::plane(), {0, 1, 2, 150, 301});
  }
}

TEST(ReferenceDifferentialTest, OtherRulesOnThePlane) {
  // Seeds and B1/S1 grow by about a cell a generation in every direction:
  // the plane grid must stay ahead of them.
  uint64_t seed = 300;
  for (const char* text : {"B36/S23", "B2/S", "B1/S1", "B3678/S34678"}) {
    SCOPED_TRACE(text);
    expect_paths_agree(soup(20, 20, 0.35, seed++).translated(-7, 3), rule_from(text),
                       Topology::plane(), {0, 1, 2, 3, 40, 81});
  }
}

TEST(ReferenceDifferentialTest, CataloguePatternsOnThePlane) {
  for (const std::string& name : patterns::builtin_names()) {
    SCOPED_TRACE(name);
    const Pattern pattern = patterns::builtin_pattern(name);
    expect_paths_agree(pattern.cells.translated(-5, -9), pattern.rule.value_or(Rule::conway()),
                       Topology::plane(), {0, 1, 2, 51, 150});
  }
}

}  // namespace
}  // namespace gol::cpu
