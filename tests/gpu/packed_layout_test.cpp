// The host side of the GPU layout: packing, bit order and plane regions.
// Runs without a GPU.
#ifdef GOL_HAVE_CUDA
#include "gpu/packed_layout.h"

#include <gtest/gtest.h>

#include <cstring>

#include "engine/core/error.h"

namespace gol::gpu {
namespace {

// The 32-bit word the device sees for cell (x, y) of a field image.
bool device_bit(const HostField& field, const TileRegion& region, int64_t x, int64_t y) {
  uint32_t word = 0;
  const size_t byte = static_cast<size_t>(y * region.width() / 8 + (x / 32) * 4);
  std::memcpy(&word, reinterpret_cast<const char*>(field.data()) + byte, sizeof word);
  return (word >> (x % 32)) & 1u;
}

TEST(PackedLayout, SingleCellLandsOnDocumentedBit) {
  const TileRegion region{0, 0, 2, 2};
  for (const Cell c : {Cell{0, 0}, Cell{31, 5}, Cell{32, 5}, Cell{63, 63}, Cell{64, 1},
                       Cell{127, 127}, Cell{100, 70}}) {
    CellSet cells;
    cells.set(c);
    const HostField field = pack_cells(cells, region, false);
    for (int64_t y = 0; y < region.height(); ++y) {
      for (int64_t x = 0; x < region.width(); ++x) {
        EXPECT_EQ(device_bit(field, region, x, y), x == c.x && y == c.y) << x << "," << y;
      }
    }
    EXPECT_EQ(unpack_cells(field, region), cells);
  }
}

TEST(PackedLayout, RoundTripWithOffsetOrigin) {
  const TileRegion region{-3, 2, 5, 3};
  CellSet cells;
  cells.set(-192, 128);
  cells.set(-1, 130);
  cells.set(127, 319);
  cells.set(5, 200);
  EXPECT_EQ(unpack_cells(pack_cells(cells, region, false), region), cells);
}

TEST(PackedLayout, TorusWrapsTiles) {
  const TileRegion region{0, 0, 2, 1};
  CellSet cells;
  cells.set(-1, -1);   // wraps to (127, 63)
  cells.set(130, 70);  // wraps to (2, 6)
  CellSet expected;
  expected.set(127, 63);
  expected.set(2, 6);
  EXPECT_EQ(unpack_cells(pack_cells(cells, region, true), region), expected);
}

TEST(PlaneRegion, HoldsTheCellsWithAGuard) {
  const BBox live{-500, 1000, 700, 1100};
  const TileRegion region = plane_region_around(live);
  // At least two whole tiles of margin on every side.
  EXPECT_LE(region.origin_tx + 2, tile_of(live.xmin));
  EXPECT_LE(region.origin_ty + 2, tile_of(live.ymin));
  EXPECT_GT(region.origin_tx + region.tile_cols - 2, tile_of(live.xmax));
  EXPECT_GT(region.origin_ty + region.tile_rows - 2, tile_of(live.ymax));
  // The margin grows with the extent: a quarter of it on each side.
  EXPECT_GE(region.width(), 1201 + 2 * 300);
}

TEST(PlaneRegion, EmptyPatternGetsASmallRegion) {
  const TileRegion region = plane_region_around(std::nullopt);
  EXPECT_GT(region.tile_cols, 0);
  EXPECT_LE(region.tile_cols * region.tile_rows, 16);
}

TEST(PlaneRegion, RefusesHugeSpreads) {
  EXPECT_THROW(plane_region_around(BBox{0, 0, int64_t{1} << 40, 10}), RuntimeError);
  EXPECT_THROW(plane_region_around(BBox{0, 0, int64_t{1} << 20, int64_t{1} << 20}), RuntimeError);
}

}  // namespace
}  // namespace gol::gpu

#endif  // GOL_HAVE_CUDA
