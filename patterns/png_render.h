// Pictures of cells as PNG files (libpng): an 8-bit grayscale image, dead
// cells black. Zoomed in, each cell is a square of pixels; zoomed out, each
// pixel covers a square of cells and shows their density, as Golly does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/cell_set.h"

namespace gol::patterns {

// The scale: `pixels` pixels a cell side, or `cells` cells a pixel side.
// One of the two is 1.
struct Zoom {
  int64_t pixels = 1;
  int64_t cells = 1;
  friend bool operator==(const Zoom&, const Zoom&) = default;
};

struct RenderOptions {
  // The cells to show (inclusive); absent: the cells' bounding box.
  std::optional<BBox> window;
  // Image size in pixels; the window is fitted into it, centred, at the
  // largest whole zoom that shows all of it.
  std::optional<int64_t> width;
  std::optional<int64_t> height;
  // Set instead of a size: the image is the window at this zoom. Neither
  // set: the zoom that makes the window's longer side at most
  // kDefaultImageSide pixels, and at most kMaxDefaultPixelsPerCell a cell.
  std::optional<Zoom> zoom;
};

inline constexpr int64_t kDefaultImageSide = 1024;
inline constexpr int64_t kMaxDefaultPixelsPerCell = 16;
// Larger images are refused: libpng's own default limit per side.
inline constexpr int64_t kMaxImageSide = 1'000'000;
// And in all: libpng's simplified writer refuses a memory image of more
// than 2^32-1 bytes, one a pixel here, so larger ones are refused before
// anything is drawn.
inline constexpr uint64_t kMaxImagePixels = 0xFFFF'FFFFu;

// A grayscale image, row-major, one byte a pixel.
struct GrayImage {
  int64_t width = 0;
  int64_t height = 0;
  // The cell at the top-left corner of pixel (0, 0), and the scale.
  Cell origin;
  Zoom zoom;
  std::vector<uint8_t> pixels;
};

// The gray of a pixel covering `live` live cells of `covered`: black for
// none; otherwise at least a quarter bright, so sparse debris stays visible
// far zoomed out, and brighter with the share of live cells (white: all).
uint8_t density_gray(uint64_t live, uint64_t covered);

// "4" (4 pixels a cell) or "1:8" (8 cells a pixel); throws UsageError
// naming `flag` otherwise.
Zoom parse_zoom(std::string_view text, std::string_view flag = "--zoom");
// "WxH" in pixels, each side from 1 to kMaxImageSide, at most
// kMaxImagePixels in all.
std::pair<int64_t, int64_t> parse_image_size(std::string_view text,
                                             std::string_view flag = "--size");
// "x0,y0,x1,y1": inclusive cell coordinates with x0 <= x1 and y0 <= y1.
BBox parse_window(std::string_view text, std::string_view flag = "--window");

// Draws `cells`. Throws UsageError for inconsistent options (a size and a
// zoom, one side of a size) and for an image over kMaxImageSide a side,
// over kMaxImagePixels, or
// over the memory budget.
GrayImage render_image(const CellSet& cells, const RenderOptions& options);

// The image as the bytes of a PNG file. RuntimeError if libpng fails.
std::string encode_png(const GrayImage& image);

}  // namespace gol::patterns
