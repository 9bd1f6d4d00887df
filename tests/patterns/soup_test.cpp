// Random soups: spec parsing, reproducibility (a fixed checksum catches any
// change to the generator), bounds, density and tile-order independence.
#include "patterns/soup.h"

#include <gtest/gtest.h>

#include "engine/core/error.h"

namespace gol::patterns {
namespace {

// FNV-1a over the tile coordinates and rows: any change in which cells a
// given seed produces changes this value.
uint64_t checksum(const CellSet& cells) {
  uint64_t h = 0xcbf29ce484222325u;
  const auto mix = [&](uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xffu;
      h *= 0x100000001b3u;
    }
  };
  for (const auto& [coord, tile] : cells.tiles()) {
    mix(static_cast<uint64_t>(coord.tx));
    mix(static_cast<uint64_t>(coord.ty));
    for (uint64_t row : tile.rows) mix(row);
  }
  return h;
}

TEST(SoupSpec, ParsesAllForms) {
  const SoupSpec a = parse_soup_spec("100x50");
  EXPECT_EQ(a.width, 100);
  EXPECT_EQ(a.height, 50);
  EXPECT_EQ(a.density, 0.5);
  EXPECT_EQ(a.seed, 1u);
  const SoupSpec b = parse_soup_spec("64x128:0.25:99");
  EXPECT_EQ(b.width, 64);
  EXPECT_EQ(b.height, 128);
  EXPECT_EQ(b.density, 0.25);
  EXPECT_EQ(b.seed, 99u);
  EXPECT_EQ(soup_name(b), "soup:64x128:0.25:99");
  EXPECT_EQ(soup_name(parse_soup_spec("2048x2048")), "soup:2048x2048:0.5:1");
}

void expect_refused(std::string_view spec, std::string_view words) {
  try {
    parse_soup_spec(spec);
    ADD_FAILURE() << "accepted " << spec;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(words), std::string::npos) << message;
    EXPECT_NE(message.find("soup:" + std::string(spec)), std::string::npos) << message;
  }
}

TEST(SoupSpec, RefusesJunk) {
  expect_refused("", "bad width");
  expect_refused("abc", "bad width");
  expect_refused("10", "missing 'x'");
  expect_refused("10x", "bad height");
  expect_refused("0x10", "positive");
  expect_refused("-5x10", "positive");
  expect_refused("10x10:0", "density");
  expect_refused("10x10:1.5", "density");
  expect_refused("10x10:-0.1", "density");
  expect_refused("10x10:nan", "density");
  expect_refused("10x10:0.5:x", "bad seed");
  expect_refused("10x10:0.5:-1", "bad seed");
  expect_refused("10x10:0.5:1:2", "unexpected text");
  expect_refused("10x10:0.5:99999999999999999999999", "bad seed");
  expect_refused("1000000x1000000", "more than the memory budget");
  expect_refused("9223372036854775807x9223372036854775807", "needs more than 16 EiB");
  expect_refused("99999999999999999999x1", "bad width");
}

TEST(Soup, FixedChecksum) {
  const CellSet soup = make_soup({200, 130, 0.5, 42});
  EXPECT_EQ(soup.population(), 12948u);
  EXPECT_EQ(checksum(soup), 10130836105719145376u);
  EXPECT_EQ(checksum(make_soup({200, 130, 0.3, 42})), 14215282339017722677u);
}

TEST(Soup, StaysInsideItsRectangle) {
  const CellSet soup = make_soup({100, 70, 1.0, 3});
  EXPECT_EQ(soup.population(), 7000u);
  const auto box = soup.bbox();
  ASSERT_TRUE(box.has_value());
  EXPECT_EQ(*box, (BBox{0, 0, 99, 69}));
}

TEST(Soup, SeedsDiffer) {
  EXPECT_EQ(make_soup({128, 128, 0.5, 7}), make_soup({128, 128, 0.5, 7}));
  EXPECT_FALSE(make_soup({128, 128, 0.5, 7}) == make_soup({128, 128, 0.5, 8}));
}

// A soup is a window onto one infinite field per seed: a larger soup agrees
// with a smaller one wherever both have whole tiles.
TEST(Soup, TilesDoNotDependOnSize) {
  const CellSet small = make_soup({128, 64, 0.37, 5});
  const CellSet large = make_soup({512, 256, 0.37, 5});
  for (const auto& [coord, tile] : small.tiles()) {
    const Tile* other = large.find_tile(coord);
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(*other, tile);
  }
}

TEST(Soup, DensityIsClose) {
  for (double density : {0.05, 0.25, 0.37, 0.5, 0.8}) {
    const CellSet soup = make_soup({512, 512, density, 11});
    const double measured = double(soup.population()) / (512.0 * 512.0);
    EXPECT_NEAR(measured, density, 0.01) << density;
  }
}

}  // namespace
}  // namespace gol::patterns
