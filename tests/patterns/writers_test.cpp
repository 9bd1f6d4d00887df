// Writers and round trips: read -> write -> read for every format, plain and
// gzip, negative coordinates, Golly's ":T" torus and empty patterns.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "patterns/catalogue.h"
#include "patterns/gzip.h"
#include "patterns/pattern_io.h"
#include "patterns/soup.h"
#include "tests/patterns/test_util.h"

namespace gol::patterns {
namespace {

using testing::normalized;
using testing::ScratchDir;

std::string data_path(const std::string& name) {
  return std::string(GOL_TEST_DATA_DIR) + "/" + name;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Pattern scattered_pattern() {
  Pattern p;
  p.cells = make_soup({150, 90, 0.3, 9}).translated(-1000, -77);
  p.cells.set(-5'000'000'000, 3);
  p.cells.set(123'456'789'012, -987'654'321'000);
  p.rule = parse_rule("B36/S23").rule;
  p.generation = 1234;
  p.name = "scattered";
  p.comments = {"first comment", "second\nspans two lines"};
  return p;
}

TEST(RleWriter, RoundTripKeepsEverything) {
  const Pattern p = scattered_pattern();
  const std::string rle = to_rle(p);
  const Pattern back = parse_pattern(rle, "round-trip.rle");
  EXPECT_EQ(back.cells, p.cells);
  EXPECT_EQ(back.rule, p.rule);
  EXPECT_EQ(back.generation, 1234u);
  EXPECT_EQ(back.name, "scattered");
  const std::vector<std::string> comments = {"first comment", "second", "spans two lines"};
  EXPECT_EQ(back.comments, comments);
  EXPECT_FALSE(back.topology.has_value());
}

TEST(RleWriter, LinesAreAtMost70Characters) {
  Pattern p;
  p.cells = make_soup({300, 200, 0.5, 1});
  p.cells.set(100'000'000'000, 5);  // a long run count
  std::istringstream lines(to_rle(p));
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 70u) << line;
    ++count;
  }
  EXPECT_GT(count, 100);
}

TEST(RleWriter, ExactText) {
  Pattern p = builtin_pattern("glider");
  p.comments.clear();
  p.cells = p.cells.translated(-3, 4);
  EXPECT_EQ(to_rle(p), "#N glider\n#CXRLE Pos=-3,4\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  p.generation = 5;
  p.name.clear();
  EXPECT_EQ(to_rle(p), "#CXRLE Pos=-3,4 Gen=5\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
}

TEST(RleWriter, RunsContinueAcrossTileEdges) {
  Pattern p;
  for (int64_t x = 60; x < 200; ++x) p.cells.set(x, 63);
  for (int64_t x = 60; x < 70; ++x) p.cells.set(x, 64);
  EXPECT_EQ(to_rle(p), "#CXRLE Pos=60,63\nx = 140, y = 2, rule = B3/S23\n140o$10o!\n");
}

// Golly's window for a W x H torus is [-W/2, W/2) x [-H/2, H/2); ours is
// [0, W) x [0, H). Widths of 64 split a tile in half; 128 moves whole tiles.
TEST(RleWriter, TorusCellsMoveIntoGollysWindowAndBack) {
  for (const auto& [w, h] : {std::pair<int64_t, int64_t>{64, 64}, {128, 192}, {64, 256}}) {
    Pattern p;
    p.topology = Topology::torus(w, h);
    for (Cell c : {Cell{0, 0}, Cell{w / 2 - 1, h / 2 - 1}, Cell{w / 2, h / 2}, Cell{w - 1, h - 1},
                   Cell{w - 1, 0}, Cell{0, h - 1}, Cell{w / 2, 3}}) {
      p.cells.set(c);
    }
    const std::string rle = to_rle(p);
    EXPECT_NE(rle.find("rule = B3/S23:T" + std::to_string(w) + "," + std::to_string(h)),
              std::string::npos)
        << rle;
    EXPECT_NE(rle.find("#CXRLE Pos=" + std::to_string(-w / 2) + "," + std::to_string(-h / 2)),
              std::string::npos)
        << rle;
    const Pattern back = parse_pattern(rle, "torus.rle");
    ASSERT_TRUE(back.topology.has_value());
    EXPECT_EQ(*back.topology, *p.topology);
    EXPECT_EQ(back.cells, p.cells) << rle;
  }
}

TEST(CellsWriter, ExactText) {
  Pattern p = builtin_pattern("glider");
  p.comments = {"a spaceship"};
  EXPECT_EQ(to_cells(p), "!Name: glider\n!a spaceship\n.O\n..O\nOOO\n");
  Pattern gaps;
  gaps.cells.set(-70, -70);
  gaps.cells.set(-68, -67);
  EXPECT_EQ(to_cells(gaps), "!Name:\nO\n\n\n..O\n");
}

TEST(CellsWriter, RefusesTextOverTheBudgetBeforeBuildingIt) {
  const uint64_t saved = memory_budget();
  set_memory_budget(uint64_t{64} << 20);
  // A diagonal: 8192 rows averaging 4096 characters, 32 MiB of text.
  Pattern diagonal;
  for (int64_t i = 0; i < 8192; ++i) diagonal.cells.set(i, i);
  EXPECT_EQ(to_cells(diagonal).size(),
            7u + 8192u * 8193u / 2u + 8192u);  // "!Name:\n", rows, newlines
  // Twice as wide: 128 MiB, refused at once.
  for (int64_t i = 8192; i < 16384; ++i) diagonal.cells.set(i, i);
  try {
    to_cells(diagonal);
    ADD_FAILURE() << "not refused";
  } catch (const RuntimeError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("16384x16384"), std::string::npos) << message;
    EXPECT_NE(message.find("memory budget of 64 MiB"), std::string::npos) << message;
    EXPECT_NE(message.find("write .rle instead"), std::string::npos) << message;
  }
  Pattern far;
  far.cells.set(0, 0);
  far.cells.set(int64_t{1} << 61, int64_t{1} << 61);
  EXPECT_THROW(to_cells(far), RuntimeError);
  set_memory_budget(saved);
}

class FileRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(FileRoundTrip, WriteThenRead) {
  ScratchDir dir;
  const std::string path = dir.file("out" + GetParam());
  const Pattern p = scattered_pattern();
  const bool cells_format = GetParam().starts_with(".cells");
  Pattern written = p;
  if (cells_format) written.cells = make_soup({150, 90, 0.3, 9}).translated(-1000, -77);
  write_pattern_file(path, written);
  const bool compressed = GetParam().ends_with(".gz");
  EXPECT_EQ(is_gzip(read_bytes(path)), compressed);
  const Pattern back = read_pattern_file(path);
  EXPECT_EQ(back.name, "scattered");
  if (cells_format) {
    EXPECT_EQ(back.cells, normalized(written.cells));  // plaintext has no origin
  } else {
    EXPECT_EQ(back.cells, p.cells);
    EXPECT_EQ(back.rule, p.rule);
    EXPECT_EQ(back.generation, p.generation);
  }
  // Nothing but the output is left behind (no temporary files).
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            1);
}

TEST_P(FileRoundTrip, EmptyPattern) {
  ScratchDir dir;
  const std::string path = dir.file("empty" + GetParam());
  write_pattern_file(path, Pattern{});
  const Pattern back = read_pattern_file(path);
  EXPECT_TRUE(back.cells.empty());
}

TEST_P(FileRoundTrip, OverwritesExistingFile) {
  ScratchDir dir;
  const std::string path = dir.file("again" + GetParam());
  write_pattern_file(path, builtin_pattern("acorn"));
  write_pattern_file(path, builtin_pattern("glider"));
  EXPECT_EQ(read_pattern_file(path).cells, builtin_pattern("glider").cells);
}

INSTANTIATE_TEST_SUITE_P(Formats, FileRoundTrip,
                         ::testing::Values(".rle", ".rle.gz", ".cells", ".cells.gz", ".RLE"),
                         [](const auto& suite) {
                           std::string name = suite.param.substr(1);
                           for (char& c : name) c = c == '.' ? '_' : c;
                           return name;
                         });

// Every sample file, whatever its format, survives read -> RLE -> read.
TEST(FileRoundTrip, SampleFilesThroughRle) {
  for (const char* name :
       {"patterns-glider.rle", "patterns-glider.cells.gz", "patterns-life105.lif",
        "patterns-life106.lif.gz", "patterns-torus.rle"}) {
    ScratchDir dir;
    const Pattern p = read_pattern_file(data_path(name));
    write_pattern_file(dir.file("copy.rle.gz"), p);
    const Pattern back = read_pattern_file(dir.file("copy.rle.gz"));
    EXPECT_EQ(back.cells, p.cells) << name;
    EXPECT_EQ(back.topology, p.topology) << name;
  }
}

TEST(WritePatternFile, UnknownExtensionIsAUsageError) {
  ScratchDir dir;
  EXPECT_THROW(write_pattern_file(dir.file("out.txt"), Pattern{}), UsageError);
  EXPECT_THROW(write_pattern_file(dir.file("out.gz"), Pattern{}), UsageError);
  EXPECT_THROW(write_pattern_file(dir.file("out"), Pattern{}), UsageError);
}

TEST(WritePatternFile, UnwritablePlaceIsARuntimeError) {
  ScratchDir dir;
  try {
    write_pattern_file(dir.file("no-such-dir/out.rle"), Pattern{});
    FAIL() << "expected RuntimeError";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-dir/out.rle"), std::string::npos) << e.what();
    EXPECT_EQ(e.code(), ExitCode::kRuntime);
  }
}

}  // namespace
}  // namespace gol::patterns
