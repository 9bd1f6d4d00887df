// Bad input of every kind: each must raise InputError (exit code 3) whose
// message names the source, the line and column where they apply, and the
// problem. Nothing may crash, hang or allocate by a number in the file.
#include <gtest/gtest.h>

#include <fstream>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "patterns/gzip.h"
#include "patterns/pattern_io.h"
#include "patterns/rle.h"
#include "tests/patterns/test_util.h"

namespace gol::patterns {
namespace {

using testing::ScratchDir;

struct BadCase {
  const char* label;
  std::string text;
  int64_t line;    // 0: not applicable
  int64_t column;  // 0: not applicable
  const char* words;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.label; }

class BadText : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadText, IsRefusedWithLocation) {
  const BadCase& c = GetParam();
  try {
    const Pattern p = parse_pattern(c.text, "bad.rle");
    ADD_FAILURE() << "accepted, population " << p.cells.population();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.code(), ExitCode::kInput);
    EXPECT_EQ(e.source(), "bad.rle");
    EXPECT_EQ(e.line(), c.line) << message;
    EXPECT_EQ(e.column(), c.column) << message;
    EXPECT_NE(message.find(c.words), std::string::npos) << message;
    if (c.line > 0) {
      EXPECT_TRUE(message.starts_with("bad.rle:" + std::to_string(c.line) + ":")) << message;
    }
  }
}

const BadCase kBadCases[] = {
    {"empty", "", 0, 0, "empty file"},
    {"only_blank_lines", "\n  \n\t\n", 0, 0, "empty file"},
    {"only_comments", "#C nothing here\n", 1, 16, "no RLE pattern data"},
    {"truncated_body", "x = 3, y = 3\nbo$2bo$3o", 2, 10, "without the '!'"},
    {"truncated_after_header", "x = 3, y = 3\n", 1, 13, "without the '!'"},
    {"header_size_not_a_number", "x = abc, y = 3\no!", 1, 5, "expected pattern size"},
    {"header_size_overflow", "x = 99999999999999999999, y = 1\no!", 1, 5, "does not fit"},
    {"header_negative_size", "x = -4, y = 1\no!", 1, 5, "negative pattern size"},
    {"header_missing_y", "x = 4\no!", 1, 1, "both x and y"},
    {"header_junk", "x = 4, y = 4 junk\no!", 1, 14, "expected ','"},
    {"header_bad_rule", "x = 1, y = 1, rule = B9/S23\no!", 1, 22, "more than 8"},
    {"header_torus_not_64", "x = 1, y = 1, rule = B3/S23:T100,100\no!", 1, 22, "multiples of 64"},
    {"run_count_overflow", "x = 1, y = 1\n3b99999999999999999999o!", 2, 3, "run count overflows"},
    {"x_beyond_plane", "x = 1, y = 1\n9223372036854775807b9223372036854775807b9o!", 2, 42,
     "beyond the plane"},
    {"y_beyond_plane", "x = 1, y = 1\n9223372036854775807$9223372036854775807$5$o!", 2, 43,
     "beyond the plane"},
    {"position_beyond_plane", "#CXRLE Pos=9223372036854775807,0\nx = 2, y = 1\n2o!", 3, 2,
     "beyond the plane"},
    {"run_past_plane_edge", "#CXRLE Pos=4611686018427387903,0\nx = 2, y = 1\n2o!", 3, 2,
     "beyond the plane"},
    {"cells_beyond_plane", "#Life 1.06\n4611686018427387904 0\n", 2, 1, "beyond the plane"},
    {"cells_blank_inside_row", "!Name: x\n.O .O\n", 2, 3, "unexpected blank"},
    {"gen_overflow", "#CXRLE Gen=18446744073709551616\nx = 1, y = 1\no!", 1, 12, "does not fit"},
    {"position_malformed", "#CXRLE Pos=12\nx = 1, y = 1\no!", 1, 14, "expected ','"},
    {"negative_generation", "#CXRLE Gen=-5\nx = 1, y = 1\no!", 1, 12, "negative generation"},
    {"unknown_character", "x = 1, y = 1\nbo$z!", 2, 4, "unexpected character 'z'"},
    {"multi_state", "x = 1, y = 1\nA2C!", 2, 3, "multi-state cell 'C'"},
    {"count_before_bang", "x = 1, y = 1\no3!", 2, 2, "has no cell"},
    {"binary_nul", std::string("x = 1, y = 1\nbo\0$!", 18), 2, 3, "binary data (byte 0x00)"},
    {"binary_png", "\x89PNG\r\n\x1a\n", 1, 1, "PNG images are not supported"},
    {"mcell", "#MCell 4.20\n#GAME Life\n#L .*\n", 1, 1, "MCell files are not supported"},
    {"golly_rule_file", "@RULE WireWorld\n@TABLE\n", 1, 1, "Golly rule files (@RULE)"},
    {"zip", std::string("PK\x03\x04\x14\x00", 6), 1, 1, "zip archives are not supported"},
    {"bzip2", "BZh91AY&SY", 1, 1, "bzip2-compressed files are not supported"},
    {"binary_control", "#C fine\n\x01\x02\x03", 2, 1, "binary data"},
    {"unknown_format", "hello world\n", 1, 1, "unrecognised pattern format"},
    {"life_version", "#Life 2.0\n", 1, 1, "unsupported Life format"},
    {"cells_unknown_character", "!Name: x\n.O\n.X\n", 3, 2, "unexpected character 'X'"},
    {"life105_bad_row", "#Life 1.05\n#P 0 0\n.*x\n", 3, 3, "unexpected character 'x'"},
    {"life105_bad_p", "#Life 1.05\n#P 4 y\n", 2, 6, "block y position"},
    {"life105_p_overflow", "#Life 1.05\n#P 99999999999999999999 0\n", 2, 4, "does not fit"},
    {"life105_bad_rule", "#Life 1.05\n#R 2x/3\n*\n", 2, 4, "rule"},
    {"life106_three_numbers", "#Life 1.06\n1 2 3\n", 2, 5, "expected a line \"x y\""},
    {"life106_missing_y", "#Life 1.06\n1\n", 2, 2, "expected y coordinate"},
    {"life106_junk", "#Life 1.06\n1 2\nfoo bar\n", 3, 1, "expected x coordinate"},
    {"life106_overflow", "#Life 1.06\n1 -99999999999999999999\n", 2, 3, "does not fit"},
};

