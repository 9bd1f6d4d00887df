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
#include "gpu/kernel_config.cuh"
#include "gpu/thread_rows.cuh"

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
//
// Memory access: a block's span starts one word left of a tile (word
// 30 * bx - 1, see multistep_kernel), so lanes 1 and 2, 3 and 4, ... 29 and
// 30 hold words 0 and 1 of one tile each: the block's 30 exact words are 15
// whole tiles. Each lane loads the two rows it needs of its tile as one
// 16-byte access (the two lanes of a tile ask for the same bytes, which the
// warp's request fetches once) and keeps its word. Stores go a 32-byte
// sector (four rows of a tile) per lane pair, the words gathered by warp
// shuffles (for_each_stored_pair).
struct TiledField {
  static constexpr bool kStoresBeforeLast = true;
  static_assert(kInteriorWords == 30, "a block's span is 15 whole tiles and a word each side");

  const uint32_t* src = nullptr;
  uint32_t* dst = nullptr;
  uint32_t* before_last = nullptr;  // the last launch when g >= 2
  // Null when the rectangle's slots are first_slot onwards in row-major
  // order (a whole torus, no ring marks): an entry is then computed, sparing
  // each load and store its dependent read of the table.
  const uint32_t* table = nullptr;
  int64_t first_slot = 0;
  int64_t tiles_x = 0;  // the rectangle+ring's width in tiles
  int64_t tiles_y = 0;  // and height
  int generations = 0;  // g
  bool last_launch = false;
  uint32_t* activity = nullptr;  // the last launch: zeroed before it
  int ring = 0;                  // 1 with a ring, 0 for a whole torus
  int64_t owned_x = 0;           // the owned rectangle's width in tiles

  // What a thread's stores in the last launch found. It stores the span's
  // tile column col_tile (for_each_stored_pair) over at most two tile rows
  // from row_tile: bit dr of `flags` is "tile (row_tile + dr, col_tile)
  // changed", bit 2 + dr "is live".
  int64_t row_tile = 0;
  int64_t col_tile = 0;
  uint32_t flags = 0;
  uint32_t population = 0;

  __device__ __forceinline__ uint32_t entry(int64_t tile_row, int64_t tile_col) const {
    if (table == nullptr) return static_cast<uint32_t>(first_slot + tile_row * tiles_x + tile_col);
    return __ldg(table + tile_row * tiles_x + tile_col);
  }
  // Word 0 of `row` (taken within its tile) in the tile of `entry`.
  static __device__ __forceinline__ size_t word_at(uint32_t entry, int64_t row) {
    return static_cast<size_t>(entry & ~kRingTile) * kTileWords +
           static_cast<size_t>((row & (kTileSize - 1)) * 2);
  }

  template <int kRows>
  __device__ __forceinline__ void load(uint32_t (&cells)[kRows], const ThreadRows& t) const {
    const int64_t col = resolve(t.word, t.width_words, t.torus);
    const bool second = (col & 1) != 0;  // word 1 of its tile
#pragma unroll
    for (int i = 0; i < kRows; i += 2) {
      // Even, so rows row and row + 1 lie in one tile, also after wrapping.
      const int64_t row = resolve(t.first_row + i, t.height, t.torus);
      uint4 pair = make_uint4(0, 0, 0, 0);
      if (row >= 0 && col >= 0) {
        pair = __ldg(
            reinterpret_cast<const uint4*>(src + word_at(entry(row >> kTileBits, col >> 1), row)));
      }
      cells[i] = second ? pair.y : pair.x;
      cells[i + 1] = second ? pair.w : pair.z;
    }
  }

  __device__ __forceinline__ bool stores_at(int generation) const {
    return last_launch && (generation == generations - 1 || generation == generations - 2);
  }

  // After generation g-2 (t+k-2, into dst) or g-1 (t+k-1, into before_last,
  // ring tiles zeroed) of the last launch. Apart from store(): its compare
  // path would hold registers the live rows need here.
  template <int kRows>
  __device__ __forceinline__ void store_early(int generation, const uint32_t (&cells)[kRows],
                                              const ThreadRows& t) {
    uint32_t* const out = generation == generations - 2 ? dst : before_last;
    const bool zero_ring = generation == generations - 1;
    for_each_stored_pair(cells, t, [&](size_t at, bool ring_tile, int, uint4 pair) {
      *reinterpret_cast<uint4*>(out + at) = ring_tile && zero_ring ? make_uint4(0, 0, 0, 0) : pair;
    });
  }

