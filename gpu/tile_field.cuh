// The tile pool's device layout and the multi-step kernel's view of one pool
// region (the TiledField template argument of gpu/multistep_kernel.cu).
//
// The pool keeps tiles in three device arrays of 512-byte slots; a tile is
// 64 rows of two 32-bit words, row r at words 2r and 2r+1, which is the
// Tile's uint64_t rows on a little-endian host (bit i of a row is cell i).
// A region's tile table lists, row-major over its rectangle+ring, the slot
// of each tile with kRingTile set on ring tiles. The kernel sees the
// rectangle+ring as one packed field (2 words a tile column, 64 rows a tile
// row) and translates every word through the table, so gather and scatter
// are fused into its loads and stores.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "engine/core/tile.h"

namespace gol::gpu {

inline constexpr int kTileWords = kTileSize * kTileSize / 32;  // 128
inline constexpr uint32_t kRingTile = 1u << 31;

// A region's activity buffer: the population of its owned tiles as one
// uint64_t (two words), then one flag word per owned tile, row-major over
// the owned rectangle.
inline constexpr int kActivityHeaderWords = 2;
inline constexpr uint32_t kTileChanged = 1u;
inline constexpr uint32_t kTileNonempty = 2u;

// An epoch of k generations from t runs as launches of g generations each.
// A launch reads `src` (generation s). Every launch but the last writes
// s + g into `dst`. The last launch (s = t+k-g) leaves t+k-1 in
// `before_last` and t+k in `dst`, noting for each owned tile whether t+k
// differs from t+k-2, and writes zeros for ring tiles (ghost results are
// dropped). It finds t+k-2 where the epoch plan left it: in `dst` already
// when g == 1, in `src` when g == 2, and for g >= 3 it stores it into `dst`
// itself after generation g-2; each thread compares only words it stored,
// and no launch writes its `src`, so no word is read after another thread
// wrote it.
struct TiledField {
  static constexpr bool kStoresBeforeLast = true;

  const uint32_t* src = nullptr;
  uint32_t* dst = nullptr;
  uint32_t* before_last = nullptr;  // the last launch when g >= 2
  const uint32_t* table = nullptr;
  int64_t tiles_x = 0;  // the rectangle+ring's width in tiles
  int generations = 0;  // g
  bool last_launch = false;
  uint32_t* activity = nullptr;  // the last launch: zeroed before it
  int ring = 0;                  // 1 with a ring, 0 for a whole torus
  int64_t owned_x = 0;           // the owned rectangle's width in tiles

  int64_t tiles_y = 0;  // and height

  // A thread's stores touch at most two tile rows (its rows) and two tile
  // columns (its two words): stores_begin() looks up those four tiles once
  // per store phase, (row_tile, col_tile) being the first, and the last
  // phase notes per tile, at bit 2 * (tile row - row_tile) + (tile column -
  // col_tile), whether it changed (and at bit 4 + that, whether it is live).
  int64_t row_tile = 0;
  int64_t col_tile = 0;
  uint32_t entries[2][2] = {{0, 0}, {0, 0}};
  uint32_t flags = 0;
  uint32_t population = 0;

  __device__ __forceinline__ uint32_t entry(int64_t row, int64_t word) const {
    return __ldg(table + (row >> kTileBits) * tiles_x + (word >> 1));
  }
  static __device__ __forceinline__ size_t offset(uint32_t entry, int64_t row, int64_t word) {
    return static_cast<size_t>(entry & ~kRingTile) * kTileWords +
           static_cast<size_t>((row & (kTileSize - 1)) * 2 + (word & 1));
  }

  __device__ __forceinline__ uint32_t load(int64_t row, int64_t word) const {
    return __ldg(src + offset(entry(row, word), row, word));
  }

  __device__ __forceinline__ bool stores_at(int generation) const {
    return last_launch && (generation == generations - 1 || generation == generations - 2);
  }

  // Stored rows and words are never below the thread's first ones clamped
  // to 0 (the halo is not stored), nor past the field.
  __device__ __forceinline__ void stores_begin(int64_t first_row, int64_t first_word) {
    row_tile = (first_row > 0 ? first_row : 0) >> kTileBits;
    col_tile = (first_word > 0 ? first_word : 0) >> 1;
#pragma unroll
    for (int dr = 0; dr < 2; ++dr) {
#pragma unroll
      for (int dc = 0; dc < 2; ++dc) {
        const bool inside = row_tile + dr < tiles_y && col_tile + dc < tiles_x;
        entries[dr][dc] = inside ? __ldg(table + (row_tile + dr) * tiles_x + col_tile + dc) : 0u;
      }
    }
  }

  __device__ __forceinline__ void store(int generation, int64_t row, int64_t word, uint32_t value) {
    const int dr = static_cast<int>((row >> kTileBits) - row_tile);
    const int dc = static_cast<int>((word >> 1) - col_tile);
    const uint32_t e =
        dr ? (dc ? entries[1][1] : entries[1][0]) : (dc ? entries[0][1] : entries[0][0]);
    const size_t at = offset(e, row, word);
    const bool ring_tile = (e & kRingTile) != 0;
    if (!last_launch || generation == generations - 2) {
      dst[at] = value;
    } else if (generation == generations - 1) {
      before_last[at] = ring_tile ? 0u : value;
    } else if (ring_tile) {
      dst[at] = 0u;
    } else {
      const uint32_t two_back = generations == 2 ? __ldg(src + at) : dst[at];
      const int bit = 2 * dr + dc;
      flags |= (static_cast<uint32_t>(two_back != value) | (static_cast<uint32_t>(value != 0) << 4))
               << bit;
      population += static_cast<uint32_t>(__popc(value));
      dst[at] = value;
    }
  }

  // Called by every thread of the launch (the population sum is warp-wide).
  __device__ __forceinline__ void finish() {
    if (!last_launch) return;
#pragma unroll
    for (int bit = 0; bit < 4; ++bit) {
      const uint32_t tile_flags =
          ((flags >> bit) & 1u) * kTileChanged | ((flags >> (bit + 4)) & 1u) * kTileNonempty;
      if (tile_flags == 0) continue;
      const int64_t r = row_tile + bit / 2 - ring;
      const int64_t c = col_tile + bit % 2 - ring;
      atomicOr(activity + kActivityHeaderWords + r * owned_x + c, tile_flags);
    }
    uint32_t total = population;
    for (int lanes = 16; lanes > 0; lanes /= 2)
      total += __shfl_down_sync(0xffffffffu, total, lanes);
    if ((threadIdx.x & 31) == 0 && total != 0) {
      atomicAdd(reinterpret_cast<unsigned long long*>(activity),
                static_cast<unsigned long long>(total));
    }
  }
};

}  // namespace gol::gpu
