// A busy torus a block of generations per sweep (see torus_blocks.h).
#include "engine/torus_blocks.h"

#include <unistd.h>

#include <algorithm>
#include <array>

#include "cpu/simd/tile_step.h"
#include "engine/core/error.h"

namespace gol {
namespace {

// Tiles per kernel call, as the generation-at-a-time stepper hands them.
constexpr size_t kChunkTiles = 32;
// Deeper blocks save little more memory traffic (1/n of it is left) while
// the halo work grows with n.
constexpr uint64_t kMaxDepth = 8;
// A strip steps (n - 1) of its halo rows on average at each generation of
// a block of n, work done twice: at most a quarter of its own rows'.
constexpr uint64_t kStripRowsPerHaloRow = 4;
// Bytes a tile row in flight holds in cache per tile: both generations.
constexpr size_t kBytesPerTileInFlight = 2 * sizeof(Tile);
// Tile rows in flight besides one per generation of the block: the rows
// each step reads above and below, and the one the prefetcher brings in.
constexpr uint64_t kRowsInFlightBeyondDepth = 3;

// Where the tile at (row, column) of a strip's rows is listed: each row
// lists columns -1 to `columns`, the ends wrapped, so a tile's neighbours
// are read without wrapping.
size_t place(int64_t row, int64_t column, int64_t columns) {
  return static_cast<size_t>(row * (columns + 2) + column + 1);
}

}  // namespace

uint64_t TorusBlocks::depth_for(int64_t tiles_x, int64_t strip_rows, uint64_t remaining,
                                size_t cache_bytes) {
  const size_t row_bytes = static_cast<size_t>(tiles_x) * kBytesPerTileInFlight;
  const uint64_t rows = cache_bytes / row_bytes;
  if (rows <= kRowsInFlightBeyondDepth) return 0;
  const auto halo_bound = static_cast<uint64_t>(strip_rows) / kStripRowsPerHaloRow;
  return std::min({rows - kRowsInFlightBeyondDepth, halo_bound, kMaxDepth, remaining});
}

int64_t TorusBlocks::strip_count(int64_t tiles_y, int threads) {
  return std::clamp<int64_t>(threads, 1, tiles_y);
}

int64_t TorusBlocks::strip_rows(int64_t tiles_y, int threads) {
  return tiles_y / strip_count(tiles_y, threads);
}

size_t TorusBlocks::core_cache_bytes() {
  // Without an answer, the smallest L2 of the machines this runs on.
  constexpr size_t kFallback = size_t{512} << 10;
  const long reported = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return reported > 0 ? static_cast<size_t>(reported) : kFallback;
}

// One strip's sweep: row e (of the extended rows: n halo rows, the strip's
// own, n halo rows) at level j (generation t + j) is stepped at step
// e + j - 1, after level j - 1 of rows e - 1, e and e + 1 in the same or an
// earlier step, and before anything overwrites what those read.
struct TorusBlocks::Sweep {
  sparse::SparseGrid& grid;
  const Rule& rule;
  cpu::SimdLibrary library;
  uint64_t depth;
  uint64_t start;  // the block's first generation, t
  int64_t columns;
  const Strip& strip;
  std::span<const int32_t> slots;

  int64_t extended_rows() const { return strip.rows + 2 * static_cast<int64_t>(depth); }
  bool is_own(int64_t row) const {
    return row >= static_cast<int64_t>(depth) && row < strip.rows + static_cast<int64_t>(depth);
  }
  // The torus's index of an own row's tile (its place in torus_slots()).
  size_t index_of(int64_t row, int64_t column) const {
    return static_cast<size_t>((strip.first_row + row - static_cast<int64_t>(depth)) * columns +
                               column);
  }

  uint64_t run() const {
    uint64_t computed = 0;
    const int64_t rows = extended_rows();
    for (int64_t step = 1; step <= rows - 2; ++step) {
      for (uint64_t level = 1; level <= depth; ++level) {
        const int64_t row = step - static_cast<int64_t>(level) + 1;
        const auto reach = static_cast<int64_t>(level);
        if (row < reach || row >= rows - reach) continue;
        step_row(row, level);
        computed += static_cast<uint64_t>(columns);
      }
    }
    return computed;
  }

