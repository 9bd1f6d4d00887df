// Pictures: image size and pixels for known patterns, read back from the
// PNG bytes with libpng, at 1:1, zoomed in, zoomed out (density) and fitted
// into a given size; option parsing and its errors.
#include "patterns/png_render.h"

#include <gtest/gtest.h>
#include <png.h>

#include "engine/core/error.h"

namespace gol::patterns {
namespace {

struct Decoded {
  int64_t width = 0;
  int64_t height = 0;
  std::vector<uint8_t> pixels;
  uint8_t at(int64_t x, int64_t y) const { return pixels[static_cast<size_t>(y * width + x)]; }
};

// Reads PNG bytes back as 8-bit gray with libpng's simplified API.
Decoded decode(const std::string& bytes) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  EXPECT_NE(png_image_begin_read_from_memory(&png, bytes.data(), bytes.size()), 0) << png.message;
  png.format = PNG_FORMAT_GRAY;
  Decoded image{png.width, png.height, std::vector<uint8_t>(PNG_IMAGE_SIZE(png))};
  EXPECT_NE(png_image_finish_read(&png, nullptr, image.pixels.data(), 0, nullptr), 0)
      << png.message;
  return image;
}

Decoded draw(const CellSet& cells, const RenderOptions& options) {
  return decode(encode_png(render_image(cells, options)));
}

CellSet glider() {
  CellSet cells;
  for (Cell c : {Cell{1, 0}, Cell{2, 1}, Cell{0, 2}, Cell{1, 2}, Cell{2, 2}}) cells.set(c);
  return cells.translated(-100, 50);
}

// The cell (x, y) of a glider (relative to its corner) as drawn.
bool glider_cell(int64_t x, int64_t y) { return glider().get(x - 100, y + 50); }

TEST(PngRender, DefaultZoomDrawsEachCellAsASquare) {
  // 3x3 cells: the default zoom is the most, 16 pixels a cell.
  const Decoded image = draw(glider(), {});
  ASSERT_EQ(image.width, 48);
  ASSERT_EQ(image.height, 48);
  for (int64_t y = 0; y < 48; ++y) {
    for (int64_t x = 0; x < 48; ++x) {
      ASSERT_EQ(image.at(x, y), glider_cell(x / 16, y / 16) ? 255 : 0) << x << "," << y;
    }
  }
}

TEST(PngRender, WindowAndZoomChooseTheView) {
  RenderOptions options;
  options.window = BBox{-101, 50, -98, 52};  // one dead column left of the glider
  options.zoom = Zoom{2, 1};
  const GrayImage image = render_image(glider(), options);
  EXPECT_EQ(image.origin, (Cell{-101, 50}));
  const Decoded png = decode(encode_png(image));
  ASSERT_EQ(png.width, 8);
  ASSERT_EQ(png.height, 6);
  for (int64_t y = 0; y < 6; ++y) {
    for (int64_t x = 0; x < 8; ++x) {
      EXPECT_EQ(png.at(x, y), glider_cell(x / 2 - 1, y / 2) ? 255 : 0) << x << "," << y;
    }
  }
}

// Zoomed out, a pixel's gray follows the share of live cells it covers:
// none black, all white, otherwise from a quarter bright up.
TEST(PngRender, ZoomedOutPixelsShowDensity) {
  CellSet cells;
  for (int64_t y = 0; y < 4; ++y) {
    for (int64_t x = 0; x < 4; ++x) cells.set(x, y);  // full 4x4 square
  }
  cells.set(4, 0);  // one of the 16 cells of the next square
  cells.set(4, 4);
  cells.set(5, 4);
  cells.set(4, 5);
  cells.set(5, 5);
  cells.set(6, 4);
  cells.set(6, 5);
  cells.set(7, 4);
  cells.set(7, 5);  // half of the last square
  RenderOptions options;
  options.window = BBox{0, 0, 7, 7};
  options.zoom = Zoom{1, 4};
  const Decoded image = draw(cells, options);
  ASSERT_EQ(image.width, 2);
  ASSERT_EQ(image.height, 2);
  EXPECT_EQ(image.at(0, 0), 255);
  EXPECT_EQ(image.at(1, 0), density_gray(1, 16));
  EXPECT_EQ(image.at(0, 1), 0);
  EXPECT_EQ(image.at(1, 1), density_gray(8, 16));
  EXPECT_EQ(density_gray(1, 16), 76);
  EXPECT_EQ(density_gray(8, 16), 160);
}

// Density across tile edges and negative coordinates: every pixel of a
// checkerboard 200 cells wide is half live.
TEST(PngRender, DensityIsCountedAcrossTiles) {
  CellSet cells;
  for (int64_t y = -100; y < 100; ++y) {
    for (int64_t x = -100; x < 100; ++x) {
      if (((x + y) & 1) == 0) cells.set(x, y);
    }
  }
  RenderOptions options;
  options.zoom = Zoom{1, 10};
  const Decoded image = draw(cells, options);
  ASSERT_EQ(image.width, 20);
  ASSERT_EQ(image.height, 20);
  for (uint8_t gray : image.pixels) ASSERT_EQ(gray, density_gray(50, 100));
}

// A 100 x 50 window in a 10 x 10 image: 10 cells a pixel, the window
// centred vertically with 25 rows above it.
TEST(PngRender, SizeFitsTheWindow) {
  CellSet cells;
  cells.set(0, 0);
  cells.set(99, 49);
  RenderOptions options;
  options.width = 10;
  options.height = 10;
  const GrayImage image = render_image(cells, options);
  EXPECT_EQ(image.zoom, (Zoom{1, 10}));
  EXPECT_EQ(image.origin, (Cell{0, -25}));
  const Decoded png = decode(encode_png(image));
  ASSERT_EQ(png.width, 10);
  ASSERT_EQ(png.height, 10);
  uint64_t lit = 0;
  for (uint8_t gray : png.pixels) lit += gray != 0;
  EXPECT_EQ(lit, 2u);
  EXPECT_EQ(png.at(0, 2), density_gray(1, 100));  // cell (0, 0): row 25 of the view
  EXPECT_EQ(png.at(9, 7), density_gray(1, 100));  // cell (99, 49): row 74

  // A small window in a large image: the largest whole zoom, centred.
  options.width = 100;
  options.height = 40;
  const GrayImage zoomed = render_image(glider(), options);
  EXPECT_EQ(zoomed.zoom, (Zoom{13, 1}));
  EXPECT_EQ(zoomed.width, 100);
  EXPECT_EQ(zoomed.height, 40);
}

TEST(PngRender, FarCoordinatesAndEmptyPatterns) {
  CellSet cells;
  cells.set(INT64_MIN, INT64_MIN);
  cells.set(INT64_MAX, INT64_MAX);
  RenderOptions options;
  options.width = 4;
  options.height = 4;
  const Decoded image = draw(cells, options);
  EXPECT_GT(image.at(0, 0), 0);
  EXPECT_GT(image.at(3, 3), 0);
  EXPECT_EQ(image.at(1, 1), 0);

  const Decoded empty = draw(CellSet{}, {});
  EXPECT_EQ(empty.width, 16);
  for (uint8_t gray : empty.pixels) EXPECT_EQ(gray, 0);
}

TEST(PngRender, OptionsAreParsedAndChecked) {
  EXPECT_EQ(parse_zoom("4"), (Zoom{4, 1}));
  EXPECT_EQ(parse_zoom("1:8"), (Zoom{1, 8}));
  EXPECT_EQ(parse_image_size("640x480"), std::make_pair(int64_t{640}, int64_t{480}));
  EXPECT_EQ(parse_window("-5,-6,7,8"), (BBox{-5, -6, 7, 8}));
  for (const char* bad : {"0", "-2", "1:0", "x", "2.5", "", "+3"}) {
    EXPECT_THROW(parse_zoom(bad), UsageError) << bad;
  }
  for (const char* bad : {"640", "0x10", "10x", "2000000x10", "10x10x"}) {
    EXPECT_THROW(parse_image_size(bad), UsageError) << bad;
  }
  for (const char* bad :
       {"1,2,3", "1,2,3,4,5", "5,0,4,0", "a,b,c,d", "0,0,0,99999999999999999999"}) {
    EXPECT_THROW(parse_window(bad), UsageError) << bad;
  }
  try {
    parse_zoom("fast", "--zoom");
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--zoom: expected a zoom such as 4 (pixels a cell) or 1:8 (cells a pixel), got "
                 "'fast'");
  }
  RenderOptions both;
  both.zoom = Zoom{2, 1};
  both.width = 10;
  both.height = 10;
  EXPECT_THROW(render_image(glider(), both), UsageError);
  RenderOptions huge;
  huge.zoom = Zoom{1000, 1};
  huge.window = BBox{0, 0, 9999, 0};
  EXPECT_THROW(render_image(glider(), huge), UsageError);
}

TEST(PngRender, ImagesLibpngCannotWriteAreRefusedBeforeDrawing) {
  // libpng's simplified writer takes at most 2^32-1 bytes of image.
  EXPECT_EQ(parse_image_size("65535x65535"), std::make_pair(int64_t{65535}, int64_t{65535}));
  try {
    parse_image_size("70000x70000", "--size");
    ADD_FAILURE() << "70000x70000 accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("70000 x 70000 = 4900000000 pixels"), std::string::npos)
        << e.what();
  }
  // Sides within the limit, but 10^10 pixels: refused before 10 GB is drawn.
  RenderOptions wide;
  wide.zoom = Zoom{1, 1};
  wide.window = BBox{0, 0, 99'999, 99'999};
  try {
    render_image(glider(), wide);
    ADD_FAILURE() << "a 100000 x 100000 image accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("a PNG is written with"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gol::patterns
