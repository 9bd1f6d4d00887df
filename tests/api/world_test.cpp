// The public C++ API as a user sees it: only <gol/gol.h>, options given as
// the strings the gol command takes, and gol's own exception types.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "gol/gol.h"

namespace gol {
namespace {

// A file name of this process's own in the temporary directory.
std::string temp_path(const std::string& extension) {
  return (std::filesystem::temp_directory_path() /
          ("gol_api_test_" + std::to_string(getpid()) + extension))
      .string();
}

const std::string kTorusPattern = std::string(GOL_TEST_DATA_DIR) + "/patterns-torus.rle";

TEST(World, AcornStabilisesWith633Cells) {
  World world = World::load("builtin:acorn");
  world.advance(5000);
  world.advance(206);
  EXPECT_EQ(world.generation(), 5206u);
  EXPECT_EQ(world.population(), 633u);
  EXPECT_EQ(world.rule(), "B3/S23");
  EXPECT_EQ(world.topology(), "plane");
}

TEST(World, ARunInChunksReadsAsARunInOne) {
  // Chunks that say more follow may leave the gun's gliders flying between
  // them; what is read between and after is the world all the same.
  World chunked = World::load("builtin:gosper-gun", {.backend = "simd"});
  World whole = World::load("builtin:gosper-gun", {.backend = "simd"});
  for (int chunk = 0; chunk < 5; ++chunk) chunked.advance(2000, true);
  whole.advance(10000);
  EXPECT_EQ(chunked.population(), whole.population());
  EXPECT_EQ(chunked.bbox(), whole.bbox());
  EXPECT_EQ(chunked.cells(), whole.cells());
  chunked.advance(3000);
  whole.advance(3000);
  EXPECT_EQ(chunked.cells(), whole.cells());
}

TEST(World, ARunInChunksToldItsLengthReadsAsARunInOne) {
  // Told the run's length, the engine may cut the world into strips for
  // its threads at the first chunk, and keep them from chunk to chunk.
  const LoadOptions options{.backend = "simd", .threads = 2};
  World chunked = World::load("soup:900x700:0.45:5", options);
  World whole = World::load("soup:900x700:0.45:5", options);
  constexpr uint64_t kRun = 1500;
  for (uint64_t done = 0; done < kRun; done += 50) {
    chunked.advance(50, done + 50 < kRun, kRun - done);
    EXPECT_GT(chunked.population(), 0u);
  }
  whole.advance(kRun);
  EXPECT_EQ(chunked.population(), whole.population());
  EXPECT_EQ(chunked.bbox(), whole.bbox());
  EXPECT_EQ(chunked.cells(), whole.cells());
}

TEST(World, CellsAreRowMajorAndBoundedByTheBox) {
  const World glider = World::load("builtin:glider", {.backend = "serial"});
  const std::vector<Cell> expected = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  EXPECT_EQ(glider.cells(), expected);
  EXPECT_EQ(glider.bbox(), (BBox{0, 0, 2, 2}));
  EXPECT_EQ(glider.backend(), "serial");
}

TEST(World, OptionsOverrideThePatternsRuleAndTopology) {
  EXPECT_EQ(World::load(kTorusPattern).topology(), "torus 64x64");
  EXPECT_EQ(World::load(kTorusPattern, {.topology = "plane"}).topology(), "plane");
  const World world = World::load("builtin:glider", {.rule = "b36s23", .topology = "128x64"});
  EXPECT_EQ(world.rule(), "B36/S23");
  EXPECT_EQ(world.topology(), "torus 128x64");
  // A rule with Golly's torus suffix sets the topology too.
  EXPECT_EQ(World::load("builtin:glider", {.rule = "B3/S23:T64,64"}).topology(), "torus 64x64");
}

TEST(World, AnEmptyWorldHasNoBox) {
  World world = World::load("builtin:blinker", {.rule = "B/S"});
  world.advance(1);
  EXPECT_EQ(world.population(), 0u);
  EXPECT_FALSE(world.bbox().has_value());
  EXPECT_TRUE(world.cells().empty());
}

TEST(World, SavedPatternsLoadBackWithTheirGeneration) {
  World world = World::load("builtin:r-pentomino");
  world.advance(50);
  const std::string path = temp_path(".rle");
  world.save(path);
  const World again = World::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(again.generation(), 50u);
  EXPECT_EQ(again.cells(), world.cells());
}

// Width and height from a PNG file's IHDR chunk (big-endian, after the
// 8-byte signature and the chunk's length and type).
std::pair<uint32_t, uint32_t> png_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 24> head{};
  in.read(reinterpret_cast<char*>(head.data()), head.size());
  const auto big_endian = [&](size_t at) {
    return uint32_t{head[at]} << 24 | uint32_t{head[at + 1]} << 16 | uint32_t{head[at + 2]} << 8 |
           uint32_t{head[at + 3]};
  };
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(head.data()) + 1, 3), "PNG");
  return {big_endian(16), big_endian(20)};
}

TEST(World, RendersThePictureTheOptionsAskFor) {
  const World glider = World::load("builtin:glider");
  const std::string path = temp_path(".png");
  glider.render(path);  // at most 16 pixels a cell by default
  EXPECT_EQ(png_size(path), std::make_pair(48u, 48u));
  glider.render(path, {.zoom = "2"});
  EXPECT_EQ(png_size(path), std::make_pair(6u, 6u));
  glider.render(path, {.window = "0,0,9,4", .zoom = "1"});
  EXPECT_EQ(png_size(path), std::make_pair(10u, 5u));
  glider.render(path, {.size = "30x20"});
  EXPECT_EQ(png_size(path), std::make_pair(30u, 20u));
  std::filesystem::remove(path);
  EXPECT_THROW(glider.render(path, {.size = "30x20", .zoom = "2"}), UsageError);
  EXPECT_THROW(glider.render(path, {.zoom = "zero"}), UsageError);
}

TEST(World, MovedWorldsKeepRunning) {
  World first = World::load("builtin:glider");
  World second = std::move(first);
  second.advance(4);
  first = std::move(second);
  EXPECT_EQ(first.generation(), 4u);
  EXPECT_EQ(first.bbox(), (BBox{1, 1, 3, 3}));
}

TEST(World, ErrorsAreGolsOwnTypesWithTheCommandsMessages) {
  try {
    World::load("builtin:glider", {.rule = "B9/S23"});
    FAIL() << "B9 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.source(), "rule");
    EXPECT_EQ(e.code(), ExitCode::kInput);
  }
  EXPECT_THROW(World::load("builtin:glider", {.topology = "65x64"}), InputError);
  EXPECT_THROW(World::load("no/such/file.rle"), InputError);
  EXPECT_THROW(World::load("builtin:glider", {.backend = "abacus"}), UsageError);
  EXPECT_THROW(World::load("builtin:glider", {.threads = -1}), UsageError);
  EXPECT_THROW(World::load("builtin:glider").save("glider.xyz"), UsageError);
}

TEST(Backends, ListsTheReferenceAndSaysWhyOthersCannotRun) {
  bool have_serial = false;
  for (const BackendDescription& backend : backends()) {
    have_serial |= backend.name == "serial" && backend.available;
    EXPECT_EQ(backend.available, backend.unavailable_reason.empty()) << backend.name;
  }
  EXPECT_TRUE(have_serial);
}

TEST(Version, IsMajorMinorPatch) {
  EXPECT_TRUE(std::regex_match(version(), std::regex(R"(\d+\.\d+\.\d+)"))) << version();
}

}  // namespace
}  // namespace gol
