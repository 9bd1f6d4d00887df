// Launch numbers for every kernel, in one place.
#pragma once

namespace gol::gpu {

// The multi-step kernel. Each thread holds `rows_per_thread` rows of
// kWordsPerLane adjacent 32-bit words in registers; the 32 lanes of a warp
// sit side by side (64 words, 2048 cells wide) and `warps_per_block` warps
// are stacked vertically. Up to `generations_per_launch` generations run per
// launch; that many rows at the top and bottom of a block, and the first and
// last word of each warp row, are halo: recomputed, never stored.
struct MultiStepConfig {
  int rows_per_thread;
  int warps_per_block;
  int generations_per_launch;
};

inline constexpr int kWordsPerLane = 2;
inline constexpr int kWarpWords = 32 * kWordsPerLane;
// One halo word on each side covers up to 32 generations of spread.
inline constexpr int kInteriorWords = kWarpWords - 2;

inline constexpr MultiStepConfig kMultiStep{32, 20, 16};
// For fields too small to give a kMultiStep block to every multiprocessor:
// shorter blocks, more halo, but every SM busy (8192^2 on the H100: 17.2 T
// CUpS instead of 13.2 T with 70 full-size blocks).
inline constexpr MultiStepConfig kMultiStepSmall{16, 8, 16};
static_assert(kMultiStepSmall.generations_per_launch == kMultiStep.generations_per_launch,
              "callers batch generations by kMultiStep alone");

constexpr int block_rows(MultiStepConfig c) { return c.rows_per_thread * c.warps_per_block; }
constexpr int interior_rows(MultiStepConfig c) {
  return block_rows(c) - 2 * c.generations_per_launch;
}
static_assert(kMultiStep.generations_per_launch <= 32, "one halo word covers 32 generations");
static_assert(interior_rows(kMultiStep) > 0 && interior_rows(kMultiStepSmall) > 0,
              "a block must keep some rows");

// One-generation baselines: threads per block (x by y).
inline constexpr int kBitStepBlockX = 32;
inline constexpr int kBitStepBlockY = 8;
inline constexpr int kNaiveBlockX = 32;
inline constexpr int kNaiveBlockY = 8;

// Plane regions: live cells within this many cells of a region's edge make
// it regrow before the next batch of generations; a batch is at most
// kPlaneBandCells - 1 generations, so growth never reaches the edge.
inline constexpr int kPlaneBandCells = 64;

}  // namespace gol::gpu
