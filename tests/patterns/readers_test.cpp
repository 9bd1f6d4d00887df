// Every reader on the sample files in tests/data, plain and gzip-compressed,
// with the format chosen by content.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/error.h"
#include "patterns/pattern_io.h"

namespace gol::patterns {
namespace {

std::string data_path(const std::string& name) {
  return std::string(GOL_TEST_DATA_DIR) + "/" + name;
}

// The glider of the sample files, top-left at (-10, -20).
CellSet glider_at_minus_10_minus_20() {
  CellSet cells;
  for (Cell c : {Cell{-9, -20}, Cell{-8, -19}, Cell{-10, -18}, Cell{-9, -18}, Cell{-8, -18}}) {
    cells.set(c);
  }
  return cells;
}

class ReadSample : public ::testing::TestWithParam<std::string> {};

TEST_P(ReadSample, RleWithPositionAndGeneration) {
  const Pattern p = read_pattern_file(data_path("patterns-glider.rle" + GetParam()));
  EXPECT_EQ(p.format, "rle");
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.generation, 8u);
  ASSERT_TRUE(p.rule.has_value());
  EXPECT_TRUE(p.rule->is_conway());
  EXPECT_FALSE(p.topology.has_value());
  EXPECT_EQ(p.cells, glider_at_minus_10_minus_20());
  ASSERT_EQ(p.comments.size(), 2u);
  EXPECT_EQ(p.comments[0], "Author: Richard K. Guy");
  EXPECT_EQ(p.comments[1], "The smallest, most common spaceship.");
}

TEST_P(ReadSample, Plaintext) {
  const Pattern p = read_pattern_file(data_path("patterns-glider.cells" + GetParam()));
  EXPECT_EQ(p.format, "cells");
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.cells, glider_at_minus_10_minus_20().translated(10, 20));
  ASSERT_EQ(p.comments.size(), 1u);
}

TEST_P(ReadSample, Life105WithBareP) {
  const Pattern p = read_pattern_file(data_path("patterns-life105.lif" + GetParam()));
  EXPECT_EQ(p.format, "life1.05");
  ASSERT_TRUE(p.rule.has_value());
  EXPECT_TRUE(p.rule->is_conway());
  CellSet expected = glider_at_minus_10_minus_20();
  for (int64_t x = -10; x <= -8; ++x) expected.set(x, -17);  // the block after the bare #P
  EXPECT_EQ(p.cells, expected);
  EXPECT_EQ(p.comments.size(), 2u);
}

TEST_P(ReadSample, Life106) {
  const Pattern p = read_pattern_file(data_path("patterns-life106.lif" + GetParam()));
  EXPECT_EQ(p.format, "life1.06");
  EXPECT_EQ(p.cells, glider_at_minus_10_minus_20());
  EXPECT_EQ(p.name, "patterns-life106.lif" + GetParam());
}

INSTANTIATE_TEST_SUITE_P(PlainAndGzip, ReadSample, ::testing::Values("", ".gz"),
                         [](const auto& suite) { return suite.param.empty() ? "plain" : "gzip"; });

TEST(Readers, GzipIsDetectedByContentNotName) {
  const Pattern p = read_pattern_file(data_path("patterns-glider-gz-without-suffix.rle"));
  EXPECT_EQ(p.cells, glider_at_minus_10_minus_20());
}

// Golly's window for a 64x64 torus is [-32, 32); ours is [0, 64).
TEST(Readers, GollyTorusIsWrappedIntoOurWindow) {
  const Pattern p = read_pattern_file(data_path("patterns-torus.rle"));
  ASSERT_TRUE(p.topology.has_value());
  EXPECT_EQ(*p.topology, Topology::torus(64, 64));
  const std::vector<Cell> expected = {{31, 32}, {33, 32}, {34, 33}, {32, 34}, {33, 34}, {34, 34}};
  EXPECT_EQ(p.cells.cells(), expected);
}

