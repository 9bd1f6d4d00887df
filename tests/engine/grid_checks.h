// Checks that a grid stepped in blocks (torus or plane) left what stepping
// a generation at a time would have: what it lists awake and what its
// summaries say.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/core/backend.h"
#include "engine/grid_stepper.h"
#include "sparse/sparse_grid.h"

namespace gol::grid_checks {

// The active slots with their bands, in slot order.
inline std::vector<std::pair<int32_t, BandMask>> awake(const sparse::SparseGrid& grid) {
  std::vector<std::pair<int32_t, BandMask>> listed;
  for (size_t i = 0; i < grid.active().size(); ++i) {
    listed.emplace_back(grid.active()[i], grid.active_bands()[i]);
  }
  std::sort(listed.begin(), listed.end());
  return listed;
}

// The active tiles with their bands, by coordinate: what two grids whose
// slots differ (one made tiles in another order) can compare.
inline std::vector<std::pair<TileCoord, BandMask>> awake_by_coord(const sparse::SparseGrid& grid) {
  std::vector<std::pair<TileCoord, BandMask>> listed;
  for (size_t i = 0; i < grid.active().size(); ++i) {
    listed.emplace_back(grid.map().coord(grid.active()[i]), grid.active_bands()[i]);
  }
  std::sort(listed.begin(), listed.end(), [](const auto& a, const auto& b) {
    return std::pair(a.first.ty, a.first.tx) < std::pair(b.first.ty, b.first.tx);
  });
  return listed;
}

// Whether every entry of `plain` is in `blocked` with at least its bands.
// Not equality: a block's last generation steps whole tiles, whose change
// notes are kept by band rather than by row (as the generation-at-a-time
// grid keeps them for tiles it steps a few bands of), so a change in a
// band's edge row may wake one band more there, and a block wakes every
// tile it made. Nothing plain wakes may be missing: a tile left asleep
// would be stepped wrong.
template <typename Key>
bool wakes_at_least(const std::vector<std::pair<Key, BandMask>>& blocked,
                    const std::vector<std::pair<Key, BandMask>>& plain) {
  return std::all_of(plain.begin(), plain.end(), [&](const std::pair<Key, BandMask>& entry) {
    const auto found = std::find_if(blocked.begin(), blocked.end(),
                                    [&](const auto& other) { return other.first == entry.first; });
    return found != blocked.end() && (found->second & entry.second) == entry.second;
  });
}

// Whether every held tile's summary of each generation it holds says what
// the tile holds: neighbours and the population read them of sleeping
// tiles, whose buffers a block may have written in any generation.
inline bool summaries_hold(const sparse::SparseGrid& grid) {
  const sparse::TileMap& map = grid.map();
  for (int32_t slot : map.held()) {
    for (int parity = 0; parity < 2; ++parity) {
      const Tile& tile = map.tile(parity, slot);
      const sparse::TileMap::Summary summary = map.summary(parity, slot);
      if (summary.border != sparse::border_occupancy(tile) || summary.nonempty != !tile.empty()) {
        return false;
      }
    }
  }
  return true;
}

// Whether `blocked` stands at `generation` with the reference's population
// and cells, and with summaries that hold; the first check that fails is
// named.
inline ::testing::AssertionResult matches_reference(const sparse::SparseGrid& blocked,
                                                    const Backend& oracle, uint64_t generation) {
  if (blocked.generation() != generation) {
    return ::testing::AssertionFailure()
           << "at generation " << blocked.generation() << ", not " << generation;
  }
  if (blocked.population() != oracle.population()) {
    return ::testing::AssertionFailure() << "population " << blocked.population() << ", not "
                                         << oracle.population() << ", at generation " << generation;
  }
  if (!(blocked.cells() == oracle.cells())) {
    return ::testing::AssertionFailure() << "other cells at generation " << generation;
  }
  if (!summaries_hold(blocked)) {
    return ::testing::AssertionFailure() << "a summary wrong at generation " << generation;
  }
  return ::testing::AssertionSuccess();
}

// Steps a world in blocks, the same world a generation at a time and a
// reference backend to each checkpoint in turn, calling check(checkpoint)
// after each.
template <typename Check>
void step_to_each(GridStepper& block_stepper, sparse::SparseGrid& blocked,
                  GridStepper& plain_stepper, sparse::SparseGrid& plain, Backend& oracle,
                  const Rule& rule, const std::vector<uint64_t>& checkpoints, Check check) {
  uint64_t done = 0;
  for (uint64_t checkpoint : checkpoints) {
    block_stepper.step(blocked, rule, checkpoint - done);
    plain_stepper.step(plain, rule, checkpoint - done);
    oracle.step(checkpoint - done);
    done = checkpoint;
    check(checkpoint);
  }
}

}  // namespace gol::grid_checks