INSTANTIATE_TEST_SUITE_P(Cases, BadText, ::testing::ValuesIn(kBadCases),
                         [](const auto& suite) { return std::string(suite.param.label); });

void expect_file_error(const std::string& path, const std::string& words) {
  try {
    read_pattern_file(path);
    ADD_FAILURE() << "accepted " << path;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.code(), ExitCode::kInput);
    EXPECT_TRUE(message.starts_with(path + ": ")) << message;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  }
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(BadInput, MissingFileNamesThePath) {
  ScratchDir dir;
  expect_file_error(dir.file("missing.rle"), "no such file");
  expect_file_error(dir.path().string(), "directory");
  EXPECT_THROW(load_pattern(dir.file("missing.rle")), InputError);
}

TEST(BadInput, EmptyFile) {
  ScratchDir dir;
  write_bytes(dir.file("empty.rle"), "");
  expect_file_error(dir.file("empty.rle"), "empty file");
}

TEST(BadInput, CorruptGzip) {
  ScratchDir dir;
  std::string bytes = gzip("x = 3, y = 3\nbo$2bo$3o!\n");
  bytes[12] = static_cast<char>(bytes[12] ^ 0x5a);
  bytes[13] = static_cast<char>(bytes[13] ^ 0xa5);
  write_bytes(dir.file("corrupt.rle.gz"), bytes);
  expect_file_error(dir.file("corrupt.rle.gz"), "corrupt gzip data");
  write_bytes(dir.file("magic-only.rle.gz"), "\x1f\x8b garbage that is not deflate");
  expect_file_error(dir.file("magic-only.rle.gz"), "gzip");
}

TEST(BadInput, TruncatedGzip) {
  expect_file_error(std::string(GOL_TEST_DATA_DIR) + "/patterns-truncated.rle.gz", "truncated");
}

// Everything `source` produces, read in reader-sized chunks.
uint64_t drain(ByteSource& source) {
  std::vector<char> buffer(TextReader::kBufferSize);
  uint64_t total = 0;
  while (const size_t count = source.read(buffer.data(), buffer.size())) total += count;
  return total;
}