TEST(Readers, FormatChosenByContent) {
  EXPECT_EQ(parse_pattern("x = 1, y = 1\no!", "t").format, "rle");
  EXPECT_EQ(parse_pattern("\n\nbo$obo!", "t").format, "rle");
  EXPECT_EQ(parse_pattern("3o!", "t").format, "rle");
  EXPECT_EQ(parse_pattern(".O\r\nOO\r\n", "t").format, "cells");
  EXPECT_EQ(parse_pattern("0 0\n1 1\n", "t").format, "life1.06");
  EXPECT_EQ(parse_pattern("#Life 1.05\n*\n", "t").format, "life1.05");
  EXPECT_EQ(parse_pattern("#Life 1.06\n5 5\n", "t").format, "life1.06");
  EXPECT_EQ(parse_pattern("\xEF\xBB\xBF#N bom\nx = 1, y = 1\no!", "t").name, "bom");
}

TEST(Readers, RleDetails) {
  // Runs split across lines, counts continued over a line break, blank
  // lines and the legacy rule form.
  const Pattern p = parse_pattern("x = 5, y = 3, rule = 23/3\n2o\n3bo$\n\n$1\n2o!", "t");
  const std::vector<Cell> expected = {{0, 0}, {1, 0}, {5, 0}, {0, 2},  {1, 2},
                                      {2, 2}, {3, 2}, {4, 2}, {5, 2},  {6, 2},
                                      {7, 2}, {8, 2}, {9, 2}, {10, 2}, {11, 2}};
  EXPECT_EQ(p.cells.cells(), expected);
  EXPECT_TRUE(p.rule->is_conway());
  EXPECT_EQ(parse_pattern("x = 0, y = 0, rule = B36/S23\n!", "t").rule->to_string(), "B36/S23");
  EXPECT_TRUE(parse_pattern("x = 0, y = 0\n!", "t").cells.empty());
  EXPECT_EQ(parse_pattern("#r 34/34\nx = 1, y = 1\no!", "t").rule->to_string(), "B34/S34");
}

TEST(Readers, HugeHeaderSizesDoNotAllocate) {
  const Pattern p =
      parse_pattern("x = 9223372036854775807, y = 9223372036854775807\no!", "huge.rle");
  EXPECT_EQ(p.cells.population(), 1u);
}

TEST(Readers, FarCoordinatesStaySparse) {
  // The corners of the plane gol runs on, [-2^62, 2^62) both ways.
  const Pattern p = parse_pattern(
      "#CXRLE Pos=-4611686018427387904,-4611686018427387904\nx = 0, y = 0\n"
      "o9223372036854775806bo$9223372036854775806$o!",
      "far.rle");
  constexpr int64_t kEdge = int64_t{1} << 62;
  const std::vector<Cell> expected = {{-kEdge, -kEdge}, {kEdge - 1, -kEdge}, {-kEdge, kEdge - 1}};
  EXPECT_EQ(p.cells.cells(), expected);
  EXPECT_EQ(p.cells.tiles().size(), 3u);
  EXPECT_EQ(p.cells.bbox()->width(), uint64_t{1} << 63);
}

// Cells over many tiles in several tile rows, met by the readers in
// different orders: the reader's tile caches must find or make the right
// tile whatever the order, for runs inside a tile and across tile edges.
TEST(Readers, TilesMetInAnyOrderAllLoad) {
  CellSet cells;
  uint64_t state = 99;
  for (int i = 0; i < 4000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const Cell c{static_cast<int64_t>(state >> 40) % 700 - 350,
                 static_cast<int64_t>(state >> 20 & 0xFFFFF) % 300 - 150};
    cells.set(c);
  }
  for (int64_t x = -200; x < 200; ++x) cells.set(x, 7);  // one run over seven tiles
  const std::vector<Cell> listed = cells.cells();

  Pattern pattern;
  pattern.cells = cells;
  EXPECT_EQ(parse_pattern(to_rle(pattern), "any.rle").cells, cells);

  auto life106 = [](const std::vector<Cell>& order) {
    std::string text = "#Life 1.06\n";
    for (const Cell c : order) text += std::to_string(c.x) + " " + std::to_string(c.y) + "\n";
    return text;
  };
  EXPECT_EQ(parse_pattern(life106(listed), "sorted.lif").cells, cells);
  std::vector<Cell> reversed(listed.rbegin(), listed.rend());
  EXPECT_EQ(parse_pattern(life106(reversed), "reversed.lif").cells, cells);
  std::vector<Cell> shuffled = listed;
  for (size_t i = shuffled.size() - 1; i > 0; --i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    std::swap(shuffled[i], shuffled[(state >> 33) % (i + 1)]);
  }
  EXPECT_EQ(parse_pattern(life106(shuffled), "shuffled.lif").cells, cells);
}

