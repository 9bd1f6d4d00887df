// Cross-checks against Golly's batch program bgolly, where it is installed:
// files written by our RLE writer must load in Golly as the same cells, and
// the catalogue's known results must hold when Golly runs the patterns.
// bgolly writes RLE without "#CXRLE Pos=", so cells are compared with their
// bounding boxes moved to the origin.
#include <gtest/gtest.h>

#include <cstdlib>

#include "patterns/catalogue.h"
#include "patterns/pattern_io.h"
#include "patterns/soup.h"
#include "tests/patterns/test_util.h"

namespace gol::patterns {
namespace {

using testing::have_bgolly;
using testing::normalized;
using testing::ScratchDir;

class Bgolly : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_bgolly()) GTEST_SKIP() << "bgolly (Debian package golly) is not installed";
  }

  // Writes `p` with our writer, has bgolly run it `generations` steps with
  // QuickLife and reads Golly's output back with our reader.
  Pattern run(const Pattern& p, uint64_t generations) {
    const std::string in = dir_.file("in.rle");
    const std::string out = dir_.file("out.rle");
    write_pattern_file(in, p);
    const std::string command = "bgolly -q -q -a QuickLife -m " + std::to_string(generations) +
                                " -o '" + out + "' '" + in + "' > /dev/null 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return read_pattern_file(out);
  }

  ScratchDir dir_;
};

TEST_F(Bgolly, LoadsOurRleAsTheSameCells) {
  Pattern p;
  p.cells = make_soup({200, 150, 0.4, 17}).translated(-1234, -5678);
  p.cells.set(-1300, -5700);
  p.cells.set(-1000, -5500);
  p.rule = Rule::conway();
  p.generation = 99;
  p.name = "cross-check";
  EXPECT_EQ(run(p, 0).cells, normalized(p.cells));
}

TEST_F(Bgolly, RunsOtherRules) {
  Pattern p;
  p.cells = make_soup({64, 64, 0.5, 3});
  p.rule = parse_rule("B36/S23").rule;
  const Pattern out = run(p, 0);
  EXPECT_EQ(out.rule, p.rule);
  EXPECT_EQ(out.cells, normalized(p.cells));
}

// A glider placed across Golly's wrap edge (our x = 31|32, y = 31|32) keeps
// five cells only if Golly loaded it onto the torus where we meant it.
TEST_F(Bgolly, TorusPatternsLandInsideGollysGrid) {
  Pattern p;
  p.topology = Topology::torus(64, 64);
  for (Cell c : {Cell{31, 30}, Cell{32, 31}, Cell{30, 32}, Cell{31, 32}, Cell{32, 32}}) {
    p.cells.set(c);
  }
  CellSet golly_view;  // the same cells in Golly's window [-32, 32)
  for (Cell c : p.cells.cells())
    golly_view.set(c.x < 32 ? c.x : c.x - 64, c.y < 32 ? c.y : c.y - 64);
  const Pattern start = run(p, 0);
  ASSERT_TRUE(start.topology.has_value());
  EXPECT_EQ(*start.topology, *p.topology);
  EXPECT_EQ(start.cells, normalized(golly_view));
  EXPECT_EQ(run(p, 4).cells.population(), 5u);
  EXPECT_EQ(run(p, 130).cells.population(), 5u);
  // 256 generations carry a glider 64 cells diagonally: once round the torus.
  EXPECT_EQ(run(p, 256).cells, normalized(golly_view));
}

struct KnownResult {
  const char* name;
  uint64_t generations;
  uint64_t population;
};

// Published results (LifeWiki), the spacefiller's population formula, and
// bgolly 3.3's populations for the bench's puffer and breeder.
TEST_F(Bgolly, CatalogueKnownResults) {
  const KnownResult known[] = {
      {"acorn", 5206, 633},
      {"r-pentomino", 1103, 116},
      {"diehard", 129, 2},
      {"diehard", 130, 0},
      {"rabbits", 17331, 1744},
      {"bunnies", 17332, 1744},
      {"lidka-predecessor", 29100, 1623},
      {"gosper-gun", 300, 36 + 10 * 5},
      {"spacefiller", 100, ((100 + 17) * (100 + 17) + 511) / 4},
      {"spacefiller", 101, ((101 + 17) * (101 + 17) + 608) / 4},
      {"puffer-train", 2000, 7400},
      {"breeder", 1000, 6427},
  };
  for (const KnownResult& k : known) {
    EXPECT_EQ(run(builtin_pattern(k.name), k.generations).cells.population(), k.population)
        << k.name << " at generation " << k.generations;
  }
}

// Oscillators return to their shape after one period; spaceships too, moved.
TEST_F(Bgolly, CataloguePeriods) {
  const std::pair<const char*, uint64_t> periodic[] = {
      {"block", 1},           {"beehive", 1}, {"blinker", 2}, {"toad", 2}, {"pulsar", 3},
      {"pentadecathlon", 15}, {"glider", 4},  {"lwss", 4},    {"mwss", 4}, {"hwss", 4},
  };
  for (const auto& [name, period] : periodic) {
    const Pattern p = builtin_pattern(name);
    EXPECT_EQ(run(p, period).cells, normalized(p.cells)) << name;
    if (period > 1) {
      EXPECT_NE(run(p, 1).cells, normalized(p.cells)) << name;
    }
  }
}

TEST_F(Bgolly, SwitchEngineKeepsGrowing) {
  const Pattern p = builtin_pattern("switch-engine");
  const uint64_t at_5000 = run(p, 5000).cells.population();
  const uint64_t at_10000 = run(p, 10000).cells.population();
  EXPECT_GT(at_10000, at_5000 + 400);
}

}  // namespace
}  // namespace gol::patterns
