// Cells to a grayscale image and the image to PNG bytes. The view's
// geometry is worked out in 128 bits: a window may span all 2^64 columns.
// Drawing visits the live tiles that meet the view, never the view's area,
// so a huge sparse pattern drawn small costs time per tile.
#include "patterns/png_render.h"

#include <png.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>

#include "engine/core/bit_count.h"
#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::patterns {
namespace {

__extension__ using Wide = __int128;

Wide ceil_div(Wide a, Wide b) { return (a + b - 1) / b; }

// What the image shows: pixel (px, py) covers the cells from
// (x0 + (px / pixels) * cells, y0 + (py / pixels) * cells), `cells` a side.
struct View {
  Wide x0 = 0;  // top-left cell of pixel (0, 0)
  Wide y0 = 0;
  int64_t width = 0;  // pixels
  int64_t height = 0;
  Zoom zoom;
};

int64_t parse_positive(std::string_view text, std::string_view flag, std::string_view what) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || text.front() == '+') {
    throw UsageError(std::string(flag) + ": expected " + std::string(what) + ", got '" +
                     std::string(text) + "'");
  }
  return value;
}

int64_t parse_coordinate(std::string_view text, std::string_view flag) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw UsageError(std::string(flag) + ": expected x0,y0,x1,y1 (64-bit integers), got '" +
                     std::string(text) + "'");
  }
  return value;
}

View plan_view(const CellSet& cells, const RenderOptions& options) {
  if (options.zoom && (options.width || options.height)) {
    throw UsageError("give either an image size or a zoom, not both");
  }
  if (options.width.has_value() != options.height.has_value()) {
    throw UsageError("an image size needs both a width and a height");
  }
  const BBox window = options.window ? *options.window : cells.bbox().value_or(BBox{});
  const Wide window_w = Wide{window.xmax} - window.xmin + 1;
  const Wide window_h = Wide{window.ymax} - window.ymin + 1;
  View view;
  if (options.width) {
    const int64_t w = *options.width;
    const int64_t h = *options.height;
    if (window_w <= w && window_h <= h) {
      view.zoom.pixels = static_cast<int64_t>(std::min(w / window_w, h / window_h));
    } else {
      view.zoom.cells =
          static_cast<int64_t>(std::max(ceil_div(window_w, w), ceil_div(window_h, h)));
    }
    view.width = w;
    view.height = h;
  } else {
    if (options.zoom) {
      view.zoom = *options.zoom;
    } else {
      const Wide longer = std::max(window_w, window_h);
      if (longer <= kDefaultImageSide) {
        view.zoom.pixels = std::min<int64_t>(kMaxDefaultPixelsPerCell,
                                             static_cast<int64_t>(kDefaultImageSide / longer));
      } else {
        view.zoom.cells = static_cast<int64_t>(ceil_div(longer, kDefaultImageSide));
      }
    }
    const Wide w = ceil_div(window_w, view.zoom.cells) * view.zoom.pixels;
    const Wide h = ceil_div(window_h, view.zoom.cells) * view.zoom.pixels;
    if (w > kMaxImageSide || h > kMaxImageSide) {
      throw UsageError("the image would be " +
                       std::to_string(static_cast<int64_t>(std::min<Wide>(w, INT64_MAX))) + " x " +
                       std::to_string(static_cast<int64_t>(std::min<Wide>(h, INT64_MAX))) +
                       " pixels, more than " + std::to_string(kMaxImageSide) +
                       " a side: zoom out or give --size");
    }
    view.width = static_cast<int64_t>(w);
    view.height = static_cast<int64_t>(h);
  }
  // Centre the window: the image may span more cells than it holds.
  const Wide span_w = ceil_div(view.width, view.zoom.pixels) * view.zoom.cells;
  const Wide span_h = ceil_div(view.height, view.zoom.pixels) * view.zoom.cells;
  view.x0 = std::max<Wide>(window.xmin - (span_w - window_w) / 2, INT64_MIN);
  view.y0 = std::max<Wide>(window.ymin - (span_h - window_h) / 2, INT64_MIN);
  return view;
}

