// Helpers for the sparse/ tests: drive a SparseGrid with a tile step (a
// per-cell scalar one written here, or the SIMD kernel), and run the bit
// reference backend as the oracle.
#pragma once

#include <cstdint>

#include "cpu/reference/reference_backends.h"
#include "cpu/simd/tile_step.h"
#include "engine/core/cell_set.h"
#include "engine/core/rule.h"
#include "sparse/sparse_grid.h"

namespace gol::sparse::test {

// kWrittenOver: the Highway step written into commit_target() by the test,
// then committed with commit_written(). kBands, kBandsXsimd: the kernel
// steps only active_bands() over commit_target() and reports the change,
// as the engine's GridStepper does.
enum class TileStepper { kScalar, kHighway, kXsimd, kWrittenOver, kBands, kBandsXsimd };

inline bool cell_around(const Tile* const (&at)[3][3], int x, int y) {
  const int tx = x < 0 ? 0 : (x < kTileSize ? 1 : 2);
  const int ty = y < 0 ? 0 : (y < kTileSize ? 1 : 2);
  return at[ty][tx]->get(x - (tx - 1) * kTileSize, y - (ty - 1) * kTileSize);
}

// The centre tile's next generation, one cell at a time.
inline Tile scalar_step(const Tile* const (&at)[3][3], const Rule& rule) {
  Tile next;
  for (int y = 0; y < kTileSize; ++y) {
    for (int x = 0; x < kTileSize; ++x) {
      int count = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) count += (dx || dy) && cell_around(at, x + dx, y + dy);
      }
      next.set(x, y, at[1][1]->get(x, y) ? rule.survives(count) : rule.born(count));
    }
  }
  return next;
}

inline Tile step_one(const Tile* const (&at)[3][3], const Rule& rule, TileStepper stepper) {
  if (stepper == TileStepper::kScalar) return scalar_step(at, rule);
  cpu::TileNeighbourhood in;
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 3; ++column) in.at[row][column] = at[row][column];
  }
  Tile out;
  cpu::step_tiles(
      &in, &out, 1, rule,
      stepper == TileStepper::kXsimd ? cpu::SimdLibrary::kXsimd : cpu::SimdLibrary::kHighway);
  return out;
}

// One generation the way the scheduler does it: plan, step, commit, finish.
// Returns the number of tiles stepped.
inline size_t step_generation(SparseGrid& grid, const Rule& rule, TileStepper stepper) {
  const size_t count = grid.active().size();
  if (count == 0) {
    grid.advance_asleep(1);
    return 0;
  }
  if (stepper == TileStepper::kBands || stepper == TileStepper::kBandsXsimd) {
    for (size_t i = 0; i < count; ++i) {
      cpu::TileNeighbourhood in;
      grid.neighbourhood(grid.active()[i], in.at);
      Tile* target = grid.commit_target(i);
      TileChange change;
      cpu::step_tiles_over(
          &in, &target, &change, 1, rule,
          stepper == TileStepper::kBands ? cpu::SimdLibrary::kHighway : cpu::SimdLibrary::kXsimd,
          &grid.active_bands()[i]);
      grid.commit_written(i, change);
    }
    grid.finish_generation();
    return count;
  }
  for (size_t i = 0; i < count; ++i) {
    const Tile* at[3][3];
    grid.neighbourhood(grid.active()[i], at);
    const Tile next = step_one(at, rule, stepper);
    if (stepper != TileStepper::kWrittenOver) {
      grid.commit(i, next);
      continue;
    }
    Tile& target = *grid.commit_target(i);
    TileChange change;
    change.top_change = next.rows[0] ^ target.rows[0];
    change.bottom_change = next.rows[kTileSize - 1] ^ target.rows[kTileSize - 1];
    change.top_row = next.rows[0];
    change.bottom_row = next.rows[kTileSize - 1];
    for (int row = 0; row < kTileSize; ++row) {
      change.changed_columns |= next.rows[row] ^ target.rows[row];
      change.live_columns |= next.rows[row];
    }
    target = next;
    grid.commit_written(i, change);
  }
  grid.finish_generation();
  return count;
}

inline void run(SparseGrid& grid, const Rule& rule, uint64_t generations,
                TileStepper stepper = TileStepper::kBands) {
  for (uint64_t g = 0; g < generations; ++g) step_generation(grid, rule, stepper);
}

// The bit reference backend's cells after `generations`.
inline CellSet reference_run(const CellSet& cells, const Rule& rule, const Topology& topology,
                             uint64_t generations) {
  auto oracle = cpu::make_bit_backend();
  oracle->load(cells, rule, topology);
  oracle->step(generations);
  return oracle->cells();
}

// A pattern given as rows of '.' and 'O', its top-left cell at (x, y).
inline CellSet picture(std::initializer_list<const char*> rows, int64_t x = 0, int64_t y = 0) {
  CellSet cells;
  int64_t row_index = 0;
  for (const char* row : rows) {
    for (int64_t column = 0; row[column] != '\0'; ++column) {
      if (row[column] == 'O') cells.set(x + column, y + row_index);
    }
    ++row_index;
  }
  return cells;
}

inline CellSet glider(int64_t x, int64_t y) { return picture({".O.", "..O", "OOO"}, x, y); }

inline CellSet merged(const CellSet& a, const CellSet& b) {
  CellSet result = a;
  for (const Cell& cell : b.cells()) result.set(cell);
  return result;
}

// Four gliders flying apart: south-east and north-east from column `east`,
// south-west and north-west from column `west`, the southern ones from row
// `south` and the northern ones from row `north`.
inline CellSet gliders_flying_apart(int64_t west, int64_t east, int64_t north, int64_t south) {
  CellSet cells = glider(east, south);
  cells = merged(cells, picture({".O.", "O..", "OOO"}, west, south));
  cells = merged(cells, picture({"OOO", "..O", ".O."}, east, north));
  return merged(cells, picture({"OOO", "O..", ".O."}, west, north));
}

}  // namespace gol::sparse::test
