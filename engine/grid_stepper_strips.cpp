// GridStepper's strips: a plane world cut along tile columns, each strip a
// grid of its own stepped alone by one thread for an epoch, the columns
// beside the cuts exchanged between epochs (see SparseGrid::kMaxStripEpoch).
#include <algorithm>
#include <memory>
#include <vector>

#include "engine/grid_stepper.h"

namespace gol {
namespace {

// A strip steps at least this many active tiles: below that an epoch's
// exchange and the threads' start cost more than a share of the work saves.
constexpr size_t kMinStripTiles = 24;
// Tiles this close to the plane's edge keep a world whole: a strip does not
// refuse a birth beyond the edge as GridStepper::step does.
constexpr int64_t kStripEdgeMargin = int64_t{1} << 40;
// Cutting and merging move every tile (about a microsecond each here),
// where a generation in strips saves a share of the active tiles' steps
// (a few tens of nanoseconds each): a cut pays only over more than about
// 70 generations for each tile held per tile active. So a world is cut
// only for kMinStripRun generations or more, and at least kWorthCutting
// for each tile per active one; a segment (cut, epochs, merge) lasts
// kMinSegment generations, or kSegmentPerRatio for each tile per active
// one where that is more.
constexpr uint64_t kMinStripRun = 256;
constexpr uint64_t kWorthCutting = 128;
constexpr uint64_t kMinSegment = 2048;
constexpr uint64_t kSegmentPerRatio = 2048;

// The first column of each strip but the first: the active tiles' columns
// cut into `strips` near-equal shares, fewer where one column holds more
// than a share.
std::vector<int64_t> strip_starts(const sparse::SparseGrid& grid, size_t strips) {
  std::vector<int64_t> columns;
  columns.reserve(grid.active().size());
  for (int32_t slot : grid.active()) columns.push_back(grid.map().coord(slot).tx);
  std::sort(columns.begin(), columns.end());
  // Every strip between two cuts owns two columns or more, so that the
  // columns a neighbour freezes of it are its own.
  std::vector<int64_t> starts;
  for (size_t k = 1; k < strips; ++k) {
    const int64_t column = columns[k * columns.size() / strips];
    if (starts.empty() ? column > columns.front() : column >= starts.back() + 2) {
      starts.push_back(column);
    }
  }
  return starts;
}

// Makes `into`'s tiles in `column` (ghosts or frozen) what `from` holds
// there (its own tiles, absent ones empty), noting the slots that changed.
// A pair neither side has changed since generation `since`, when they were
// made equal, is left as it is.
void exchange_column(sparse::SparseGrid& into, const sparse::SparseGrid& from, int64_t column,
                     uint64_t since, std::vector<int32_t>& imported) {
  // `from`'s tiles first: importing one may make an absent neighbour in
  // the column (empty, beside a live border), which must then still take
  // `from`'s tile there.
  const int parity = static_cast<int>(into.generation() & 1);
  for (int32_t there : from.edge_column(column)) {
    const TileCoord coord = from.map().coord(there);
    int32_t slot = into.map().find(coord);
    if (slot != sparse::TileMap::kAbsent && from.changed_in(there) <= since &&
        into.changed_in(slot) <= since) {
      continue;
    }
    if (slot == sparse::TileMap::kAbsent) slot = into.ensure_tile(coord);
    if (into.import_tile(slot, from.map().tile(parity, there),
                         from.map().tile(parity ^ 1, there))) {
      imported.push_back(slot);
    }
  }
  const Tile empty{};
  for (int32_t slot : into.edge_column(column)) {
    if (from.map().find(into.map().coord(slot)) != sparse::TileMap::kAbsent) continue;
    if (into.import_tile(slot, empty, empty)) imported.push_back(slot);
  }
}

}  // namespace

size_t GridStepper::strip_count(const sparse::SparseGrid& grid, uint64_t generations) const {
  const auto threads = static_cast<size_t>(workers_.threads());
  if (!strips_allowed_ || threads < 2 || generations < kMinStripRun || grid.map().is_torus() ||
      !grid.all_cpu()) {
    return 0;
  }
  const size_t active = grid.active().size();
  const size_t strips = std::min(threads, active / kMinStripTiles);
  if (strips < 2 || generations * active < kWorthCutting * grid.tile_count()) return 0;
  constexpr int64_t kSafe = sparse::kMaxTileCoordinate - kStripEdgeMargin;
  for (int32_t slot : grid.active()) {
    const TileCoord coord = grid.map().coord(slot);
    if (coord.tx <= -kSafe || coord.tx >= kSafe || coord.ty <= -kSafe || coord.ty >= kSafe) {
      return 0;
    }
  }
  return strips;
}

uint64_t GridStepper::step_strips(sparse::SparseGrid& grid, const Rule& rule, uint64_t generations,
                                  size_t strips, uint64_t& last_stepped) {
  const std::vector<int64_t> starts = strip_starts(grid, strips);
  if (starts.empty()) return 0;
  const size_t count = starts.size() + 1;
  const size_t active = std::max<size_t>(grid.active().size(), 1);
  const uint64_t segment =
      std::min(generations, std::max(kMinSegment, kSegmentPerRatio * grid.tile_count() / active));
  while (strip_grids_.size() < count)
    strip_grids_.push_back(std::make_unique<sparse::SparseGrid>());
  const auto strip = [&](size_t k) -> sparse::SparseGrid& {
    return k == 0 ? grid : *strip_grids_[k];
  };
  const auto first_column = [&](size_t k) {
    return k == 0 ? -sparse::SparseGrid::kNoColumnLimit : starts[k - 1];
  };
  const auto last_column = [&](size_t k) {
    return k + 1 == count ? sparse::SparseGrid::kNoColumnLimit - 1 : starts[k] - 1;
  };

  // Cut: the world's tiles move into fresh strips (each takes its columns
  // and the two beyond each end), and the first becomes the world's grid.
  // Moving, not copying, keeps the peak near one world's worth of tiles.
  const uint64_t generation = grid.generation();
  for (size_t k = 0; k < count; ++k) {
    strip_grids_[k]->start_empty_plane(generation, first_column(k), last_column(k));
  }
  grid.drain([&](TileCoord coord, const Tile& current, const Tile& previous, sparse::TileOwner,
                 BandMask bands) {
    for (size_t k = 0; k < count; ++k) {
      if (coord.tx >= first_column(k) - 2 && coord.tx <= last_column(k) + 2) {
        strip_grids_[k]->place_tile(coord, current, previous, bands);
      }
    }
  });
  std::swap(grid, *strip_grids_[0]);
  for (size_t k = 0; k < count; ++k) strip(k).replan();

  std::vector<StripTally> tallies(count);
  std::vector<std::vector<int32_t>> imported(count);
  for (uint64_t done = 0; done < segment;) {
    const uint64_t epoch = std::min(sparse::SparseGrid::kMaxStripEpoch, segment - done);
    const uint64_t since = grid.generation();
    workers_.run_tasks(count,
                       [&](size_t k) { step_strip_alone(strip(k), rule, epoch, tallies[k]); });
    done += epoch;
    // Each side of a cut takes the other's two nearest columns.
    for (auto& slots : imported) slots.clear();
    for (size_t k = 0; k + 1 < count; ++k) {
      const int64_t cut = starts[k];
      exchange_column(strip(k), strip(k + 1), cut, since, imported[k]);
      exchange_column(strip(k), strip(k + 1), cut + 1, since, imported[k]);
      exchange_column(strip(k + 1), strip(k), cut - 1, since, imported[k + 1]);
      exchange_column(strip(k + 1), strip(k), cut - 2, since, imported[k + 1]);
    }
    for (size_t k = 0; k < count; ++k) strip(k).replan_near(imported[k]);
  }

  // Merge: each strip's own tiles move back into one grid.
  sparse::SparseGrid& merged = *strip_grids_[0];
  merged.start_empty_plane(grid.generation());
  for (size_t k = 0; k < count; ++k) {
    strip(k).drain([&](TileCoord coord, const Tile& current, const Tile& previous,
                       sparse::TileOwner owner, BandMask bands) {
      if (owner == sparse::TileOwner::kCpu) merged.place_tile(coord, current, previous, bands);
    });
  }
  std::swap(grid, merged);
  grid.replan();
  last_stepped = 0;
  for (const StripTally& tally : tallies) {
    tiles_stepped_ += tally.tiles;
    cells_computed_ += tally.cells;
    last_stepped += tally.last;
  }
  ++strip_segments_;
  return segment;
}

void GridStepper::step_strip_alone(sparse::SparseGrid& strip, const Rule& rule,
                                   uint64_t generations, StripTally& tally) const {
  for (uint64_t done = 0; done < generations; ++done) {
    if (strip.active().empty()) {
      strip.advance_asleep(generations - done);
      tally.last = 0;
      return;
    }
    const size_t count = strip.active().size();
    tally.cells += cells_to_step(strip);
    step_range(strip, rule, 0, count);
    strip.finish_generation();
    tally.tiles += count;
    tally.last = count;
  }
}

}  // namespace gol