TEST(BadInput, GzipThatDecompressesTooFar) {
  const std::string bomb = gzip(std::string(size_t{1} << 20, '$'));
  EXPECT_LT(bomb.size(), 4096u);
  MemorySource small_input(bomb);
  GzipSource small(small_input, "bomb.rle.gz", 64 * 1024);
  try {
    drain(small);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("decompresses to more than 64 KiB"), std::string::npos)
        << e.what();
  }
  MemorySource exact_input(bomb);
  GzipSource exact(exact_input, "bomb.rle.gz", size_t{1} << 20);
  EXPECT_EQ(drain(exact), uint64_t{1} << 20);
}

// Sets a small memory budget for one test.
class SmallBudget : public ::testing::Test {
 protected:
  void SetUp() override { set_memory_budget(uint64_t{16} << 20); }
  void TearDown() override { set_memory_budget(saved_); }

  // Parses `text`, expecting a refusal over the budget at (line, column).
  void expect_over_budget(const std::string& text, int64_t line, int64_t column,
                          const std::string& what) {
    try {
      parse_pattern(text, "big.rle");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.line(), line) << message;
      EXPECT_EQ(e.column(), column) << message;
      EXPECT_NE(message.find(what + " needs "), std::string::npos) << message;
      EXPECT_NE(message.find("more than the memory budget of 16 MiB"), std::string::npos)
          << message;
    }
  }

 private:
  uint64_t saved_ = memory_budget();
};

// A few bytes must not be able to demand gigabytes: a run is priced before
// any of its tiles is made (a test that allocated first would take
// 100 GiB here, not pass slowly).
TEST_F(SmallBudget, LongRunIsRefusedBeforeAllocating) {
  expect_over_budget("9999999999o!", 1, 11, "a run of 9999999999 live cells");
  expect_over_budget("x = 1, y = 1\n2$4000000000000000000o!", 2, 22,
                     "a run of 4000000000000000000 live cells");
  // A run over tiles that exist already costs nothing more, though the
  // pattern and the run each take most of the budget.
  const Pattern wide = parse_pattern("1000000o$1000000o!", "wide.rle");
  EXPECT_EQ(wide.cells.population(), 2000000u);
}

TEST_F(SmallBudget, ManyTilesAreRefusedWhereTheBudgetRunsOut) {
  std::string text;
  for (int i = 0; i < 30000; ++i) text += "o63b";
  text += "!";
  try {
    parse_pattern(text, "many.rle");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_GT(e.column(), 4 * 20000);  // 16 MiB hold about 23800 tiles
    EXPECT_NE(std::string(e.what()).find("memory budget"), std::string::npos) << e.what();
  }
}

// A soup is priced with the engine's copy of it, since it is made to be
// run: 16 MiB hold about 8400 tiles of both.
TEST_F(SmallBudget, SoupsAreRefusedWithTheEnginesCopyCounted) {
  EXPECT_NO_THROW(load_pattern("soup:4096x4096:0.01"));  // 4096 tiles
  try {
    load_pattern("soup:8192x8192");  // 16384 tiles: their cells alone would fit
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("a 8192x8192 soup (its cells and the engine's copy of them) needs"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("more than the memory budget of 16 MiB"), std::string::npos) << message;
  }
}

TEST_F(SmallBudget, CommentLinesAreCounted) {
  std::string text;
  for (int i = 0; i < 300000; ++i) text += "#C a comment line\n";
  text += "x = 1, y = 1\no!";
  // Each kept line costs its text and its string: the budget runs out
  // past line 200000 (of 300000), at the start of the line.
  try {
    parse_pattern(text, "comments.rle");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_GT(e.line(), 200000) << e.what();
    EXPECT_LT(e.line(), 250000) << e.what();
    EXPECT_EQ(e.column(), 1) << e.what();
    EXPECT_NE(std::string(e.what()).find("comment lines needs"), std::string::npos) << e.what();
  }
}

TEST_F(SmallBudget, OneLongLineIsCounted) {
  expect_over_budget("#C " + std::string(size_t{20} << 20, 'c') + "\no!", 1, 1,
                     "a line of more than 16777216 bytes");
}

TEST(BadInput, SpecsAreChecked) {
  EXPECT_THROW(load_pattern(""), InputError);
  EXPECT_THROW(load_pattern("builtin:nothing"), InputError);
  EXPECT_THROW(load_pattern("soup:12"), InputError);
}

}  // namespace
}  // namespace gol::patterns
