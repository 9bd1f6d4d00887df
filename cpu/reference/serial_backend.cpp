// The serial reference path: one byte a cell (0 dead, 1 alive); each cell
// counts its eight neighbours one by one and the rule is applied as written.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "cpu/reference/cell_grid.h"
#include "cpu/reference/dense_backend.h"
#include "cpu/reference/reference_backends.h"

namespace gol::cpu {
namespace {

class SerialGrid final : public CellGrid {
 public:
  void resize(int64_t width, int64_t height) override {
    width_ = width;
    height_ = height;
    cells_.assign(static_cast<size_t>(width * height), 0);
    next_.assign(cells_.size(), 0);
  }
  int64_t width() const override { return width_; }
  int64_t height() const override { return height_; }
  int bits_per_cell() const override { return 8; }

  uint64_t load_word(int64_t word, int64_t y) const override {
    uint64_t bits = 0;
    for (int i = 0; i < 64; ++i) {
      bits |= uint64_t{cells_[index(64 * word + i, y)]} << i;
    }
    return bits;
  }

  void store_word(int64_t word, int64_t y, uint64_t bits) override {
    for (int i = 0; i < 64; ++i) {
      cells_[index(64 * word + i, y)] = static_cast<uint8_t>((bits >> i) & 1u);
    }
  }

  void step(const Rule& rule, Edges edges) override {
    for (int64_t y = 0; y < height_; ++y) {
      for (int64_t x = 0; x < width_; ++x) {
        const int neighbours = live_neighbours(x, y, edges);
        const bool alive = cells_[index(x, y)] != 0;
        const bool next = alive ? rule.survives(neighbours) : rule.born(neighbours);
        next_[index(x, y)] = next ? 1 : 0;
      }
    }
    std::swap(cells_, next_);
  }

 private:
  size_t index(int64_t x, int64_t y) const { return static_cast<size_t>(y * width_ + x); }

  int live_neighbours(int64_t x, int64_t y, Edges edges) const {
    int count = 0;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0) continue;
        const int64_t nx = neighbour_index(x, dx, width_, edges);
        const int64_t ny = neighbour_index(y, dy, height_, edges);
        if (nx >= 0 && ny >= 0) count += cells_[index(nx, ny)];
      }
    }
    return count;
  }

  int64_t width_ = 0;
  int64_t height_ = 0;
  std::vector<uint8_t> cells_;
  std::vector<uint8_t> next_;
};

}  // namespace

std::unique_ptr<Backend> make_serial_backend() {
  return std::make_unique<DenseBackend>("serial", std::make_unique<SerialGrid>());
}

}  // namespace gol::cpu
