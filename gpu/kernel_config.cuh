// Launch numbers for every kernel, in one place.
#pragma once

namespace gol::gpu {

// The multi-step kernel runs up to this many generations a launch; that
// many rows at the top and bottom of a block, and the first and last word
// of each warp row, are halo: recomputed, never stored. One halo word covers
// up to 32 generations of spread.
inline constexpr int kMultiStepGenerations = 16;
static_assert(kMultiStepGenerations <= 32, "one halo word covers 32 generations");
// A lane holds one word of each of its rows: a warp's row spans 32 words,
// of which the first and last are halo.
inline constexpr int kSpanWords = 32;
inline constexpr int kInteriorWords = kSpanWords - 2;

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
