// GridStepper's strips: a plane world cut along tile columns, each strip a
// grid of its own stepped alone by one thread for an epoch, the columns
// beside the cuts exchanged between epochs (see SparseGrid::kMaxStripEpoch).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/grid_stepper.h"
#include "engine/strip_exchange.h"

namespace gol {
namespace {

// A strip steps at least this many active tiles: below that an epoch's
// exchange and the threads' start cost more than a share of the work saves.
constexpr size_t kMinStripTiles = 24;
// The columns beside each end of a strip that the next strip holds too.
constexpr int64_t kEdge = sparse::SparseGrid::kStripEdgeColumns;
// Tiles this close to the plane's edge keep a world whole: a strip does not
// refuse a birth beyond the edge as GridStepper::step does.
constexpr int64_t kStripEdgeMargin = int64_t{1} << 40;
// Cutting and merging move every tile (about a microsecond each here),
// where a generation in strips saves a share of the active tiles' steps
// (a few tens of nanoseconds each): a cut pays only over more than about
// 70 generations for each tile held per tile active. So a world is cut
// only for kMinStripRun generations or more, and at least kWorthCutting
// for each tile per active one (the call's generations, though a segment
// may outlast its call). Cut in two, a segment (cut, epochs, merge) lasts
// until the world grows active enough for more strips than it was cut
// into, or falls asleep, or its caller needs it whole, the cut moving with
// the work.
// Cut in more, the moves and the exchanges, all on one thread, cost more
// than they save (16 strips of a spacefiller on a 16-core host: 1814 moves
// took 0.80 s and the exchanges 0.33 s of a 1.56 s run, against 0.32 s of
// stepping; on 4 strips gosper-gun and the spacefiller lost 10-25%), so
// the cuts stay where they are for a segment of kMinSegment generations,
// or kSegmentPerRatio for each tile per active one where that is more,
// and the world is then cut anew.
constexpr uint64_t kMinStripRun = 256;
constexpr uint64_t kWorthCutting = 128;
constexpr size_t kMaxMovingStrips = 2;
constexpr uint64_t kMinSegment = 2048;
constexpr uint64_t kSegmentPerRatio = 2048;
// A cut moves only where the strips beside it took times (their last
// epoch's work at their paces) differing by more than this share, or by
// its lead (below).
constexpr double kImbalance = 0.05;
// A cut's lead: where the strips differ by more than kLeadImbalance, epoch
// after epoch, the way the cut last moved, it takes on kLeadGain of the
// difference each epoch, up to kMaxLead of the planned work.
constexpr double kLeadImbalance = 0.01;
constexpr double kLeadGain = 0.25;
constexpr double kMaxLead = 0.25;
// Paces: how much each epoch's counts keep of the last; a pace within this
// factor of its neighbour's is taken to be the same (the cuts then follow
// the work alone, the same way each run), and one is trusted to be at most
// kPaceRange times slower or faster (an epoch of a small world lasts a
// hundred microseconds, which one interruption of its thread can double).
constexpr double kPaceMemory = 0.875;
constexpr double kPaceDeadZone = 1.3;
constexpr double kPaceRange = 4;
// A cut moves only where the work it hands over, over kMoveHorizon
// generations, pays for moving the tiles of the columns it hands over,
// each costing about kTileMoveWork units of work (moving a tile takes
// about 2 us here, a unit of work about 8 ns). A move must pay within
// about 16 epochs: imbalances measured over an epoch often reverse within
// that, and a spacefiller's columns hold hundreds of sleeping tiles to a
// few active ones.
constexpr double kMoveHorizon = 1024;
constexpr size_t kTileMoveWork = 256;

// Whether an active tile of `grid` is within kStripEdgeMargin tiles of
// the plane's edge.
bool nears_plane_edge(const sparse::SparseGrid& grid) {
  constexpr int64_t kSafe = sparse::kMaxTileCoordinate - kStripEdgeMargin;
  for (int32_t slot : grid.active()) {
    const TileCoord coord = grid.map().coord(slot);
    if (coord.tx <= -kSafe || coord.tx >= kSafe || coord.ty <= -kSafe || coord.ty >= kSafe) {
      return true;
    }
  }
  return false;
}

// The first column of each strip but the first: the active tiles' columns
// cut into `strips` near-equal shares, fewer where one column holds more
// than a share.
std::vector<int64_t> strip_starts(const sparse::SparseGrid& grid, size_t strips) {
  std::vector<int64_t> columns;
  columns.reserve(grid.active().size());
  for (int32_t slot : grid.active()) columns.push_back(grid.map().coord(slot).tx);
  std::sort(columns.begin(), columns.end());
  // Every strip between two cuts owns kStripEdgeColumns columns or more,
  // so that the columns a neighbour ghosts and freezes of it are its own.
  std::vector<int64_t> starts;
  for (size_t k = 1; k < strips; ++k) {
    const int64_t column = columns[k * columns.size() / strips];
    if (starts.empty() ? column > columns.front() : column >= starts.back() + kEdge) {
      starts.push_back(column);
    }
  }
  return starts;
}

// Makes `into`'s tiles in columns [first, last] what `from` holds there,
// `from` holding them all as its own, ghosts or frozen copies that the
// last exchange made exact; notes in `touched` the slots to plan near. A
// tile `into` lacks moves in as `from` holds it, asleep or stepping the
// bands `from` planned, since its neighbours come with it or are equal on
// both sides.
void copy_columns(sparse::SparseGrid& into, const sparse::SparseGrid& from, int64_t first,
                  int64_t last, std::vector<int32_t>& touched) {
  std::unordered_map<int32_t, BandMask> planned;
  for (size_t i = 0; i < from.active().size(); ++i) {
    const int64_t tx = from.map().coord(from.active()[i]).tx;
    if (tx >= first && tx <= last) planned.emplace(from.active()[i], from.active_bands()[i]);
  }
  const int parity = static_cast<int>(into.generation() & 1);
  for (int32_t there : from.column_tiles(first, last)) {
    const TileCoord coord = from.map().coord(there);
    const Tile& current = from.map().tile(parity, there);
    const Tile& previous = from.map().tile(parity ^ 1, there);
    const int32_t slot = into.map().find(coord);
    if (slot != sparse::TileMap::kAbsent) {
      if (into.import_tile(slot, current, previous)) touched.push_back(slot);
      continue;
    }
    const auto bands = planned.find(there);
    const int32_t placed =
        into.place_tile(coord, current, previous, bands == planned.end() ? 0 : bands->second);
    if (placed != sparse::TileMap::kAbsent) touched.push_back(placed);
  }
  const Tile empty{};
  for (int32_t slot : into.column_tiles(first, last)) {
    if (from.map().find(into.map().coord(slot)) == sparse::TileMap::kAbsent &&
        into.import_tile(slot, empty, empty)) {
      touched.push_back(slot);
    }
  }
}

// What stepping an active tile of a strip costs (the balance's units).
uint64_t tile_work(const sparse::SparseGrid& grid, size_t i) {
  return GridStepper::kTileWork + static_cast<uint64_t>(band_count(grid.active_bands()[i]));
}

// Whether active tile i is the strip's own (not a copy of a neighbour's).
bool strip_owns(const sparse::SparseGrid& grid, size_t i) {
  return grid.owner(grid.active()[i]) == sparse::TileOwner::kCpu;
}

// What a strip's active tiles cost to step, in all.
uint64_t planned_work(const sparse::SparseGrid& grid) {
  uint64_t work = 0;
  for (size_t i = 0; i < grid.active().size(); ++i) {
    if (strip_owns(grid, i)) work += tile_work(grid, i);
  }
  return work;
}

// The same by column, in column order (columns without an active tile
// left out). Summed in an array over the active columns' span where that
// is not much longer than the list (a balance every epoch made a tree of
// the columns, 30 us a spacefiller's epoch), else sorted.
using ColumnWork = std::vector<std::pair<int64_t, uint64_t>>;
ColumnWork column_work(const sparse::SparseGrid& grid) {
  ColumnWork work;
  int64_t low = std::numeric_limits<int64_t>::max();
  int64_t high = std::numeric_limits<int64_t>::min();
  for (size_t i = 0; i < grid.active().size(); ++i) {
    if (!strip_owns(grid, i)) continue;
    const int64_t tx = grid.map().coord(grid.active()[i]).tx;
    low = std::min(low, tx);
    high = std::max(high, tx);
  }
  if (low > high) return work;
  const uint64_t span = static_cast<uint64_t>(high - low) + 1;
  if (span <= 4 * grid.active().size() + 64) {
    std::vector<uint64_t> by_column(span, 0);
    for (size_t i = 0; i < grid.active().size(); ++i) {
      if (!strip_owns(grid, i)) continue;
      by_column[static_cast<size_t>(grid.map().coord(grid.active()[i]).tx - low)] +=
          tile_work(grid, i);
    }
    for (size_t k = 0; k < span; ++k) {
      if (by_column[k] != 0) work.emplace_back(low + static_cast<int64_t>(k), by_column[k]);
    }
    return work;
  }
  for (size_t i = 0; i < grid.active().size(); ++i) {
    if (strip_owns(grid, i)) {
      work.emplace_back(grid.map().coord(grid.active()[i]).tx, tile_work(grid, i));
    }
  }
  std::sort(work.begin(), work.end());
  size_t kept = 0;
  for (const auto& [column, amount] : work) {
    if (kept > 0 && work[kept - 1].first == column) {
      work[kept - 1].second += amount;
    } else {
      work[kept++] = {column, amount};
    }
  }
  work.resize(kept);
  return work;
}

// The west strip's pace (seconds per unit of work) relative to the
// east's, 1 where they are near or not known.
double relative_pace(double west_seconds, double west_work, double east_seconds, double east_work) {
  if (!(west_seconds > 0 && west_work > 0 && east_seconds > 0 && east_work > 0)) return 1;
  const double pace = (west_seconds / west_work) / (east_seconds / east_work);
  if (pace < kPaceDeadZone && pace > 1 / kPaceDeadZone) return 1;
  return std::clamp(pace, 1 / kPaceRange, kPaceRange);
}

// Between epochs, a cut may move so that the strips either side take
// about equal time. `west_time` and `east_time`: the work each did in its
// last epoch at its pace, `west_pace` the west's relative to the east's.
// Returns the column to move the cut to (`cut` to leave it), handing
// whole columns of the slower strip's active tiles to the other, sized
// by what they plan to step next; each strip keeps kEdge columns or more.
// `lead` and `last_move`, the cut's own from epoch to epoch (see
// StripSegment), are updated.
int64_t balanced_cut(const sparse::SparseGrid& west, const sparse::SparseGrid& east, int64_t cut,
                     double west_time, double east_time, double west_pace, double& lead,
                     int& last_move) {
  if (!(west_time + east_time > 0)) return cut;
  // The work to hand over, in what the strips plan to step next: as much
  // as evens out their times at their paces (positive: west to east), and
  // the lead. Handing over only the imbalance, a cut chasing a drifting
  // world settles where the imbalance moves it as fast as the world
  // drifts: a puffer train's strips held 0.74:1 of the work, and
  // gosper-gun's 2.8% more east of the cut, where its stream grows, under
  // kImbalance, for 754 of 764 epochs. The lead adds up what the cut was
  // short while the imbalance stays, the way the cut last moved: never
  // against it, where a still world's cut (a spacefiller's) would swing
  // back and forth across its balance.
  const double imbalance = (west_time - east_time) / (west_time + east_time);
  const bool biased = std::abs(imbalance) > kLeadImbalance && imbalance * last_move >= 0;
  if (!biased || imbalance * lead < 0) lead = 0;
  if (!biased && std::abs(imbalance) <= kImbalance) return cut;
  const double planned = (west_pace * static_cast<double>(planned_work(west)) +
                          static_cast<double>(planned_work(east))) /
                         (west_pace + 1);
  if (biased) {
    lead =
        std::clamp(lead + kLeadGain * imbalance * planned, -planned * kMaxLead, planned * kMaxLead);
  }
  const double wanted = (std::abs(imbalance) > kImbalance ? imbalance * planned : 0.0) + lead;
  const double to_move = std::abs(wanted);
  // A column is taken while its work is under twice what is left to move.
  if (2 * to_move <= static_cast<double>(GridStepper::kTileWork)) return cut;
  double moved = 0;
  size_t tiles = 0;  // held in the columns handed over
  int64_t to = cut;
  // Whether the columns from the cut up to `column` (whose active tiles
  // plan `work`) go: while they bring the two nearer, and while what they
  // save over kMoveHorizon generations pays for moving their tiles.
  const auto take = [&](const sparse::SparseGrid& giver, int64_t column, uint64_t work) {
    if (static_cast<double>(work) >= 2 * (to_move - moved)) return false;
    const size_t more = giver.column_tile_count(std::min(column, to), std::max(column, to - 1));
    if ((moved + static_cast<double>(work)) * kMoveHorizon <
        static_cast<double>(kTileMoveWork * (tiles + more))) {
      return false;
    }
    moved += static_cast<double>(work);
    tiles += more;
    return true;
  };
  const auto from_cut = [&](const ColumnWork& columns) {
    return std::lower_bound(columns.begin(), columns.end(), std::pair<int64_t, uint64_t>{cut, 0});
  };
  if (wanted > 0) {
    // The cut moves west: the east strip takes the west's columns nearest
    // it; the west keeps kEdge or more.
    const ColumnWork columns = column_work(west);
    for (auto it = from_cut(columns); it != columns.begin();) {
      --it;
      if (it->first < west.strip_first() + kEdge || !take(west, it->first, it->second)) break;
      to = it->first;
    }
  } else {
    const ColumnWork columns = column_work(east);
    for (auto it = from_cut(columns); it != columns.end(); ++it) {
      if (it->first + kEdge > east.strip_last() || !take(east, it->first, it->second)) break;
      to = it->first + 1;
    }
  }
  if (to != cut) last_move = wanted > 0 ? 1 : -1;
  return to;
}

// Which strips grow their tables now, between epochs. A strip's tables
// (its coordinate index, its records by slot) double as it grows: in a
// spacefiller's strip of 16 thousand tiles that took 4 ms of one epoch,
// which the other strip spent waiting at its end, and then the other's
// turn came in the next epoch (strips growing alike, as a symmetric world's
// do). So once one strip nears its next doubling, every strip past half
// way to its own doubles at once, each on its own thread.
std::vector<char> strips_to_grow(const std::vector<const sparse::SparseGrid*>& strips) {
  bool near = false;
  for (const sparse::SparseGrid* strip : strips) {
    near = near || strip->tile_count() * 8 >= strip->tile_room() * 7;
  }
  std::vector<char> grow(strips.size(), 0);
  for (size_t k = 0; k < strips.size(); ++k) {
    grow[k] = near && strips[k]->tile_count() * 2 >= strips[k]->tile_room();
  }
  return grow;
}

// Moves the cut between two strips fresh from an exchange to `to`.
void move_cut(sparse::SparseGrid& west, sparse::SparseGrid& east, int64_t cut, int64_t to) {
  const int64_t west_first = west.strip_first();
  const int64_t east_last = east.strip_last();
  std::vector<int32_t> west_touched;
  std::vector<int32_t> east_touched;
  if (to > cut) {
    // The west strip gains columns [cut, to - 1], and ghosts and freezes
    // the kEdge after, all the east's own.
    west_touched = west.set_strip_columns(west_first, to - 1);
    copy_columns(west, east, cut, to + kEdge - 1, west_touched);
    east_touched = east.set_strip_columns(to, east_last);
  } else {
    east_touched = east.set_strip_columns(to, east_last);
    copy_columns(east, west, to - kEdge, cut - 1, east_touched);
    west_touched = west.set_strip_columns(west_first, to - 1);
  }
  west.replan_near(west_touched);
  east.replan_near(east_touched);
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
  return nears_plane_edge(grid) ? 0 : strips;
}

bool GridStepper::cut_strips(sparse::SparseGrid& grid, size_t strips) {
  std::vector<int64_t> starts = strip_starts(grid, strips);
  if (starts.empty()) return false;
  auto segment = std::make_unique<StripSegment>();
  segment->starts = std::move(starts);
  const size_t count = segment->count();
  segment->moving = count <= kMaxMovingStrips;
  segment->active_at_cut = grid.active().size();
  if (!segment->moving) {
    segment->end =
        grid.generation() + std::max(kMinSegment, kSegmentPerRatio * grid.tile_count() /
                                                      std::max<size_t>(segment->active_at_cut, 1));
  }
  segment->tallies.resize(count);
  segment->scratch.resize(count);
  segment->imports.resize(count);
  segment->epoch_start = grid.generation();
  segment->epoch_work.assign(count, 0);
  segment->seconds.assign(count, 0.0);
  segment->paced_work.assign(count, 0.0);
  segment->leads.assign(count - 1, 0.0);
  segment->last_moves.assign(count - 1, 0);
  while (strip_grids_.size() < count)
    strip_grids_.push_back(std::make_unique<sparse::SparseGrid>());
  const std::vector<int64_t>& cuts = segment->starts;
  const auto first_column = [&](size_t k) {
    return k == 0 ? -sparse::SparseGrid::kNoColumnLimit : cuts[k - 1];
  };
  const auto last_column = [&](size_t k) {
    return k + 1 == count ? sparse::SparseGrid::kNoColumnLimit - 1 : cuts[k] - 1;
  };

  // The world's tiles move into fresh strips (each takes its columns and
  // the two beyond each end), and the first becomes the world's grid.
  // Moving, not copying, keeps the peak near one world's worth of tiles.
  const uint64_t generation = grid.generation();
  for (size_t k = 0; k < count; ++k) {
    strip_grids_[k]->start_empty_plane(generation, first_column(k), last_column(k));
  }
  grid.drain([&](TileCoord coord, const Tile& current, const Tile& previous, sparse::TileOwner,
                 BandMask bands) {
    for (size_t k = 0; k < count; ++k) {
      if (coord.tx >= first_column(k) - kEdge && coord.tx <= last_column(k) + kEdge) {
        strip_grids_[k]->place_tile(coord, current, previous, bands);
      }
    }
  });
  std::swap(grid, *strip_grids_[0]);
  // A strip is stepped by one thread (SparseGrid::list_by_slot).
  for (size_t k = 0; k < count; ++k) {
    strip(grid, k).list_by_slot(true);
    strip(grid, k).replan();
  }
  segment_ = std::move(segment);
  ++strip_segments_;
  return true;
}

bool GridStepper::segment_ends(const sparse::SparseGrid& grid) const {
  const StripSegment& segment = *segment_;
  const size_t count = segment.count();
  if (!segment.moving && grid.generation() >= segment.end) return true;
  const size_t active = world_active(grid);
  // Asleep, it jumps ahead whole. Grown active enough for another strip,
  // it is cut again, once its active tiles have doubled (so that a world
  // whose columns allow no more strips is not cut again and again).
  if (active == 0) return true;
  return segment.moving && count < static_cast<size_t>(workers_.threads()) &&
         active >= kMinStripTiles * (count + 1) && active >= 2 * segment.active_at_cut;
}

void GridStepper::exchange_strips(sparse::SparseGrid& grid, cpu::WorkerCrew& crew) {
  StripSegment& segment = *segment_;
  const size_t count = segment.count();
  const std::vector<int64_t>& starts = segment.starts;
  // Each side of a cut takes the other's kEdge nearest columns.
  crew.run_tasks(count, [&](size_t k) {
    StripImports& imports = segment.imports[k];
    imports.clear();
    for (int64_t edge = 0; edge < kEdge; ++edge) {
      if (k > 0) {
        gather_column(strip(grid, k), strip(grid, k - 1), starts[k - 1] - 1 - edge,
                      segment.epoch_start, imports);
      }
      if (k + 1 < count) {
        gather_column(strip(grid, k), strip(grid, k + 1), starts[k] + edge, segment.epoch_start,
                      imports);
      }
    }
  });
  const std::vector<char> grow = strips_to_grow(world_parts(grid));
  crew.run_tasks(count, [&](size_t k) {
    sparse::SparseGrid& part = strip(grid, k);
    if (grow[k]) part.reserve_tiles(2 * part.tile_room());
    part.clear_freed_near_ends();
    apply_imports(part, segment.imports[k]);
    part.replan_near(segment.imports[k].imported);
  });
  segment.epoch_start = grid.generation();
}

void GridStepper::balance_strips(sparse::SparseGrid& grid) {
  StripSegment& segment = *segment_;
  std::vector<int64_t>& starts = segment.starts;
  for (size_t k = 0; k + 1 < segment.count(); ++k) {
    const double pace = relative_pace(segment.seconds[k], segment.paced_work[k],
                                      segment.seconds[k + 1], segment.paced_work[k + 1]);
    const int64_t to = balanced_cut(strip(grid, k), strip(grid, k + 1), starts[k],
                                    pace * static_cast<double>(segment.epoch_work[k]),
                                    static_cast<double>(segment.epoch_work[k + 1]), pace,
                                    segment.leads[k], segment.last_moves[k]);
    if (to == starts[k]) continue;
    move_cut(strip(grid, k), strip(grid, k + 1), starts[k], to);
    starts[k] = to;
    ++cut_moves_;
  }
}

uint64_t GridStepper::step_segment(sparse::SparseGrid& grid, const Rule& rule, uint64_t generations,
                                   uint64_t& last_stepped) {
  StripSegment& segment = *segment_;
  const size_t count = segment.count();
  // Checked once a call, as strip_count() checks a world before its cut:
  // within a call no world drifts from there to the edge.
  for (const sparse::SparseGrid* part : world_parts(grid)) {
    if (nears_plane_edge(*part)) {
      merge_strips(grid);
      last_stepped = grid.active().size();
      return 0;
    }
  }
  uint64_t done = 0;
  bool ends = false;
  // A strip runs on the same core epoch after epoch: on a crew, whose
  // members spin between its passes, so that the exchanges between epochs
  // (each strip taking its neighbours' columns, on its own thread) and the
  // next epoch start without waking a thread. An epoch may span calls: a
  // strip's own tiles are exact at every generation of it, so a call ends
  // where it likes, and a short one exchanges nothing.
  with_crew(
      [&](cpu::WorkerCrew& crew) {
        while (done < generations && !ends) {
          const uint64_t epoch_end =
              std::min(segment.epoch_start + sparse::SparseGrid::kMaxStripEpoch,
                       segment.moving ? ~uint64_t{0} : segment.end);
          const uint64_t steps = std::min(epoch_end - grid.generation(), generations - done);
          crew.run_tasks(count, [&](size_t k) {
            StripTally& tally = segment.tallies[k];
            const uint64_t work_before = tally.work;
            const auto start = std::chrono::steady_clock::now();
            step_strip_alone(strip(grid, k), rule, steps, tally, segment.scratch[k]);
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const uint64_t work = tally.work - work_before;
            segment.epoch_work[k] += work;
            segment.seconds[k] = segment.seconds[k] * kPaceMemory + elapsed;
            segment.paced_work[k] = segment.paced_work[k] * kPaceMemory + static_cast<double>(work);
          });
          done += steps;
          if (grid.generation() < epoch_end) break;
          exchange_strips(grid, crew);
          ends = segment_ends(grid);
          if (!ends && segment.moving) balance_strips(grid);
          std::fill(segment.epoch_work.begin(), segment.epoch_work.end(), 0);
        }
      },
      crew_pays(generations, world_active(grid)));
  last_stepped = 0;
  for (StripTally& tally : segment.tallies) {
    tiles_stepped_ += tally.tiles;
    cells_computed_ += tally.cells;
    plane_blocks_ += tally.blocks;
    last_stepped += tally.last;
    tally = StripTally{};
  }
  if (ends) merge_strips(grid);
  return done;
}

void GridStepper::merge_strips(sparse::SparseGrid& grid) {
  if (!segment_) return;
  // Merging within an epoch needs no exchange first: the ghost columns'
  // near sides are exact through an epoch, so each strip's own tiles, and
  // their sleep and wake records, are what the whole world's would be at
  // every generation of it (the ghosts' stale far sides go with them).
  // The first strip, the world's grid, keeps its own tiles and adopts the
  // others' slabs, their tiles where they lie in memory. (The cut cannot
  // keep the world in place that way: a strip's tiles share slabs with the
  // others'.)
  const size_t count = segment_->count();
  grid.end_strip();
  for (size_t k = 1; k < count; ++k) {
    strip(grid, k).end_strip();
    grid.adopt(strip(grid, k));
  }
  grid.list_by_slot(workers_.threads() == 1);
  grid.replan();
  segment_.reset();
}

std::vector<const sparse::SparseGrid*> GridStepper::world_parts(
    const sparse::SparseGrid& grid) const {
  std::vector<const sparse::SparseGrid*> parts = {&grid};
  for (size_t k = 1; segment_ && k < segment_->count(); ++k) parts.push_back(strip_grids_[k].get());
  return parts;
}

size_t GridStepper::world_active(const sparse::SparseGrid& grid) const {
  size_t active = 0;
  for (const sparse::SparseGrid* part : world_parts(grid)) active += part->active().size();
  return active;
}

void GridStepper::step_strip_alone(sparse::SparseGrid& strip, const Rule& rule,
                                   uint64_t generations, StripTally& tally,
                                   PlaneBlockScratch& scratch) const {
  for (uint64_t done = 0; done < generations;) {
    if (strip.active().empty()) {
      strip.advance_asleep(generations - done);
      tally.last = 0;
      return;
    }
    if (const uint64_t depth = plane_block_depth(strip, generations - done); depth >= 2) {
      const PlaneBlockCount count = step_plane_block(strip, rule, depth, scratch);
      tally.tiles += count.tiles;
      tally.cells += count.tiles * kTileSize * kTileSize;
      tally.work += count.tiles * kBlockTileWork;
      tally.last = count.last_cpu;
      ++tally.blocks;
      done += depth;
      continue;
    }
    const size_t count = strip.active().size();
    const uint64_t cells = cells_to_step(strip);
    tally.cells += cells;
    tally.work += count * kTileWork + cells / (kBandRows * kTileSize);
    // Only the last generation's is reported (as the tiles a world not in
    // strips would have stepped): counted then only.
    if (done + 1 == generations) tally.last = strip.cpu_active_count();
    step_range(strip, rule, 0, count);
    strip.finish_generation();
    tally.tiles += count;
    ++done;
  }
}

}  // namespace gol
