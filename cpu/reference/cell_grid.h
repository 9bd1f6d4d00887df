// The interface the three reference kernels implement: a dense W x H block
// of cells in the kernel's own representation, readable and writable 64
// cells at a time, stepped one generation with dead or wrapping edges.
// DenseBackend (dense_backend.h) does all the bookkeeping around it.
#pragma once

#include <cstdint>

#include "engine/core/rule.h"

namespace gol::cpu {

// What lies beyond the grid's edges: dead cells (the plane, where
// DenseBackend keeps a dead margin) or the opposite edge (the torus).
enum class Edges { kDead, kWrap };

class CellGrid {
 public:
  virtual ~CellGrid() = default;

  // Replaces the grid with `width` x `height` dead cells. `width` is a
  // positive multiple of 64, so every kernel's words tile a row exactly.
  virtual void resize(int64_t width, int64_t height) = 0;
  virtual int64_t width() const = 0;
  virtual int64_t height() const = 0;
  // Bits a cell takes in this representation; sizes the memory limit.
  virtual int bits_per_cell() const = 0;

  // Cells (64*word + i, y) for i in [0, 64) as bit i, the tile bit order.
  virtual uint64_t load_word(int64_t word, int64_t y) const = 0;
  virtual void store_word(int64_t word, int64_t y, uint64_t cells) = 0;

  // Advances every cell of the grid by one generation.
  virtual void step(const Rule& rule, Edges edges) = 0;
};

// The index of i + delta in [0, n): wrapped on a torus, -1 when it falls off
// a grid with dead edges.
constexpr int64_t neighbour_index(int64_t i, int delta, int64_t n, Edges edges) {
  const int64_t j = i + delta;
  if (j >= 0 && j < n) return j;
  if (edges == Edges::kDead) return -1;
  return j < 0 ? j + n : j - n;
}

// For word-packed rows with `bits` bits a cell and cell x in the lowest bits
// of its word: each cell's field replaced by its west (x - 1) neighbour's,
// taking the carried-in cell from the previous word `before`.
constexpr uint64_t west_neighbours(uint64_t before, uint64_t word, int bits) {
  return (word << bits) | (before >> (64 - bits));
}

// Likewise with each cell's east (x + 1) neighbour, carried in from `after`.
constexpr uint64_t east_neighbours(uint64_t word, uint64_t after, int bits) {
  return (word >> bits) | (after << (64 - bits));
}

}  // namespace gol::cpu