// The reader takes most tokens of a pattern line by a quick path and the
// rest (new tiles, long counts, counts split by the 64 KiB buffer, the
// far reaches of the plane) by the careful one. Random tokens on one long
// line, with counts of up to twelve digits and in every tag's spelling,
// from origins near and far, load as the tokens say.
TEST(Readers, RandomRunsLoadAsTheirTokensSay) {
  uint64_t state = 7;
  auto next = [&](uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((state >> 24) % bound);
  };
  for (const int64_t origin : {int64_t{-3}, (int64_t{1} << 60) - 900, -(int64_t{1} << 61)}) {
    SCOPED_TRACE(origin);
    std::string body;
    CellSet expected;
    int64_t x = 0;
    int64_t y = 0;
    while (body.size() < 300000) {
      const int64_t kind = next(100);
      int64_t count = 0;
      char tag = '$';
      if (kind < 3) {
        count = next(3) + 1;
      } else if (kind < 5) {
        count = next(int64_t{1} << 40) + 1000000000;  // ten to thirteen digits
        tag = '.';
      } else {
        count = next(kind < 12 ? 200 : 9) + 1;
        tag = kind < 50 ? (kind % 2 == 0 ? 'o' : 'A') : (kind % 2 == 0 ? 'b' : '.');
      }
      body += (count > 1 || next(2) == 0 ? std::to_string(count) : "") + tag;
      if (tag == '$') {
        y += count;
        x = 0;
        continue;
      }
      if (tag == 'o' || tag == 'A') {
        for (int64_t i = 0; i < count; ++i) expected.set(origin + x + i, origin + y);
      }
      x += count;
    }
    const std::string text = "#CXRLE Pos=" + std::to_string(origin) + "," + std::to_string(origin) +
                             "\nx = 1, y = 1\n" + body + "!";
    EXPECT_TRUE(parse_pattern(text, "random.rle").cells == expected);
  }
}

// Counts as Golly reads them: a blank ends a count, a count may go on
// after a line break, and a count of 0 is 1.
TEST(Readers, RunCountsAsGollyReadsThem) {
  EXPECT_EQ(parse_pattern("x = 2, y = 1\n1 2o!", "t").cells.population(), 2u);
  EXPECT_EQ(parse_pattern("x = 3, y = 1\n3\no!", "t").cells.population(), 3u);
  EXPECT_EQ(parse_pattern("x = 3, y = 1\n1\r\n2o!", "t").cells.population(), 12u);
  const std::vector<Cell> zeros = {{0, 0}, {1, 1}, {2, 1}};
  EXPECT_EQ(parse_pattern("x = 3, y = 2\n0o$0b2o!", "t").cells.cells(), zeros);
}

TEST(Readers, HeaderlessLife106KeepsItsFirstCell) {
  const std::vector<Cell> expected = {{0, 0}, {1, 0}, {-3, 2}};
  for (const char* text :
       {"0 0\n1 0\n-3 2\n", "\n  0 0\n1 0\n-3 2", "#Life 1.06\n0 0\n1 0\n-3 2\n"}) {
    const Pattern p = parse_pattern(text, "t.lif");
    EXPECT_EQ(p.format, "life1.06") << text;
    std::vector<Cell> cells = p.cells.cells();
    std::vector<Cell> sorted = expected;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(cells, sorted) << text;
  }
}

TEST(Readers, LeadingBlankLinesArePlaintextRows) {
  const std::vector<Cell> expected = {{1, 2}};
  EXPECT_EQ(parse_pattern("\n\n.O\n", "t.cells").cells.cells(), expected);
}

TEST(Readers, LoadPatternSpecs) {
  EXPECT_EQ(load_pattern("builtin:glider").cells.population(), 5u);
  const Pattern soup = load_pattern("soup:64x64:0.5:3");
  EXPECT_EQ(soup.format, "soup");
  EXPECT_EQ(soup.name, "soup:64x64:0.5:3");
  EXPECT_GT(soup.cells.population(), 1000u);
  EXPECT_EQ(load_pattern(data_path("patterns-glider.rle")).cells, glider_at_minus_10_minus_20());
}

}  // namespace
}  // namespace gol::patterns