  void step_row(int64_t row, uint64_t level) const {
    const int read = static_cast<int>((start + level - 1) & 1);
    const int write = read ^ 1;
    // The last two generations are what the grid keeps: noted, and the
    // last committed, as a generation at a time would.
    const bool noted = is_own(row) && level + 1 >= depth;
    const std::vector<Tile*>& from = strip.tiles[read];
    const std::vector<Tile*>& to = strip.tiles[write];
    std::array<cpu::TileNeighbourhood, kChunkTiles> in;
    std::array<Tile*, kChunkTiles> targets;
    std::array<TileChange, kChunkTiles> changes;
    for (int64_t first = 0; first < columns; first += static_cast<int64_t>(kChunkTiles)) {
      const auto count = static_cast<size_t>(std::min<int64_t>(kChunkTiles, columns - first));
      for (size_t i = 0; i < count; ++i) {
        const int64_t column = first + static_cast<int64_t>(i);
        for (int dy = 0; dy < 3; ++dy) {
          const Tile* const* beside = &from[place(row + dy - 1, column - 1, columns)];
          for (int dx = 0; dx < 3; ++dx) in[i].at[dy][dx] = beside[dx];
        }
        targets[i] = to[place(row, column, columns)];
      }
      cpu::step_tiles_over(in.data(), targets.data(), noted ? changes.data() : nullptr, count, rule,
                           library);
      if (!noted) continue;
      for (size_t i = 0; i < count; ++i) {
        const size_t index = index_of(row, first + static_cast<int64_t>(i));
        if (level == depth) {
          grid.commit_written(index, changes[i]);
        } else {
          grid.note_written(slots[index], write, changes[i]);
        }
      }
    }
  }
};

void TorusBlocks::lay_out(sparse::SparseGrid& grid, size_t strips, uint64_t depth) {
  const int64_t columns = grid.torus_tiles_x();
  const int64_t rows = grid.torus_tiles_y();
  const std::span<const int32_t> slots = grid.torus_slots();
  const auto halo_rows = static_cast<int64_t>(depth);
  strips_.resize(strips);
  for (size_t s = 0; s < strips; ++s) {
    Strip& strip = strips_[s];
    strip.first_row = rows * static_cast<int64_t>(s) / static_cast<int64_t>(strips);
    strip.rows =
        rows * static_cast<int64_t>(s + 1) / static_cast<int64_t>(strips) - strip.first_row;
    const int64_t extended = strip.rows + 2 * halo_rows;
    strip.halo.resize(static_cast<size_t>(2 * 2 * halo_rows * columns));
    for (int parity = 0; parity < 2; ++parity) {
      std::vector<Tile*>& tiles = strip.tiles[parity];
      tiles.resize(place(extended, -1, columns));
      for (int64_t row = 0; row < extended; ++row) {
        const bool own = row >= halo_rows && row < strip.rows + halo_rows;
        const int64_t halo_row = row < halo_rows ? row : row - strip.rows;
        for (int64_t column = -1; column <= columns; ++column) {
          const int64_t wrapped = wrap(column, columns);
          Tile* tile = nullptr;
          if (own) {
            const int64_t torus_row = strip.first_row + row - halo_rows;
            tile = &grid.buffer(parity, slots[static_cast<size_t>(torus_row * columns + wrapped)]);
          } else {
            tile = &strip.halo[static_cast<size_t>((halo_row * columns + wrapped) * 2 + parity)];
          }
          tiles[place(row, column, columns)] = tile;
        }
      }
    }
  }
}

uint64_t TorusBlocks::step(sparse::SparseGrid& grid, const Rule& rule, uint64_t depth,
                           cpu::ParallelTileStepper& workers) {
  GOL_CHECK(depth >= 2 && grid.suits_blocks());
  const int64_t columns = grid.torus_tiles_x();
  const int64_t rows = grid.torus_tiles_y();
  const auto strips = static_cast<size_t>(strip_count(rows, workers.threads()));
  lay_out(grid, strips, depth);
  const uint64_t start = grid.generation();
  const int parity = static_cast<int>(start & 1);
  const std::span<const int32_t> slots = grid.torus_slots();
  const auto halo_rows = static_cast<int64_t>(depth);
  // Every strip copies its halo at generation t before any strip writes
  // generation t+2 over it.
  workers.run_tasks(strips, [&](size_t s) {
    const Strip& strip = strips_[s];
    for (int64_t row = 0; row < strip.rows + 2 * halo_rows; ++row) {
      if (row >= halo_rows && row < strip.rows + halo_rows) continue;
      const int64_t torus_row = wrap(strip.first_row + row - halo_rows, rows);
      for (int64_t column = 0; column < columns; ++column) {
        *strip.tiles[parity][place(row, column, columns)] =
            grid.buffer(parity, slots[static_cast<size_t>(torus_row * columns + column)]);
      }
    }
  });
  grid.begin_block(depth);
  std::vector<uint64_t> computed(strips, 0);
  workers.run_tasks(strips, [&](size_t s) {
    const Sweep sweep{grid, rule, workers.library(), depth, start, columns, strips_[s], slots};
    computed[s] = sweep.run();
  });
  grid.finish_generation();
  uint64_t total = 0;
  for (uint64_t count : computed) total += count;
  return total;
}

}  // namespace gol
