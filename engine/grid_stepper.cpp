// GridStepper: chunks of active tiles through the SIMD kernel, written over
// their older generation and committed from the kernel's change records.
#include "engine/grid_stepper.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "cpu/simd/tile_step.h"
#include "engine/core/error.h"

namespace gol {
namespace {

// Tiles stepped per kernel call, and a crew's chunk.
constexpr size_t kChunkTiles = cpu::kBatchTiles;
// Fewer active tiles than this step on the calling thread. With a crew of
// spinning workers a pass costs little to hand out, so a few chunks are
// worth sharing; without one (more threads than cores) the workers must be
// woken, which costs about what a generation of fewer tiles takes.
constexpr size_t kMinCrewTiles = 4 * kChunkTiles;
// A call of fewer tile generations than this steps on the calling thread.
// Starting a crew and stopping it again (waking the workers, then waiting
// for them to leave) cost from about 10 to 70 us a call on the 2-core dev
// machine as its host's load moved, so that a log row every generation of
// the spacefiller ran up to twice as long on two threads as on one
// (bench/RESULTS.md).
constexpr uint64_t kMinCrewCallWork = 2048;
constexpr size_t kMinParallelTiles = 512;
// A plane block of at most this many tiles keeps their neighbourhoods
// (about 160 bytes a tile) from one generation and block to the next.
constexpr size_t kKeptBlockTiles = 4096;
// In strips, a fleet of at most this many gliders is reviewed at epochs'
// ends only: a puffer train's few strays flew with reviews three times an
// epoch, each stopping both strips; acorn-field's hundreds, reviewed less
// often, took 2.3 times as long a review (bench/RESULTS.md).
constexpr size_t kFewFlights = 64;

// The line of cells just beyond the plane that a tile beyond its range
// touches, as the error message names it.
std::string edge_beside(TileCoord beyond) {
  if (beyond.tx >= sparse::kMaxTileCoordinate) return "x = 2^62";
  if (beyond.tx < -sparse::kMaxTileCoordinate) return "x = -2^62 - 1";
  if (beyond.ty >= sparse::kMaxTileCoordinate) return "y = 2^62";
  return "y = -2^62 - 1";
}

// The neighbourhoods and targets of active()[first] .. active()[first +
// count - 1], for one kernel call.
void find_chunk(sparse::SparseGrid& grid, size_t first, size_t count, cpu::TileNeighbourhood* in,
                Tile** targets) {
  for (size_t i = 0; i < count; ++i) {
    grid.neighbourhood(grid.active()[first + i], in[i].at);
    targets[i] = grid.commit_target(first + i);
  }
}

}  // namespace

bool GridStepper::flights_wanted() {
  const char* setting = std::getenv("GOL_GLIDER_FLIGHTS");
  return setting == nullptr || std::string_view(setting) != "0";
}

GridStepper::GridStepper(int threads, cpu::SimdLibrary library)
    : workers_(threads, library),
      cache_bytes_(TorusBlocks::core_cache_bytes()),
      shared_cache_bytes_(TorusBlocks::shared_cache_bytes()) {}

uint64_t GridStepper::step(sparse::SparseGrid& grid, const Rule& rule, uint64_t generations,
                           uint64_t lookahead, Landing landing) {
  lookahead = std::max(lookahead, generations);
  if (!flights_allowed_ || workers_.threads() > GliderFlights::kMaxThreads ||
      grid.map().is_torus() || (!segment_ && !grid.all_cpu())) {
    GOL_CHECK(!flying_);
    return step_world(grid, rule, generations, lookahead);
  }
  flights_.set_rule(rule);
  if (!flights_.rule_flies()) return step_world(grid, rule, generations, lookahead);
  // The world is stepped up to each review, which the flights' clearance
  // must not outlast, and every glider lands before the call returns (or
  // before the caller reads the world, with Landing::kLater), so that the
  // reads between calls find the whole world in the tiles.
  if (!flying_) flights_.start(grid.generation());
  flying_ = true;
  uint64_t last_stepped = 0;
  uint64_t done = 0;
  const auto step_to_review = [&] {
    if (settled(grid)) {
      // No review could find anything before the world is changed: the rest
      // passes at once (a still life asked for 10^12 generations reviewed
      // every 4096 of them, a minute's work), and the searches start afresh.
      last_stepped = step_world(grid, rule, generations - done, lookahead - done);
      done = generations;
      flights_.start(grid.generation());
      return;
    }
    const uint64_t chunk = std::min(generations - done, review_due(grid) - grid.generation());
    last_stepped = step_world(grid, rule, chunk, lookahead - done);
    done += chunk;
    if (done < generations) review_flights(grid, false);
  };
  while (done < generations) {
    // A world in strips keeps one crew from review to review: a crew
    // started for each wakes the workers anew, thousands of times in a
    // puffer train's run.
    if (segment_ && workers_.threads() > 1) {
      with_crew(
          [&](cpu::WorkerCrew&) {
            while (done < generations && segment_) step_to_review();
          },
          crew_pays(generations - done, world_active(grid)));
    } else {
      step_to_review();
    }
  }
  if (landing == Landing::kAtEnd) {
    land_flights(grid);
  } else if (review_due(grid) == grid.generation()) {
    review_flights(grid, false);
  }
  return last_stepped;
}

void GridStepper::land_flights(sparse::SparseGrid& grid) {
  if (!flying_) return;
  review_flights(grid, true);
  flying_ = false;
}

bool GridStepper::crew_pays(uint64_t generations, size_t active) const {
  // Generations enough alone pay, and keep the product below from overflowing.
  return crew_ != nullptr || generations >= kMinCrewCallWork ||
         generations * active >= kMinCrewCallWork;
}

void GridStepper::with_crew(const std::function<void(cpu::WorkerCrew&)>& session,
                            bool worth_waking) {
  if (crew_ != nullptr) {
    session(*crew_);
    return;
  }
  const auto hold = [&](cpu::WorkerCrew& crew) {
    crew_ = &crew;
    const struct Leave {
      cpu::WorkerCrew*& crew;
      ~Leave() { crew = nullptr; }
    } leave{crew_};
    session(crew);
  };
  if (worth_waking) {
    workers_.with_crew(hold);
  } else {
    cpu::ParallelTileStepper::alone(hold);
  }
}

bool GridStepper::settled(const sparse::SparseGrid& grid) const {
  return !segment_ && flights_.flying() == 0 && grid.active().empty();
}

bool GridStepper::reviews_at_epoch_ends() const {
  return segment_ && flights_.flying() <= kFewFlights;
}

uint64_t GridStepper::review_due(const sparse::SparseGrid& grid) const {
  const uint64_t due = flights_.next_review();
  if (!reviews_at_epoch_ends()) return due;
  // In strips, at the last epoch's end before the flights' due: a review
  // within an epoch is one more stop of both strips, where each waits for
  // the other (a puffer train's run stopped three times an epoch).
  constexpr uint64_t kEpoch = sparse::SparseGrid::kMaxStripEpoch;
  const uint64_t first_end = segment_->epoch_start + kEpoch;
  if (due < first_end || first_end <= grid.generation()) return due;
  return first_end + (due - first_end) / kEpoch * kEpoch;
}

void GridStepper::review_flights(sparse::SparseGrid& grid, bool land) {
  // Reviewed at epochs' ends, gliders fly only where clear to the next
  // one; many, whose reviews take milliseconds, fly sooner.
  flights_.set_shortest_horizon(reviews_at_epoch_ends() ? sparse::SparseGrid::kMaxStripEpoch + 1
                                                        : GliderFlights::kHorizon);
  std::vector<sparse::SparseGrid*> parts = {&grid};
  for (size_t k = 1; segment_ && k < segment_->count(); ++k) parts.push_back(strip_grids_[k].get());
  bool near_cut = false;
  if (land) {
    near_cut = flights_.land_all(parts);
  } else if (crew_ != nullptr) {
    // A world in strips keeps a crew, whose members share the review's
    // reads. Elsewhere the review runs here: for gosper-gun (a small world,
    // thousands of gliders) on two threads, a crew started for each review
    // cost 11% more time, and one kept from review to review 50%.
    near_cut = flights_.review(
        parts, [this](size_t count, const std::function<void(size_t, size_t)>& body) {
          crew_->parallel_for(count, 1, body);
        });
  } else {
    near_cut = flights_.review(parts);
  }
  // The strips' copies of each other's columns take what changed there
  // now, as at an epoch's end (an epoch may end early).
  if (near_cut && segment_) {
    with_crew([&](cpu::WorkerCrew& crew) { exchange_strips(grid, crew); });
  }
}

uint64_t GridStepper::step_world(sparse::SparseGrid& grid, const Rule& rule, uint64_t generations,
                                 uint64_t lookahead) {
  uint64_t last_stepped = 0;
  // One thread steps a whole world in slot order; a pass shared among
  // threads keeps each region's tiles together (SparseGrid::list_by_slot),
  // but a call too short to share is stepped here alone.
  if (!segment_) {
    grid.list_by_slot(workers_.threads() == 1 || !crew_pays(generations, grid.active().size()));
  }
  // A world left in strips by the last call steps on in them.
  uint64_t done = segment_ ? step_segment(grid, rule, generations, last_stepped) : 0;
  const auto block_depth = [&]() -> uint64_t {
    if (!grid.suits_blocks()) return 0;
    if (block_depth_ != 0) return std::min(block_depth_, generations - done);
    return TorusBlocks::choose_depth(grid.map().tiles_x(), generations - done, cache_bytes_,
                                     shared_cache_bytes_ / static_cast<size_t>(workers_.threads()));
  };
  // Generations while the active tiles are at least `fewest`, on `crew`
  // where the judge finds that faster, until a block would do better.
  const auto run = [&](cpu::WorkerCrew* crew, size_t fewest) {
    while (done < generations && grid.active().size() >= fewest && block_depth() < 2) {
      last_stepped = step_judged(grid, rule, *crew);
      ++done;
    }
  };
  while (done < generations) {
    if (grid.active().empty()) {
      refuse_births_beyond_edge(grid, rule);
      grid.advance_asleep(generations - done);
      return 0;
    }
    // Strips step on a crew: a call too short for one would step them
    // one after the other, their cut columns twice.
    if (const size_t strips = strip_count(grid, lookahead - done);
        strips >= 2 && crew_pays(generations - done, grid.active().size()) &&
        cut_strips(grid, strips)) {
      done += step_segment(grid, rule, generations - done, last_stepped);
      continue;
    }
    if (const uint64_t depth = block_depth(); depth >= 2) {
      last_stepped = step_block(grid, rule, depth);
      done += depth;
      continue;
    }
    // A crew is started only for passes and calls worth sharing, and kept
    // while the passes stay at least half that size: starting one wakes
    // every worker. Plane blocks take one thread.
    const bool share = workers_.threads() > 1 && grid.active().size() >= kMinCrewTiles &&
                       crew_pays(generations - done, grid.active().size());
    if (!share) {
      if (const uint64_t depth = plane_block_depth(grid, generations - done); depth >= 2) {
        const PlaneBlockCount count = step_plane_block(grid, rule, depth, plane_block_scratch_);
        tiles_stepped_ += count.tiles;
        cells_computed_ += count.tiles * kTileSize * kTileSize;
        ++plane_blocks_;
        last_stepped = count.last;
        done += depth;
        continue;
      }
    }
    if (share) {
      with_crew([&](cpu::WorkerCrew& crew) { run(&crew, kMinCrewTiles / 2); });
    } else {
      last_stepped = step_generation(grid, rule, nullptr, true);
      ++done;
    }
  }
  return last_stepped;
}

namespace {

double seconds_between(std::chrono::steady_clock::time_point from,
                       std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

size_t GridStepper::step_judged(sparse::SparseGrid& grid, const Rule& rule, cpu::WorkerCrew& crew) {
  using Clock = std::chrono::steady_clock;
  const bool timing = judge_.timing();
  const Clock::time_point start = timing ? Clock::now() : Clock::time_point{};
  const size_t tiles = step_generation(grid, rule, &crew, !judge_.share());
  judge_.record(timing ? seconds_between(start, Clock::now()) : 0.0, tiles);
  return tiles;
}

size_t GridStepper::step_generation(sparse::SparseGrid& grid, const Rule& rule,
                                    cpu::WorkerCrew* crew, bool alone) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = timed_ ? Clock::now() : Clock::time_point{};
  refuse_births_beyond_edge(grid, rule);
  const size_t count = grid.active().size();
  const auto body = [&](size_t begin, size_t end) { step_range(grid, rule, begin, end); };
  const bool spinning = crew != nullptr && crew->spinning();
  if (alone) {
    step_range(grid, rule, 0, count);
  } else if (spinning && count >= kMinCrewTiles) {
    crew->parallel_for(count, kChunkTiles, body);
  } else if (!spinning && count >= kMinParallelTiles) {
    workers_.parallel_for(count, body);
  } else {
    step_range(grid, rule, 0, count);
  }
  const uint64_t cells = cells_to_step(grid);
  const Clock::time_point stepped = timed_ ? Clock::now() : Clock::time_point{};
  grid.finish_generation();
  if (timed_) {
    const Clock::time_point finished = Clock::now();
    stepping_seconds_ += seconds_between(start, stepped);
    finishing_seconds_ += seconds_between(stepped, finished);
  }
  tiles_stepped_ += count;
  cells_computed_ += cells;
  return count;
}

uint64_t GridStepper::cells_to_step(const sparse::SparseGrid& grid) {
  // Eight masks a word: one population count counts all their bands (mask
  // by mask this took 2% of acorn-field's two-thread time).
  const std::span<const BandMask> masks = grid.active_bands();
  static_assert(sizeof(BandMask) == 1);
  uint64_t bands = 0;
  size_t i = 0;
  for (; i + sizeof(uint64_t) <= masks.size(); i += sizeof(uint64_t)) {
    uint64_t word;
    std::memcpy(&word, masks.data() + i, sizeof word);
    bands += static_cast<uint64_t>(bit_count(word));
  }
  for (; i < masks.size(); ++i) bands += static_cast<uint64_t>(band_count(masks[i]));
  return bands * kBandRows * kTileSize;
}

size_t GridStepper::step_block(sparse::SparseGrid& grid, const Rule& rule, uint64_t depth) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = timed_ ? Clock::now() : Clock::time_point{};
  blocks_.step(grid, rule, depth, workers_);
  if (timed_) stepping_seconds_ += seconds_between(start, Clock::now());
  const size_t tiles = grid.torus_slots().size();
  tiles_stepped_ += tiles * depth;
  cells_computed_ += tiles * depth * kTileSize * kTileSize;
  return tiles;
}

uint64_t GridStepper::plane_block_depth(const sparse::SparseGrid& grid, uint64_t remaining) const {
  if (block_depth_ == 1 || remaining < 2) return 0;
  // A generation at a time costs each active tile's planned step and the
  // generation's own end; a block must save an eighth of that, since it
  // steps what it lists whole, and a tile leaves it only two steps after it
  // settles, where a generation at a time would let it sleep after one.
  uint64_t planned = kGenerationWork;
  for (BandMask bands : grid.active_bands()) planned += kTileWork + band_count(bands);
  const size_t tiles = grid.plane_block_size();
  if (tiles == 0 || tiles * kBlockTileWork * 8 > planned * 7) return 0;
  // Tiles woken only by a neighbour's change mostly sleep after a step,
  // but a block steps them at least twice, whole: a strip's epoch began
  // with hundreds woken beside its imports.
  if (grid.changed_last_generation() * 8 < tiles * 7) return 0;
  return std::min({block_depth_ != 0 ? block_depth_ : sparse::SparseGrid::kMaxPlaneBlock,
                   sparse::SparseGrid::kMaxPlaneBlock, remaining});
}

GridStepper::PlaneBlockCount GridStepper::step_plane_block(sparse::SparseGrid& grid,
                                                           const Rule& rule, uint64_t depth,
                                                           PlaneBlockScratch& scratch) const {
  grid.begin_plane_block(depth);
  // A small block finds each tile's neighbourhood and target once: a tile
  // made in the block is listed at the end, and only its neighbours'
  // neighbourhoods change. A large one finds them as it steps, its tiles
  // read from the shared cache anyway, so that the arrays add nothing to a
  // large world's peak.
  const bool kept = grid.active().size() <= kKeptBlockTiles;
  auto& in = scratch.in;
  auto& targets = scratch.targets;
  const auto find_neighbourhood = [&](size_t i) {
    const int32_t slot = grid.active()[i];
    for (int parity = 0; parity < 2; ++parity) {
      grid.map().neighbourhood(parity, slot, in[parity][i].at);
      targets[parity][i] = &grid.buffer(parity ^ 1, slot);
    }
  };
  // Those of the tiles listed around `slot`, whose neighbour there was
  // made, listed or moved to another pair.
  const auto find_around = [&](int32_t slot) {
    for (int32_t other : grid.map().neighbours(slot)) {
      if (const int32_t at = grid.block_index(other); at >= 0) {
        find_neighbourhood(static_cast<size_t>(at));
      }
    }
  };
  const auto keep_neighbourhoods = [&](size_t known, size_t listed) {
    for (auto* entries : {&in[0], &in[1]}) entries->resize(listed);
    for (auto* entries : {&targets[0], &targets[1]}) entries->resize(listed);
    for (size_t i = known; i < listed; ++i) find_neighbourhood(i);
    for (size_t i = known; known != 0 && i < listed; ++i) find_around(grid.active()[i]);
  };
  std::array<cpu::TileNeighbourhood, kChunkTiles> chunk_in;
  std::array<Tile*, kChunkTiles> chunk_targets;
  std::array<TileEdges, kChunkTiles> edges;
  // Tiles that settled leave the list (after every listed tile's
  // neighbourhood is known), and those that now share a pair move in
  // memory.
  const auto settle = [&] {
    const auto moves = grid.settle_block();
    if (!kept) return;
    for (const auto& [from, to] : moves) {
      for (size_t parity = 0; parity < 2; ++parity) {
        in[parity][to] = in[parity][from];
        targets[parity][to] = targets[parity][from];
      }
    }
    for (const int32_t settled : grid.block_moved_pairs()) find_around(settled);
  };
  PlaneBlockCount count;
  size_t known = 0;
  for (uint64_t generation = 1; generation < depth; ++generation) {
    refuse_births_beyond_edge(grid, rule);
    // Tiles made in this generation are listed after these, and step from
    // the next.
    if (kept && grid.active().size() != known) keep_neighbourhoods(known, grid.active().size());
    settle();
    const size_t listed = grid.active().size();
    known = listed;
    const auto parity = static_cast<size_t>(grid.generation() & 1);
    for (size_t first = 0; first < listed; first += kChunkTiles) {
      const size_t chunk = std::min(kChunkTiles, listed - first);
      const cpu::TileNeighbourhood* chunk_from = chunk_in.data();
      Tile* const* chunk_into = chunk_targets.data();
      if (kept) {
        chunk_from = in[parity].data() + first;
        chunk_into = targets[parity].data() + first;
      } else {
        find_chunk(grid, first, chunk, chunk_in.data(), chunk_targets.data());
      }
      cpu::step_tiles_noting_edges(chunk_from, chunk_into, edges.data(), chunk, rule,
                                   workers_.library());
      grid.note_block_edges(first, std::span<const TileEdges>(edges.data(), chunk),
                            generation + 1 == depth);
    }
    count.tiles += listed;
    grid.finish_block_generation();
  }
  // The last generation is committed as a generation at a time is, so that
  // sleep and wake resume from it.
  refuse_births_beyond_edge(grid, rule);
  count.last = grid.active().size();
  count.last_cpu = grid.cpu_active_count();
  step_range(grid, rule, 0, count.last);
  grid.finish_generation();
  count.tiles += count.last;
  return count;
}

void GridStepper::refuse_births_beyond_edge(sparse::SparseGrid& grid, const Rule& rule) const {
  // Only tiles a live border cell faced can gain cells, and each is one
  // kernel call on the tiles around it: nothing in a run that stays inside.
  for (TileCoord beyond : grid.beyond_edge()) {
    cpu::TileNeighbourhood in;
    grid.neighbourhood_at(beyond, in.at);
    Tile next;
    cpu::step_tiles(&in, &next, 1, rule, workers_.library());
    if (!next.empty()) {
      throw RuntimeError("the pattern grows past the edge of the plane, into " +
                         edge_beside(beyond) + ", at generation " +
                         std::to_string(grid.generation() + 1) +
                         " of the run; gol runs patterns only within [-2^62, 2^62) on each axis");
    }
  }
  grid.clear_beyond_edge();
}

void GridStepper::step_range(sparse::SparseGrid& grid, const Rule& rule, size_t begin,
                             size_t end) const {
  std::array<cpu::TileNeighbourhood, kChunkTiles> in;
  std::array<Tile*, kChunkTiles> targets;
  std::array<TileChange, kChunkTiles> changes;
  for (size_t first = begin; first < end; first += kChunkTiles) {
    const size_t count = std::min(kChunkTiles, end - first);
    find_chunk(grid, first, count, in.data(), targets.data());
    // The kernel writes each next generation over the tile's generation
    // t-1 and notes the differences, so committing reads no tile again.
    cpu::step_tiles_over(in.data(), targets.data(), changes.data(), count, rule, workers_.library(),
                         grid.active_bands().data() + first);
    grid.commit_written(first, std::span<const TileChange>(changes.data(), count));
  }
}

}  // namespace gol
