// `gol render`: the PNG's size and pixels for known patterns (read back
// with libpng), numbered frame sequences, standard output, and the
// command-line mistakes refused before anything runs.
#include <png.h>

#include <chrono>

#include "tests/engine/gol_process.h"

namespace {

namespace fs = std::filesystem;
using gol::testing::Outcome;
using gol::testing::slurp;
using CliRenderTest = gol::testing::GolProcessTest;

// Cells (1,0), (2,1), (0,2), (1,2), (2,2).
constexpr const char* kGliderRle = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";

struct Picture {
  int64_t width = 0;
  int64_t height = 0;
  std::vector<uint8_t> pixels;
  uint8_t at(int64_t x, int64_t y) const { return pixels[static_cast<size_t>(y * width + x)]; }
};

// Reads a PNG back as 8-bit gray with libpng's simplified API.
Picture decode(const std::string& bytes) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&png, bytes.data(), bytes.size()) == 0) {
    ADD_FAILURE() << "not a PNG: " << png.message;
    return {};
  }
  png.format = PNG_FORMAT_GRAY;
  Picture picture{png.width, png.height, std::vector<uint8_t>(PNG_IMAGE_SIZE(png))};
  EXPECT_NE(png_image_finish_read(&png, nullptr, picture.pixels.data(), 0, nullptr), 0)
      << png.message;
  return picture;
}

// "#..\n..." for a picture of black and white pixels, to compare whole.
std::string ascii_art(const Picture& picture) {
  std::string art;
  for (int64_t y = 0; y < picture.height; ++y) {
    for (int64_t x = 0; x < picture.width; ++x) {
      const uint8_t gray = picture.at(x, y);
      art += gray == 255 ? '#' : gray == 0 ? '.' : '?';
    }
    art += '\n';
  }
  return art;
}

