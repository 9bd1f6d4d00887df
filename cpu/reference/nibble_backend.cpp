// The nibble reference path: 16 cells per uint64_t, four bits a cell (cell
// 16k + j of a row is nibble j, bits 4j..4j+3, of the row's word k, holding
// 0 or 1). Neighbour counts come from nibble-wise adds of shifted words:
// no count exceeds 9, so no nibble ever carries into the next.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "cpu/reference/cell_grid.h"
#include "cpu/reference/dense_backend.h"
#include "cpu/reference/reference_backends.h"

namespace gol::cpu {
namespace {

constexpr int kBitsPerCell = 4;
constexpr int kCellsPerWord = 64 / kBitsPerCell;
constexpr int kWordsPer64Cells = 64 / kCellsPerWord;

// Bit j of `cells` becomes nibble j of the result, for j in [0, 16).
uint64_t spread_to_nibbles(uint64_t cells) {
  uint64_t word = 0;
  for (int j = 0; j < kCellsPerWord; ++j) word |= ((cells >> j) & 1u) << (kBitsPerCell * j);
  return word;
}

// The inverse of spread_to_nibbles: the low bit of each nibble.
uint64_t gather_from_nibbles(uint64_t word) {
  uint64_t cells = 0;
  for (int j = 0; j < kCellsPerWord; ++j) cells |= ((word >> (kBitsPerCell * j)) & 1u) << j;
  return cells;
}

// The next state of the 16 cells of `cells`, given each one's neighbour
// count in the matching nibble of `neighbours`.
uint64_t apply_rule(uint64_t cells, uint64_t neighbours, const Rule& rule) {
  uint64_t next = 0;
  for (int j = 0; j < kCellsPerWord; ++j) {
    const int shift = kBitsPerCell * j;
    const int count = static_cast<int>((neighbours >> shift) & 0xF);
    const bool alive = ((cells >> shift) & 1u) != 0;
    if (alive ? rule.survives(count) : rule.born(count)) next |= uint64_t{1} << shift;
  }
  return next;
}

class NibbleGrid final : public CellGrid {
 public:
  void resize(int64_t width, int64_t height) override {
    width_ = width;
    height_ = height;
    words_per_row_ = width / kCellsPerWord;
    cells_.assign(static_cast<size_t>(words_per_row_ * height), 0);
    row_sums_.assign(cells_.size(), 0);
    next_.assign(cells_.size(), 0);
  }
  int64_t width() const override { return width_; }
  int64_t height() const override { return height_; }
  int bits_per_cell() const override { return kBitsPerCell; }

  uint64_t load_word(int64_t word, int64_t y) const override {
    uint64_t bits = 0;
    for (int k = 0; k < kWordsPer64Cells; ++k) {
      bits |= gather_from_nibbles(cells_[index(kWordsPer64Cells * word + k, y)])
              << (kCellsPerWord * k);
    }
    return bits;
  }

  void store_word(int64_t word, int64_t y, uint64_t bits) override {
    for (int k = 0; k < kWordsPer64Cells; ++k) {
      cells_[index(kWordsPer64Cells * word + k, y)] =
          spread_to_nibbles(bits >> (kCellsPerWord * k));
    }
  }

  void step(const Rule& rule, Edges edges) override {
    for (int64_t y = 0; y < height_; ++y) sum_row(y, edges);
    for (int64_t y = 0; y < height_; ++y) {
      const int64_t north = neighbour_index(y, -1, height_, edges);
      const int64_t south = neighbour_index(y, 1, height_, edges);
      for (int64_t w = 0; w < words_per_row_; ++w) {
        const uint64_t block = row_sum_at(north, w) + row_sums_[index(w, y)] + row_sum_at(south, w);
        const uint64_t cells = cells_[index(w, y)];
        // Every nibble of `block` counts its own cell, so this never borrows.
        next_[index(w, y)] = apply_rule(cells, block - cells, rule);
      }
    }
    std::swap(cells_, next_);
  }

 private:
  size_t index(int64_t w, int64_t y) const { return static_cast<size_t>(y * words_per_row_ + w); }

  // row_sums_ of row y: each nibble the count of live cells among itself
  // and its west and east neighbours (0..3).
  void sum_row(int64_t y, Edges edges) {
    for (int64_t w = 0; w < words_per_row_; ++w) {
      const uint64_t word = cells_[index(w, y)];
      const uint64_t before = word_at(neighbour_index(w, -1, words_per_row_, edges), y);
      const uint64_t after = word_at(neighbour_index(w, 1, words_per_row_, edges), y);
      row_sums_[index(w, y)] = west_neighbours(before, word, kBitsPerCell) + word +
                               east_neighbours(word, after, kBitsPerCell);
    }
  }

  uint64_t word_at(int64_t w, int64_t y) const { return w < 0 ? 0 : cells_[index(w, y)]; }
  uint64_t row_sum_at(int64_t y, int64_t w) const { return y < 0 ? 0 : row_sums_[index(w, y)]; }

  int64_t width_ = 0;
  int64_t height_ = 0;
  int64_t words_per_row_ = 0;
  std::vector<uint64_t> cells_;
  std::vector<uint64_t> row_sums_;
  std::vector<uint64_t> next_;
};

}  // namespace

std::unique_ptr<Backend> make_nibble_backend() {
  return std::make_unique<DenseBackend>("nibble", std::make_unique<NibbleGrid>());
}

}  // namespace gol::cpu