// Zoomed in (or 1:1): each live cell fills its square of pixels, clipped
// at the image's edge.
void draw_cells(const CellSet& cells, const View& view, std::vector<uint8_t>& pixels) {
  const int64_t p = view.zoom.pixels;
  const Wide x_end = view.x0 + ceil_div(view.width, p);
  const Wide y_end = view.y0 + ceil_div(view.height, p);
  for (const auto& [coord, tile] : cells.tiles()) {
    const Wide tile_x = Wide{coord.tx} * kTileSize;
    const Wide tile_y = Wide{coord.ty} * kTileSize;
    if (tile_x + kTileSize <= view.x0 || tile_x >= x_end || tile_y + kTileSize <= view.y0 ||
        tile_y >= y_end) {
      continue;
    }
    for (int r = 0; r < kTileSize; ++r) {
      const Wide y = tile_y + r;
      if (y < view.y0 || y >= y_end) continue;
      for (uint64_t bits = tile.rows[r]; bits != 0; bits &= bits - 1) {
        const Wide x = tile_x + std::countr_zero(bits);
        if (x < view.x0 || x >= x_end) continue;
        const int64_t px = static_cast<int64_t>(x - view.x0) * p;
        const int64_t py = static_cast<int64_t>(y - view.y0) * p;
        for (int64_t dy = 0; dy < p && py + dy < view.height; ++dy) {
          uint8_t* row = &pixels[static_cast<size_t>((py + dy) * view.width)];
          std::fill(row + px, row + std::min(px + p, view.width), uint8_t{255});
        }
      }
    }
  }
}

// Zoomed out: each pixel counts the live cells of its square, a tile row at
// a time, one popcount per pixel the row crosses.
void draw_density(const CellSet& cells, const View& view, std::vector<uint8_t>& pixels) {
  const int64_t k = view.zoom.cells;
  std::vector<uint64_t> counts(pixels.size(), 0);
  const Wide x_end = view.x0 + Wide{view.width} * k;
  const Wide y_end = view.y0 + Wide{view.height} * k;
  for (const auto& [coord, tile] : cells.tiles()) {
    const Wide tile_x = Wide{coord.tx} * kTileSize;
    const Wide tile_y = Wide{coord.ty} * kTileSize;
    if (tile_x + kTileSize <= view.x0 || tile_x >= x_end || tile_y + kTileSize <= view.y0 ||
        tile_y >= y_end) {
      continue;
    }
    const Wide first_x = std::max(tile_x, view.x0);
    const Wide last_x = std::min(tile_x + kTileSize, x_end) - 1;
    for (int r = 0; r < kTileSize; ++r) {
      const Wide y = tile_y + r;
      if (tile.rows[r] == 0 || y < view.y0 || y >= y_end) continue;
      uint64_t* count_row = &counts[static_cast<size_t>(((y - view.y0) / k) * view.width)];
      for (Wide x = first_x; x <= last_x;) {
        const Wide px = (x - view.x0) / k;
        const Wide segment_end = std::min(last_x, view.x0 + (px + 1) * k - 1);
        const int from = static_cast<int>(x - tile_x);
        const int length = static_cast<int>(segment_end - x + 1);
        const uint64_t mask =
            length == kTileSize ? ~uint64_t{0} : ((uint64_t{1} << length) - 1) << from;
        count_row[static_cast<size_t>(px)] += static_cast<uint64_t>(bit_count(tile.rows[r] & mask));
        x = segment_end + 1;
      }
    }
  }
  const uint64_t covered = saturating_mul(static_cast<uint64_t>(k), static_cast<uint64_t>(k));
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = density_gray(counts[i], covered);
}

void check_pixel_count(int64_t width, int64_t height) {
  const uint64_t pixels =
      saturating_mul(static_cast<uint64_t>(width), static_cast<uint64_t>(height));
  if (pixels > kMaxImagePixels) {
    throw UsageError("the image would be " + std::to_string(width) + " x " +
                     std::to_string(height) + " = " + std::to_string(pixels) +
                     " pixels, more than the " + std::to_string(kMaxImagePixels) +
                     " a PNG is written with: give a smaller --size or zoom out");
  }
}

}  // namespace