TEST_F(CliRenderTest, AGliderIsDrawnCellByCell) {
  const fs::path glider = write_file("glider.rle", kGliderRle);
  const fs::path out = dir_ / "glider.png";
  const Outcome outcome = gol({"render", glider.string(), "--out", out.string(), "--zoom", "2"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("6 x 6 pixels at 2"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("population 5"), std::string::npos) << outcome.out;
  EXPECT_EQ(ascii_art(decode(slurp(out))),
            "..##..\n"
            "..##..\n"
            "....##\n"
            "....##\n"
            "######\n"
            "######\n");

  // Four generations on, the glider has moved one cell down and right.
  ASSERT_EQ(gol({"render", glider.string(), "--gens", "4", "--window", "0,0,3,3", "--zoom", "1",
                 "--out", out.string()})
                .exit_code,
            0);
  EXPECT_EQ(ascii_art(decode(slurp(out))),
            "....\n"
            "..#.\n"
            "...#\n"
            ".###\n");
}

TEST_F(CliRenderTest, SizeFitsTheWindowAndZoomingOutShowsDensity) {
  const fs::path glider = write_file("glider.rle", kGliderRle);
  const fs::path out = dir_ / "sized.png";
  ASSERT_EQ(gol({"render", glider.string(), "--size", "30x20", "--out", out.string()}).exit_code,
            0);
  const Picture sized = decode(slurp(out));
  EXPECT_EQ(sized.width, 30);
  EXPECT_EQ(sized.height, 20);

  // One pixel over the 2x2 cells at the top left: one of them alive.
  ASSERT_EQ(gol({"render", glider.string(), "--zoom", "1:2", "--window", "0,0,3,3", "--out",
                 out.string()})
                .exit_code,
            0);
  const Picture density = decode(slurp(out));
  ASSERT_EQ(density.width, 2);
  ASSERT_EQ(density.height, 2);
  EXPECT_GE(density.at(0, 0), 64) << "a quarter bright at least";
  EXPECT_LT(density.at(0, 0), 255) << "one cell of four is not white";
  EXPECT_GT(density.at(0, 1), density.at(0, 0)) << "two cells of four are brighter than one";
}

TEST_F(CliRenderTest, FramesAreNumberedAndShareOneView) {
  const fs::path glider = write_file("glider.rle", kGliderRle);
  const fs::path out = dir_ / "life.png";
  const Outcome outcome = gol({"render", glider.string(), "--frames", "3", "--every", "4", "--out",
                               out.string(), "--zoom", "1"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_FALSE(fs::exists(out));
  for (const char* name : {"life-0000.png", "life-0001.png", "life-0002.png"}) {
    ASSERT_TRUE(fs::exists(dir_ / name)) << name << "\n" << outcome.out;
    const Picture frame = decode(slurp(dir_ / name));
    // The first frame's box: a glider moving away leaves it.
    EXPECT_EQ(frame.width, 3) << name;
    EXPECT_EQ(frame.height, 3) << name;
  }
  EXPECT_FALSE(fs::exists(dir_ / "life-0003.png"));
  EXPECT_NE(outcome.out.find("life-0002.png: 3 x 3 pixels at 1"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("generation 8"), std::string::npos) << outcome.out;
  EXPECT_EQ(ascii_art(decode(slurp(dir_ / "life-0001.png"))),
            "...\n"
            "..#\n"
            "...\n");
}

TEST_F(CliRenderTest, DashReadsStandardInputAndWritesStandardOutput) {
  const fs::path glider = write_file("glider.rle", kGliderRle);
  const Outcome outcome = gol({"render", "-", "--zoom", "1", "--out", "-"}, glider);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(ascii_art(decode(outcome.out)), ".#.\n..#\n###\n");
  // The report moves to stderr, out of the picture's way.
  EXPECT_NE(outcome.err.find("standard output: 3 x 3 pixels"), std::string::npos) << outcome.err;
}

TEST_F(CliRenderTest, MistakesAreRefusedBeforeTheRun) {
  const std::string out = (dir_ / "x.png").string();
  expect_failure({"render", "builtin:glider"}, 2, "--out is required");
  expect_failure({"render", "builtin:glider", "--out", (dir_ / "x.jpg").string()}, 2,
                 "ending in .png");
  expect_failure({"render", "builtin:glider", "--out", out, "--size", "4x4", "--zoom", "2"}, 2,
                 "--size and --zoom");
  expect_failure({"render", "builtin:glider", "--out", out, "--size", "4"}, 2, "--size");
  expect_failure({"render", "builtin:glider", "--out", out, "--zoom", "0"}, 2, "--zoom");
  expect_failure({"render", "builtin:glider", "--out", out, "--size", "100000x100000"}, 2,
                 "10000000000 pixels");
  expect_failure({"render", "builtin:glider", "--out", out, "--window", "5,5,1,1"}, 2, "--window");
  expect_failure({"render", "builtin:glider", "--out", out, "--frames", "3"}, 2, "--every");
  expect_failure({"render", "builtin:glider", "--out", out, "--every", "3"}, 2, "--frames");
  expect_failure({"render", "builtin:glider", "--out", "-", "--frames", "2", "--every", "1"}, 2,
                 "--out -");
  expect_failure({"render", "builtin:glider", "--out", out, "--frams", "2"}, 2,
                 "did you mean '--frames'");
  expect_failure({"render", "builtin:glider", "--out", out, "--format", "rle"}, 2, "--format");
  expect_failure({"render", "builtin:glider", "--out", out, "--gens", "9223372036854775807",
                  "--frames", "2", "--every", "1"},
                 2, "past generation");
  expect_failure({"render", (dir_ / "missing.rle").string(), "--out", out}, 3, "missing.rle");
  EXPECT_FALSE(fs::exists(out));

  // An unwritable output is found before a run that would never end.
  const auto start = std::chrono::steady_clock::now();
  expect_failure({"render", "soup:256x256", "--gens", "1000000000000", "--out",
                  (dir_ / "no-such-folder" / "x.png").string()},
                 4, "does not exist");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

}  // namespace