  // After the launch's last generation.
  template <int kRows>
  __device__ __forceinline__ void store(int, const uint32_t (&cells)[kRows], const ThreadRows& t) {
    for_each_stored_pair(cells, t, [&](size_t at, bool ring_tile, int dr, uint4 pair) {
      uint4* const out = reinterpret_cast<uint4*>(dst + at);
      if (!last_launch) {
        *out = pair;
      } else if (ring_tile) {
        *out = make_uint4(0, 0, 0, 0);
      } else {
        note_final(generations == 2 ? __ldg(reinterpret_cast<const uint4*>(src + at)) : *out, pair,
                   dr);
        *out = pair;
      }
    });
  }

  // Calls put(word offset, ring tile?, dr, two rows of a tile) for each
  // 16-byte piece this lane stores. In each group of four exact rows, lanes
  // 2m and 2m+1 store rows 0-1 and 2-3 of the span's tile m (m < 15), one
  // whole 32-byte sector between them (an L2 sector written in halves costs
  // about twice the time). Tile m's word 0 is lane 2m+1's, its word 1 lane
  // 2m+2's.
  template <int kRows, class Put>
  __device__ __forceinline__ void for_each_stored_pair(const uint32_t (&cells)[kRows],
                                                       const ThreadRows& t, Put put) {
    const int m = t.lane >> 1;
    const int upper = t.lane & 1;  // rows 2-3 of each group
    // Lane l holds word 30 bx - 1 + l; tile m holds words 30 bx + 2m and + 1.
    col_tile = ((t.word + 1 - t.lane) >> 1) + m;
    row_tile = (t.first_row + t.store_from) >> kTileBits;
    const bool writes = m < 15 && 2 * col_tile < t.width_words && t.store_from < t.store_to;
    uint32_t entries[2];
#pragma unroll
    for (int dr = 0; dr < 2; ++dr) {
      entries[dr] = writes && row_tile + dr < tiles_y ? entry(row_tile + dr, col_tile) : 0u;
    }
    const int word0_lane = 2 * m + 1;
    const int word1_lane = 2 * m + 2 < 32 ? 2 * m + 2 : 31;  // lanes 30 and 31 store nothing
#pragma unroll
    for (int q = 0; q < kRows; q += 4) {
      uint32_t word0[4];
      uint32_t word1[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        word0[r] = __shfl_sync(0xffffffffu, cells[q + r], word0_lane);
        word1[r] = __shfl_sync(0xffffffffu, cells[q + r], word1_lane);
      }
      if (writes && q >= t.store_from && q < t.store_to) {
        const int64_t row = t.first_row + q + 2 * upper;
        const int dr = static_cast<int>((row >> kTileBits) - row_tile);
        const uint32_t e = dr ? entries[1] : entries[0];
        put(word_at(e, row), (e & kRingTile) != 0, dr,
            upper ? make_uint4(word0[2], word1[2], word0[3], word1[3])
                  : make_uint4(word0[0], word1[0], word0[1], word1[1]));
      }
      // Keeps the compiler from hoisting a whole phase's shuffles ahead of
      // its stores: with the rows still live (store_early) that spilled
      // about 1 KB a thread.
      __syncwarp();
    }
  }

  __device__ __forceinline__ void note_final(uint4 two_back, uint4 now, int dr) {
    const bool changed = ((two_back.x ^ now.x) | (two_back.y ^ now.y) | (two_back.z ^ now.z) |
                          (two_back.w ^ now.w)) != 0;
    const bool live = (now.x | now.y | now.z | now.w) != 0;
    flags |= (static_cast<uint32_t>(changed) | static_cast<uint32_t>(live) << 2) << dr;
    population +=
        static_cast<uint32_t>(__popc(now.x) + __popc(now.y) + __popc(now.z) + __popc(now.w));
  }

  // Called by every thread of the launch (the population sum is warp-wide).
  __device__ __forceinline__ void finish() {
    if (!last_launch) return;
#pragma unroll
    for (int dr = 0; dr < 2; ++dr) {
      const uint32_t tile_flags =
          ((flags >> dr) & 1u) * kTileChanged | ((flags >> (dr + 2)) & 1u) * kTileNonempty;
      if (tile_flags == 0) continue;
      atomicOr(
          activity + kActivityHeaderWords + (row_tile + dr - ring) * owned_x + (col_tile - ring),
          tile_flags);
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
