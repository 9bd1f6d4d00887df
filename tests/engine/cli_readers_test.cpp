// Issue 10 through the gol command: files read as Golly reads them, what gol
// writes it reads back (far coordinates, generations near 2^63), and a
// pattern growing past the edge of the plane stops with exit 4, not a
// clipped answer with exit 0.
#include "tests/engine/gol_process.h"

namespace {

using gol::testing::Outcome;
using gol::testing::slurp;
using CliReadersTest = gol::testing::GolProcessTest;

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// `gol info FILE` succeeds and reports `population` cells.
void expect_population(const Outcome& info, int population) {
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_TRUE(contains(info.out, "population   " + std::to_string(population) + "\n")) << info.out;
}

TEST_F(CliReadersTest, RunCountsReadAsGollyReadsThem) {
  // A blank ends a count; a count of 0 is 1.
  expect_population(gol({"info", write_file("a.rle", "x = 2, y = 1\n1 2o!\n").string()}), 2);
  expect_population(gol({"info", write_file("b.rle", "x = 1, y = 1\n0o!\n").string()}), 1);
}

TEST_F(CliReadersTest, Life106WithoutItsHeaderKeepsItsFirstCell) {
  const Outcome info = gol({"info", write_file("a.lif", "0 0\n1 0\n-3 2\n").string()});
  expect_population(info, 3);
  EXPECT_TRUE(contains(info.out, "x -3..1, y 0..2")) << info.out;
}

TEST_F(CliReadersTest, AGenerationNear2To63IsWrittenAndReadBack) {
  const std::string in =
      write_file("late.rle", "#CXRLE Gen=9223372036854775806\nx = 3, y = 3\nbo$2bo$3o!\n").string();
  const std::string out = (dir_ / "later.rle").string();
  const Outcome run = gol({"run", in, "--gens", "1", "--out", out, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(slurp(out), "Gen=9223372036854775807")) << slurp(out);
  const Outcome info = gol({"info", out});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_TRUE(contains(info.out, "generation   9223372036854775807\n")) << info.out;
}

TEST_F(CliReadersTest, ABox2To63WideIsWrittenAndReadBack) {
  const std::string in =
      write_file("wide.lif", "#Life 1.06\n-4611686018427387904 0\n4611686018427387903 0\n")
          .string();
  const std::string out = (dir_ / "wide.rle").string();
  const Outcome run = gol({"run", in, "--gens", "0", "--out", out, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Outcome info = gol({"info", out});
  expect_population(info, 2);
  EXPECT_TRUE(contains(info.out, "(9223372036854775808 x 1)")) << info.out;
}

TEST_F(CliReadersTest, AGliderReachingTheEdgeOfThePlaneStopsWithExit4) {
  // Its cells reach x = 2^62 - 1 at generation 26; at 27 one is born at 2^62.
  const std::string in =
      write_file("edge.rle", "#CXRLE Pos=4611686018427387895,0\nx = 3, y = 3\nbo$2bo$3o!\n")
          .string();
  expect_failure({"run", in, "--gens", "40", "--quiet"}, 4,
                 "the pattern grows past the edge of the plane, into x = 2^62, at generation 27");
  const Outcome inside = gol({"run", in, "--gens", "26", "--quiet"});
  EXPECT_EQ(inside.exit_code, 0) << inside.err;
}

}  // namespace
