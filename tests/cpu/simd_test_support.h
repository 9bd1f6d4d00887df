// Shared helpers for the SIMD kernel tests: random tiles, 3x3 tile
// neighbourhoods and a per-cell reference step to compare against.
#pragma once

#include <array>
#include <cstdint>
#include <random>

#include "cpu/simd/tile_step.h"
#include "engine/core/rule.h"
#include "engine/core/tile.h"

namespace gol::cpu::simd_test {

inline Tile random_tile(std::mt19937_64& random, double density) {
  std::bernoulli_distribution alive(density);
  Tile tile;
  for (int y = 0; y < kTileSize; ++y) {
    for (int x = 0; x < kTileSize; ++x) tile.set(x, y, alive(random));
  }
  return tile;
}

// Nine tiles, owned; at[dy + 1][dx + 1] as in TileNeighbourhood.
struct OwnedNeighbourhood {
  std::array<std::array<Tile, 3>, 3> at{};

  TileNeighbourhood view() const {
    TileNeighbourhood view{};
    for (int row = 0; row < 3; ++row) {
      for (int column = 0; column < 3; ++column) view.at[row][column] = &at[row][column];
    }
    return view;
  }
};

// Cell (x, y) of the 192x192 square the neighbourhood covers, with the
// centre tile at [64, 128).
inline bool cell_at(const TileNeighbourhood& tiles, int x, int y) {
  return tiles.at[y / kTileSize][x / kTileSize]->get(x % kTileSize, y % kTileSize);
}

inline int live_neighbours(const TileNeighbourhood& tiles, int x, int y) {
  int count = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx != 0 || dy != 0) count += cell_at(tiles, kTileSize + x + dx, kTileSize + y + dy);
    }
  }
  return count;
}

// The centre tile's next generation, one cell at a time, the rule as written.
inline Tile reference_step(const TileNeighbourhood& tiles, const Rule& rule) {
  Tile next;
  for (int y = 0; y < kTileSize; ++y) {
    for (int x = 0; x < kTileSize; ++x) {
      const int count = live_neighbours(tiles, x, y);
      next.set(x, y, tiles.at[1][1]->get(x, y) ? rule.survives(count) : rule.born(count));
    }
  }
  return next;
}

}  // namespace gol::cpu::simd_test
