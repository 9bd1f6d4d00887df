// The macrocell reader and writer on their own: Golly's placement of the
// root, both node syntaxes, shared nodes, round trips, the size check made
// before anything is allocated, and errors with their locations.
#include "patterns/macrocell.h"

#include <gtest/gtest.h>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "patterns/gzip.h"
#include "patterns/pattern_io.h"
#include "patterns/soup.h"
#include "tests/patterns/test_util.h"

namespace gol::patterns {
namespace {

using testing::ScratchDir;

CellSet glider_at(int64_t x, int64_t y) {
  CellSet cells;
  for (Cell c : {Cell{1, 0}, Cell{2, 1}, Cell{0, 2}, Cell{1, 2}, Cell{2, 2}}) {
    cells.set(x + c.x, y + c.y);
  }
  return cells;
}

// What bgolly 3.3 writes for "#CXRLE Pos=-5,7 Gen=12" and a glider: a
// level-5 root whose top-left cell is (-16, -15).
constexpr const char* kGollyGlider =
    "[M2] (golly 3.3)\n#R B3/S23\n#G 12\n$$$$$$....*$.....*$\n...***$\n4 0 1 0 2\n5 0 0 3 0\n";

TEST(MacrocellReader, PlacesTheRootAsGollyDoes) {
  const Pattern p = parse_pattern(kGollyGlider, "glider.mc");
  EXPECT_EQ(p.format, "macrocell");
  EXPECT_EQ(p.cells, glider_at(-5, 7));
  EXPECT_EQ(p.generation, 12u);
  EXPECT_EQ(p.rule, Rule::conway());
  EXPECT_FALSE(p.topology.has_value());
}

// bgolly's RuleLoader writes two-state patterns with level-1 nodes of cell
// states instead of 8x8 leaves: the same glider.
TEST(MacrocellReader, ReadsLevelOneNodes) {
  const Pattern p = parse_macrocell(
      "[M2] (golly 3.3)\n#R B3/S23\n#G 12\n1 1 0 0 1\n2 0 0 1 0\n3 0 0 0 2\n1 0 1 0 0\n"
      "2 0 4 0 0\n1 1 1 0 0\n2 6 0 0 0\n3 5 7 0 0\n4 0 3 0 8\n5 0 0 9 0\n",
      "rule-loader.mc");
  EXPECT_EQ(p.cells, glider_at(-5, 7));
}

TEST(MacrocellReader, CommentsNameAndBlankLines) {
  const Pattern p = parse_macrocell(
      "[M2] (golly 2.0)\n#C first\n#N named\n\n#FRAMES 1\n#C second\n.*$\n\n4 1 0 0 0\n",
      "notes.mc");
  EXPECT_EQ(p.name, "named");
  EXPECT_EQ(p.comments, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(p.rule, std::nullopt);
  CellSet expected;
  expected.set(-7, -7);
  EXPECT_EQ(p.cells, expected);
}

// A file of leaves only has no root: Golly loads it as an empty pattern.
TEST(MacrocellReader, LeavesWithoutNodesAreEmpty) {
  EXPECT_TRUE(parse_macrocell("[M2]\n.*$..*$***$\n", "leaf.mc").cells.empty());
  EXPECT_TRUE(parse_macrocell("[M2] (golly 3.3)\n#R B3/S23\n", "none.mc").cells.empty());
}

TEST(MacrocellReader, TorusRuleWrapsIntoOurGrid) {
  const Pattern p =
      parse_macrocell("[M2]\n#R B3/S23:T64,64\n.*$..*$***$\n4 1 0 0 0\n5 0 0 0 2\n", "torus.mc");
  ASSERT_TRUE(p.topology.has_value());
  EXPECT_EQ(*p.topology, Topology::torus(64, 64));
  EXPECT_EQ(p.cells, glider_at(0, 1).wrapped(64, 64));
}

// A 2^k square of blocks all made of one shared node: 4^k copies of the
// leaf, expanded by drawing the level-6 node once.
TEST(MacrocellReader, SharedNodesExpandEverywhere) {
  std::string text = "[M2]\n**$**$\n4 1 1 1 1\n5 2 2 2 2\n6 3 3 3 3\n";
  for (int level = 7; level <= 12; ++level) {
    const int child = level - 3;
    text += std::to_string(level) + " " + std::to_string(child) + " " + std::to_string(child) +
            " " + std::to_string(child) + " " + std::to_string(child) + "\n";
  }
  const Pattern p = parse_macrocell(text, "tiled.mc");
  EXPECT_EQ(p.cells.population(), uint64_t{4} << 18);  // 4 cells per leaf, 2^18 leaves
  const BBox box = p.cells.bbox().value();
  EXPECT_EQ(box, (BBox{-2048, -2047, 2048 - 7, 2048 - 6}));
}

// Nodes of levels 4 to `root_level` (numbered 2, 3, ...), each with node 1
// (a leaf) or the one before in its north-west quadrant.
std::string top_left_chain(int root_level) {
  std::string chain;
  for (int level = 4; level <= root_level; ++level) {
    chain += std::to_string(level) + " " + std::to_string(level - 3) + " 0 0 0\n";
  }
  return chain;
}

// Cells near the centre of a root far deeper than 64 levels still have
// 64-bit coordinates: only the centre is kept.
TEST(MacrocellReader, DeepRootWithCellsNearTheCentre) {
  // Node n (level n + 2) holds one cell at its top-left corner; the root
  // puts the last of them in its south-east quadrant, whose top-left cell
  // is (0, 1).
  const std::string text = "[M2]\n*$\n" + top_left_chain(99) + "100 0 0 0 97\n";
  const Pattern p = parse_macrocell(text, "deep.mc");
  CellSet expected;
  expected.set(0, 1);
  EXPECT_EQ(p.cells, expected);
}

TEST(MacrocellWriter, RoundTripKeepsEverything) {
  Pattern p;
  p.cells = make_soup({300, 200, 0.35, 4}).translated(-1000, -77);
  p.cells.set(-5'000'000'000, 3);
  p.cells.set(123'456'789'012, -987'654'321'000);
  p.rule = parse_rule("B36/S23").rule;
  p.generation = 98'765'432'101;
  p.name = "scattered";
  p.comments = {"first comment", "second\nspans two lines"};
  const Pattern back = parse_pattern(to_macrocell(p), "round-trip.mc");
  EXPECT_EQ(back.cells, p.cells);
  EXPECT_EQ(back.rule, p.rule);
  EXPECT_EQ(back.generation, p.generation);
  EXPECT_EQ(back.name, "scattered");
  EXPECT_EQ(back.comments,
            (std::vector<std::string>{"first comment", "second", "spans two lines"}));
}

// The corners of the plane readers load into, [-2^62, 2^62) both ways.
TEST(MacrocellWriter, ExtremeCoordinatesRoundTrip) {
  constexpr int64_t kEdge = int64_t{1} << 62;
  Pattern p;
  for (int64_t x : {-kEdge, int64_t{-1}, int64_t{0}, kEdge - 1}) {
    for (int64_t y : {-kEdge, int64_t{-1}, int64_t{0}, int64_t{1}, kEdge - 1}) {
      p.cells.set(x, y);
    }
  }
  EXPECT_EQ(parse_macrocell(to_macrocell(p), "extreme.mc").cells, p.cells);
}

TEST(MacrocellWriter, EqualBlocksAreWrittenOnce) {
  Pattern p;
  const CellSet block = make_soup({64, 64, 0.5, 11});
  for (int64_t i = 0; i < 16; ++i) {
    for (const auto& [coord, tile] : block.tiles()) p.cells.put_tile({i, 3 * i}, tile);
  }
  const std::string text = to_macrocell(p);
  // Copies at other offsets from the block grid could differ, but these
  // sit alike: one row below each tile (see macrocell.h), so all equal.
  Pattern one;
  one.cells = block;
  EXPECT_LT(text.size(), 3 * to_macrocell(one).size());
  EXPECT_EQ(parse_macrocell(text, "blocks.mc").cells, p.cells);
}

TEST(MacrocellWriter, TorusAndEmptyPatterns) {
  Pattern torus;
  torus.topology = Topology::torus(128, 64);
  torus.cells = make_soup({128, 64, 0.5, 2});
  const Pattern back = parse_macrocell(to_macrocell(torus), "torus.mc");
  EXPECT_EQ(back.topology, torus.topology);
  EXPECT_EQ(back.cells, torus.cells);

  const Pattern empty = parse_macrocell(to_macrocell(Pattern{}), "empty.mc");
  EXPECT_TRUE(empty.cells.empty());
}

TEST(MacrocellWriter, FilesByExtensionPlainAndGzip) {
  ScratchDir dir;
  Pattern p;
  p.cells = make_soup({100, 100, 0.4, 5}).translated(-50, 20);
  p.generation = 7;
  for (const char* name : {"out.mc", "out.mc.gz", "OUT.MC"}) {
    const std::string path = dir.file(name);
    write_pattern_file(path, p);
    const Pattern back = read_pattern_file(path);
    EXPECT_EQ(back.cells, p.cells) << name;
    EXPECT_EQ(back.generation, 7u) << name;
    EXPECT_EQ(back.format, "macrocell") << name;
  }
}

// Error cases: each names the file, line and column and what was expected.
struct BadMacrocell {
  const char* label;
  std::string text;
  int64_t line;
  int64_t column;
  const char* words;
};

void PrintTo(const BadMacrocell& c, std::ostream* os) { *os << c.label; }

class BadMacrocellText : public ::testing::TestWithParam<BadMacrocell> {};

TEST_P(BadMacrocellText, IsRefusedWithLocation) {
  const BadMacrocell& c = GetParam();
  try {
    const Pattern p = parse_pattern(c.text, "bad.mc");
    ADD_FAILURE() << "accepted, population " << p.cells.population();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.source(), "bad.mc");
    EXPECT_EQ(e.line(), c.line) << message;
    EXPECT_EQ(e.column(), c.column) << message;
    EXPECT_NE(message.find(c.words), std::string::npos) << message;
  }
}

const BadMacrocell kBadMacrocells[] = {
    {"other version", "[M3] (golly 9)\n", 1, 1, "expected [M2]"},
    {"stray text", "[M2]\n.*$\nhello\n", 3, 1, "expected a leaf"},
    {"bad leaf character", "[M2]\n.*$x\n", 2, 4, "in a leaf (expected '.', '*' or '$')"},
    {"live cell past column 8", "[M2]\n........*$\n", 2, 9, "outside the leaf's 8x8 block"},
    {"live cell past row 8", "[M2]\n$$$$$$$$*$\n", 2, 9, "outside the leaf's 8x8 block"},
    {"text after a leaf", "[M2]\n.*$ more\n", 2, 5, "after the node"},
    {"missing child", "[M2]\n.*$\n4 1 0 0\n", 3, 8, "expected a node number"},
    {"negative child", "[M2]\n.*$\n4 1 0 0 -1\n", 3, 9, "expected a node number"},
    {"undefined node", "[M2]\n.*$\n4 1 0 0 2\n", 3, 1, "node 2 is not defined"},
    {"node refers to itself", "[M2]\n.*$\n4 1 0 0 0\n5 2 0 0 3\n", 4, 1, "node 3 is not defined"},
    {"wrong child level", "[M2]\n.*$\n4 1 0 0 0\n6 2 0 0 0\n", 4, 1,
     "node 2 has level 4 (expected level 5"},
    {"leaf under level 5", "[M2]\n.*$\n5 1 0 0 0\n", 3, 1, "has level 3 (expected level 4"},
    {"level zero", "[M2]\n0 0 0 0 0\n", 2, 1, "node level must be at least 1"},
    {"level too deep", "[M2]\n5000 0 0 0 0\n", 2, 1, "too deep"},
    {"level overflow", "[M2]\n99999999999999999999 0 0 0 0\n", 2, 1, "does not fit"},
    {"bad generation", "[M2]\n#G 1,000\n", 2, 5, "in the generation (expected digits)"},
    {"huge generation", "[M2]\n#G 123456789012345678901234\n", 2, 4, "does not fit in 64 bits"},
    {"unknown rule", "[M2] (golly 0.9)\n#R w22\n$$$$$$$*$\n4 0 1 0 0\n", 2, 4, "w22"},
    {"multi-state", "[M2]\n#R WireWorld\n1 0 3 3 0\n2 0 0 0 1\n1 0 2 0 0\n", 3, 5,
     "macrocell files with 4 states are not supported (rule 'WireWorld')"},
    // A cell at the top-left corner of a root of level 70, and of level 65
    // (x = -2^64): the first is refused while shrinking the root, the other
    // while checking coordinates.
    {"cells beyond 64 bits", "[M2]\n*$\n" + top_left_chain(70), 69, 1, "beyond the plane"},
    {"cells beyond 64 bits at level 65", "[M2]\n*$\n" + top_left_chain(65), 64, 1,
     "beyond the plane"},
    // x = -2^63 fits in 64 bits but lies beyond the plane gol runs on.
    {"cells beyond the plane at level 64", "[M2]\n*$\n" + top_left_chain(64), 63, 1,
     "beyond the plane"},
};

INSTANTIATE_TEST_SUITE_P(Cases, BadMacrocellText, ::testing::ValuesIn(kBadMacrocells),
                         [](const auto& test) {
                           std::string name = test.param.label;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

std::string full_square_of_level(int root_level) {
  std::string text = "[M2]\n";
  for (int row = 0; row < 8; ++row) text += "********$";
  text += "\n";
  for (int level = 4; level <= root_level; ++level) {
    const std::string child = std::to_string(level - 3);
    text += std::to_string(level) + " " + child + " " + child + " " + child + " " + child + "\n";
  }
  return text;
}

// Sets the memory budget for one test.
class BudgetScope {
 public:
  explicit BudgetScope(uint64_t bytes) : saved_(memory_budget()) { set_memory_budget(bytes); }
  ~BudgetScope() { set_memory_budget(saved_); }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;

 private:
  uint64_t saved_;
};

std::string refusal(const std::string& text) {
  try {
    parse_macrocell(text, "huge.mc");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// A square of full blocks 2^36 cells wide: refused by its size, read off
// the shared nodes, before any tile exists.
TEST(MacrocellReader, RefusesPatternsLargerThanTheBudget) {
  // 2^30 x 2^30 blocks, each filling two tiles: its bottom row reaches the
  // tile below (see macrocell.h).
  EXPECT_EQ(refusal(full_square_of_level(36)),
            "huge.mc:35:1: a 2^36 x 2^36 macrocell universe filling up to 2305843009213693952 "
            "64x64 tiles needs more than 16 EiB, more than the memory budget of " +
                format_bytes(memory_budget()) + " (set it with --max-memory)");
  EXPECT_NE(refusal(full_square_of_level(40)).find("filling up to more than 2^64 64x64 tiles"),
            std::string::npos);
  // 8 x 8 blocks: up to 128 tiles (in fact 72), about 80 KB with the
  // reader's own records.
  {
    const BudgetScope budget(100 << 10);
    EXPECT_EQ(refusal(full_square_of_level(9)), "accepted");
  }
  const BudgetScope budget(64 << 10);
  EXPECT_NE(refusal(full_square_of_level(9)).find("filling up to 128 64x64 tiles needs 79 KiB"),
            std::string::npos)
      << refusal(full_square_of_level(9));
}

// Millions of one-line leaves grow the node table, which is held to the
// budget as it grows.
TEST(MacrocellReader, NodeTableIsHeldToTheBudget) {
  const BudgetScope budget(1 << 20);
  std::string text = "[M2]\n";
  for (int i = 0; i < 100'000; ++i) text += "$\n";
  EXPECT_NE(refusal(text).find("a table of 32768 macrocell nodes needs 1.2 MiB"), std::string::npos)
      << refusal(text);
}

}  // namespace
}  // namespace gol::patterns
