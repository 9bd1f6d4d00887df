// The bit reference path: 64 cells per uint64_t in the tile bit order (cell
// 64k + i of a row is bit i of the row's word k). The eight neighbours are
// summed in parallel for all 64 cells by a full/half-adder tree into four
// count bit planes, and the rule is applied by bitwise logic on those planes.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "cpu/reference/cell_grid.h"
#include "cpu/reference/dense_backend.h"
#include "cpu/reference/reference_backends.h"

namespace gol::cpu {
namespace {

// A neighbour count (0..8) per lane, as binary digits: bit i of `ones` is
// the lowest digit of lane i's count, and so on.
struct CountPlanes {
  uint64_t ones = 0;
  uint64_t twos = 0;
  uint64_t fours = 0;
  uint64_t eights = 0;
};

struct SumCarry {
  uint64_t sum;
  uint64_t carry;
};

SumCarry half_add(uint64_t a, uint64_t b) { return {a ^ b, a & b}; }

SumCarry full_add(uint64_t a, uint64_t b, uint64_t c) {
  const uint64_t partial = a ^ b;
  return {partial ^ c, (a & b) | (partial & c)};
}

// The three words of one row as seen from a cell: its west neighbour, itself
// and its east neighbour, lane for lane.
struct RowNeighbours {
  uint64_t west;
  uint64_t centre;
  uint64_t east;
};

bool all_dead(const RowNeighbours& row) { return (row.west | row.centre | row.east) == 0; }

CountPlanes count_neighbours(const RowNeighbours& north, const RowNeighbours& middle,
                             const RowNeighbours& south) {
  const SumCarry north_sum = full_add(north.west, north.centre, north.east);  // 0..3
  const SumCarry south_sum = full_add(south.west, south.centre, south.east);  // 0..3
  const SumCarry middle_sum = half_add(middle.west, middle.east);             // 0..2
  const SumCarry ones = full_add(north_sum.sum, south_sum.sum, middle_sum.sum);
  const SumCarry twos_a = full_add(north_sum.carry, south_sum.carry, middle_sum.carry);
  const SumCarry twos_b = half_add(twos_a.sum, ones.carry);
  // Weight-4 carries: at most two, since the count never exceeds 8.
  const SumCarry fours = half_add(twos_a.carry, twos_b.carry);
  return {ones.sum, twos_b.sum, fours.sum, fours.carry};
}

// Lanes whose count is exactly n.
uint64_t count_is(const CountPlanes& count, int n) {
  const auto digit = [](uint64_t plane, bool set) { return set ? plane : ~plane; };
  return digit(count.ones, n & 1) & digit(count.twos, n & 2) & digit(count.fours, n & 4) &
         digit(count.eights, n & 8);
}

// Lanes whose count n has bit n set in `counts` (a Rule birth/survival mask).
uint64_t count_in(const CountPlanes& count, uint16_t counts) {
  uint64_t lanes = 0;
  for (int n = 0; n <= 8; ++n) {
    if ((counts >> n) & 1u) lanes |= count_is(count, n);
  }
  return lanes;
}

uint64_t next_state(uint64_t alive, const CountPlanes& count, const Rule& rule) {
  return (alive & count_in(count, rule.survival)) | (~alive & count_in(count, rule.birth));
}

class BitGrid final : public CellGrid {
 public:
  void resize(int64_t width, int64_t height) override {
    width_ = width;
    height_ = height;
    words_per_row_ = width / 64;
    cells_.assign(static_cast<size_t>(words_per_row_ * height), 0);
    next_.assign(cells_.size(), 0);
  }
  int64_t width() const override { return width_; }
  int64_t height() const override { return height_; }
  int bits_per_cell() const override { return 1; }

  uint64_t load_word(int64_t word, int64_t y) const override { return cells_[index(word, y)]; }
  void store_word(int64_t word, int64_t y, uint64_t bits) override {
    cells_[index(word, y)] = bits;
  }

  void step(const Rule& rule, Edges edges) override {
    for (int64_t y = 0; y < height_; ++y) {
      const int64_t north = neighbour_index(y, -1, height_, edges);
      const int64_t south = neighbour_index(y, 1, height_, edges);
      for (int64_t w = 0; w < words_per_row_; ++w) {
        const int64_t before = neighbour_index(w, -1, words_per_row_, edges);
        const int64_t after = neighbour_index(w, 1, words_per_row_, edges);
        const RowNeighbours north_row = row_neighbours(north, before, w, after);
        const RowNeighbours middle_row = row_neighbours(y, before, w, after);
        const RowNeighbours south_row = row_neighbours(south, before, w, after);
        if (!rule.births_on_zero() && all_dead(north_row) && all_dead(middle_row) &&
            all_dead(south_row)) {
          // Without B0 nothing is born in a dead neighbourhood. Skipping those
          // words keeps the mostly empty plane grids of long runs cheap.
          next_[index(w, y)] = 0;
          continue;
        }
        const CountPlanes count = count_neighbours(north_row, middle_row, south_row);
        next_[index(w, y)] = next_state(middle_row.centre, count, rule);
      }
    }
    std::swap(cells_, next_);
  }

 private:
  size_t index(int64_t w, int64_t y) const { return static_cast<size_t>(y * words_per_row_ + w); }

  // A word of the grid, or dead cells where the index fell off the edge (-1).
  uint64_t word_at(int64_t w, int64_t y) const { return w < 0 || y < 0 ? 0 : cells_[index(w, y)]; }

  RowNeighbours row_neighbours(int64_t y, int64_t before, int64_t w, int64_t after) const {
    const uint64_t centre = word_at(w, y);
    return {west_neighbours(word_at(before, y), centre, 1), centre,
            east_neighbours(centre, word_at(after, y), 1)};
  }

  int64_t width_ = 0;
  int64_t height_ = 0;
  int64_t words_per_row_ = 0;
  std::vector<uint64_t> cells_;
  std::vector<uint64_t> next_;
};

}  // namespace

std::unique_ptr<Backend> make_bit_backend() {
  return std::make_unique<DenseBackend>("bit", std::make_unique<BitGrid>());
}

}  // namespace gol::cpu