uint8_t density_gray(uint64_t live, uint64_t covered) {
  if (live == 0) return 0;
  const double share = std::min(1.0, static_cast<double>(live) / static_cast<double>(covered));
  return static_cast<uint8_t>(std::lround(64 + 191 * share));
}

Zoom parse_zoom(std::string_view text, std::string_view flag) {
  constexpr std::string_view kExpected = "a zoom such as 4 (pixels a cell) or 1:8 (cells a pixel)";
  if (text.starts_with("1:")) return {1, parse_positive(text.substr(2), flag, kExpected)};
  return {parse_positive(text, flag, kExpected), 1};
}

std::pair<int64_t, int64_t> parse_image_size(std::string_view text, std::string_view flag) {
  constexpr std::string_view kExpected = "WxH in pixels, each from 1 to 1000000";
  const size_t x = text.find('x');
  if (x == std::string_view::npos) {
    throw UsageError(std::string(flag) + ": expected " + std::string(kExpected) + ", got '" +
                     std::string(text) + "'");
  }
  const int64_t w = parse_positive(text.substr(0, x), flag, kExpected);
  const int64_t h = parse_positive(text.substr(x + 1), flag, kExpected);
  if (w > kMaxImageSide || h > kMaxImageSide) {
    throw UsageError(std::string(flag) + ": expected " + std::string(kExpected) + ", got '" +
                     std::string(text) + "'");
  }
  check_pixel_count(w, h);
  return {w, h};
}

BBox parse_window(std::string_view text, std::string_view flag) {
  int64_t values[4];
  size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const size_t comma = i < 3 ? text.find(',', start) : text.size();
    if (comma == std::string_view::npos) {
      throw UsageError(std::string(flag) + ": expected x0,y0,x1,y1, got '" + std::string(text) +
                       "'");
    }
    values[i] = parse_coordinate(text.substr(start, comma - start), flag);
    start = comma + 1;
  }
  const BBox box{values[0], values[1], values[2], values[3]};
  if (box.xmin > box.xmax || box.ymin > box.ymax) {
    throw UsageError(std::string(flag) + ": expected x0 <= x1 and y0 <= y1, got '" +
                     std::string(text) + "'");
  }
  return box;
}

GrayImage render_image(const CellSet& cells, const RenderOptions& options) {
  const View view = plan_view(cells, options);
  check_pixel_count(view.width, view.height);
  const uint64_t pixel_count =
      saturating_mul(static_cast<uint64_t>(view.width), static_cast<uint64_t>(view.height));
  // Zoomed out, a 64-bit count per pixel is held while drawing.
  const uint64_t bytes_per_pixel = view.zoom.cells > 1 ? 1 + sizeof(uint64_t) : 1;
  if (!fits_memory_budget(saturating_mul(pixel_count, bytes_per_pixel))) {
    throw UsageError(over_budget_message(
        "a " + std::to_string(view.width) + " x " + std::to_string(view.height) + " image",
        saturating_mul(pixel_count, bytes_per_pixel)));
  }
  GrayImage image;
  image.width = view.width;
  image.height = view.height;
  image.origin = {static_cast<int64_t>(view.x0), static_cast<int64_t>(view.y0)};
  image.zoom = view.zoom;
  image.pixels.assign(static_cast<size_t>(pixel_count), 0);
  if (view.zoom.cells > 1) {
    draw_density(cells, view, image.pixels);
  } else {
    draw_cells(cells, view, image.pixels);
  }
  return image;
}

std::string encode_png(const GrayImage& image) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_GRAY;
  png_alloc_size_t size = 0;
  // The first call sizes the file, the second writes it.
  if (png_image_write_to_memory(&png, nullptr, &size, 0, image.pixels.data(), 0, nullptr) == 0) {
    throw RuntimeError(std::string("libpng cannot encode the image: ") + png.message);
  }
  std::string bytes(size, '\0');
  if (png_image_write_to_memory(&png, bytes.data(), &size, 0, image.pixels.data(), 0, nullptr) ==
      0) {
    throw RuntimeError(std::string("libpng cannot encode the image: ") + png.message);
  }
  bytes.resize(size);
  return bytes;
}

}  // namespace gol::patterns
