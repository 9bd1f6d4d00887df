// Cells and bounding boxes, in the coordinates every part of gol shares:
// int64_t, x grows to the right, y grows downward (row 0 is the top, as in
// RLE). Public: the C++ API returns these.
#pragma once

#include <compare>
#include <cstdint>

namespace gol {

struct Cell {
  int64_t x = 0;
  int64_t y = 0;
  friend bool operator==(const Cell&, const Cell&) = default;
  // Row-major: by y, then x.
  friend auto operator<=>(const Cell& a, const Cell& b) {
    if (auto c = a.y <=> b.y; c != 0) return c;
    return a.x <=> b.x;
  }
};

struct BBox {
  int64_t xmin = 0;
  int64_t ymin = 0;
  int64_t xmax = 0;  // inclusive
  int64_t ymax = 0;  // inclusive
  // Unsigned: a box across the plane's whole range is 2^63 cells wide, one
  // more than int64_t holds.
  uint64_t width() const { return static_cast<uint64_t>(xmax) - static_cast<uint64_t>(xmin) + 1; }
  uint64_t height() const { return static_cast<uint64_t>(ymax) - static_cast<uint64_t>(ymin) + 1; }
  friend bool operator==(const BBox&, const BBox&) = default;
};

}  // namespace gol
