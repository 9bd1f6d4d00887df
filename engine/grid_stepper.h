// Steps the active tiles of a sparse::SparseGrid with the SIMD kernel on the
// oneTBB workers: the CPU half of every sparse scheduler ("simd" steps all
// its tiles with it; "hybrid" steps its CPU-owned tiles and ghost ring).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/simd/parallel_step.h"
#include "engine/core/rule.h"
#include "engine/crew_judge.h"
#include "engine/glider_flights.h"
#include "engine/strip_exchange.h"
#include "engine/torus_blocks.h"
#include "sparse/sparse_grid.h"

namespace gol {

// The generations left in a run (Backend::expect_run_length), less each
// call's as it is stepped: the two backends' lookahead for GridStepper.
class RunLength {
 public:
  void expect(uint64_t generations) { left_ = generations; }
  // Takes a call of `generations` off the run; returns the run's
  // generations beyond it.
  uint64_t beyond(uint64_t generations) {
    left_ = left_ > generations ? left_ - generations : 0;
    return left_;
  }

 private:
  uint64_t left_ = 0;
};

class GridStepper {
 public:
  // threads == 0: one worker per hardware thread.
  GridStepper(int threads, cpu::SimdLibrary library);

  // Advances `grid` by `generations`, one generation at a time or, on a
  // busy torus, a block at a time (TorusBlocks), jumping ahead once
  // nothing is active (the rest of the world repeats with period
  // 1 or 2). Returns the tiles stepped in the last generation it stepped.
  // Throws RuntimeError, stepping nothing more, when a generation would
  // bear a cell beyond the plane's range (+-2^62), which the grid cannot
  // hold: a clipped pattern would be a wrong answer.
  // `lookahead`: the generations the caller expects to step in all, this
  // call's and the next, for whether cutting strips pays (at least
  // `generations`). Gliders flying (allow_flights) land before it returns,
  // unless `landing` is kLater: they then fly on into the next call, and
  // the caller calls land_flights() before it reads or changes the world
  // or hands step() another.
  enum class Landing { kAtEnd, kLater };
  uint64_t step(sparse::SparseGrid& grid, const Rule& rule, uint64_t generations,
                uint64_t lookahead = 0, Landing landing = Landing::kAtEnd);
  // Lands every glider still flying from a step() with Landing::kLater.
  void land_flights(sparse::SparseGrid& grid);
  // Whether gliders may be flying outside the tiles (until land_flights()).
  bool flying() const { return flying_; }
  // Whether the world `grid` steps in is whole (not in strips), with no
  // tile awake and no glider flying: nothing in it can change until it is
  // edited, however many generations pass.
  bool settled(const sparse::SparseGrid& grid) const;

  // Tile generations stepped since construction.
  uint64_t tiles_stepped() const { return tiles_stepped_; }
  // Cells evaluated since construction: the bands stepped, not whole tiles.
  uint64_t cells_computed() const { return cells_computed_; }
  // Whether to time each generation's two parts below (off by default:
  // reading the clock three times a generation cost 1.5% of a small
  // world's run, such as the puffer train's 50 tiles a generation).
  void time_generations(bool on) { timed_ = on; }
  // Wall seconds in the kernel's parallel pass and in the serial end of
  // each generation (creating, freeing, planning), while timed.
  double stepping_seconds() const { return stepping_seconds_; }
  double finishing_seconds() const { return finishing_seconds_; }
  // Generations per torus or plane block from now on, in place of the
  // choice TorusBlocks::choose_depth makes from this machine's caches (and
  // the plane's SparseGrid::kMaxPlaneBlock): 1 never blocks, 0 chooses again.
  void set_block_depth(uint64_t depth) { block_depth_ = depth; }
  // Whether a plane world of CPU tiles may be cut into strips, each
  // stepped alone by a thread of its own for dozens of generations between
  // exchanges of the columns beside the cuts (off by default). Cutting and
  // merging renumber the tiles' slots, which a caller holding slots across
  // step() calls (the hybrid) must not allow.
  //
  // A world cut into strips stays cut from one step() call to the next
  // (merging took 5-10 ms of the spacefiller's 0.4 s, and a caller stepping
  // in chunks, as `gol run` does, had its world cut and merged each time, or
  // stepped whole where a chunk was too short to pay for a cut). Between
  // calls the caller reads it through world_parts(), or has it merged; it
  // passes the same grid to each call, and has the strips merged before it
  // loads another world into that grid.
  void allow_strips(bool on) { strips_allowed_ = on; }
  // Whether lone gliders fly by formula (GliderFlights) on the plane: for
  // a caller whose world is all the CPU's (no GPU tiles), like strips.
  void allow_flights(bool on, size_t min_fleet = GliderFlights::kMinFleet,
                     GliderFlights::CoarseMap map = GliderFlights::CoarseMap::kWhereWorthIt) {
    flights_allowed_ = on;
    flights_.set_min_fleet(min_fleet);
    flights_.set_coarse_map(map);
  }
  // Whether the environment lets gliders fly: GOL_GLIDER_FLIGHTS=0 steps
  // every glider as the rest of the world (for timing the engine with and
  // without its flights).
  static bool flights_wanted();
  const GliderFlights& flights() const { return flights_; }
  // The grids holding the world `grid` steps in: `grid` alone, or while
  // the world is held in strips, each strip (`grid` the first). Either way
  // the world's cells are the CPU tiles of the parts (SparseGrid's cpu_
  // reads): a strip also holds copies of its neighbours' columns.
  std::vector<const sparse::SparseGrid*> world_parts(const sparse::SparseGrid& grid) const;
  // The active tiles of the world `grid` steps in, over its parts.
  size_t world_active(const sparse::SparseGrid& grid) const;
  // Merges a world held in strips back into `grid` (for a caller about to
  // read or change `grid` itself).
  void merge_strips(sparse::SparseGrid& grid);
  // Segments stepped in strips since construction, and how often a cut
  // moved between epochs to even out the strips' time.
  uint64_t strip_segments() const { return strip_segments_; }
  uint64_t cut_moves() const { return cut_moves_; }
  // The strips' balance counts work: a strip's bands stepped, and this for
  // each tile stepped (what a step costs beyond its bands: planning, the
  // neighbourhood, the commit). Time enters only where one core is
  // markedly slower than another (GridStepper::relative_pace), so that the
  // cuts do not follow a noisy clock and a run steps the same way each
  // time on even cores.
  static constexpr uint64_t kTileWork = 4;
  // A tile stepped whole in a plane block, with nothing planned or
  // committed, in the same units: about 20 ns against 35 ns for a planned
  // tile of four and a half bands (gosper-gun, one thread, here).
  static constexpr uint64_t kBlockTileWork = 5;
  // A generation's own end (creating, freeing, planning) in those units:
  // about a microsecond here, what makes a small world's tiles cost more.
  static constexpr uint64_t kGenerationWork = 256;
  // Plane blocks stepped since construction (SparseGrid::plane_block_size),
  // a strip's included.
  uint64_t plane_blocks() const { return plane_blocks_; }
  int threads() const { return workers_.threads(); }
  cpu::SimdLibrary library() const { return workers_.library(); }
  // task(i) for each i < count, each on one of the workers (for readers of
  // the world between steps).
  void run_tasks(size_t count, const std::function<void(size_t)>& task) const {
    workers_.run_tasks(count, task);
  }

 private:
  // One generation of every tile in grid.active(), its pass on `crew`
  // (null: on the calling thread, or on woken workers for large passes),
  // or on the calling thread alone; returns how many.
  size_t step_generation(sparse::SparseGrid& grid, const Rule& rule, cpu::WorkerCrew* crew,
                         bool alone);
  // step_generation() on `crew` or alone, as judge_ finds faster.
  size_t step_judged(sparse::SparseGrid& grid, const Rule& rule, cpu::WorkerCrew& crew);
  // step() of the world alone, its gliders flying or not; strips are cut
  // for the `lookahead` generations the call steps in all.
  uint64_t step_world(sparse::SparseGrid& grid, const Rule& rule, uint64_t generations,
                      uint64_t lookahead);
  // Whether the flights are reviewed at epochs' ends only: a world in
  // strips with few gliders flying (see kFewFlights).
  bool reviews_at_epoch_ends() const;
  // The generation of the next review: the flights' due, or where
  // reviews_at_epoch_ends() the last epoch's end before it.
  uint64_t review_due(const sparse::SparseGrid& grid) const;
  // A review of the flights (GliderFlights::review), or every glider
  // landed, with a strip exchange where tiles changed.
  void review_flights(sparse::SparseGrid& grid, bool land);
  void refuse_births_beyond_edge(sparse::SparseGrid& grid, const Rule& rule) const;
  // The cells the next generation's step of `grid` evaluates: its active
  // tiles' bands.
  static uint64_t cells_to_step(const sparse::SparseGrid& grid);
  void step_range(sparse::SparseGrid& grid, const Rule& rule, size_t begin, size_t end) const;
  // `depth` generations of a busy torus in one sweep; returns its tiles.
  size_t step_block(sparse::SparseGrid& grid, const Rule& rule, uint64_t depth);
  // `depth` >= 2 generations of a plane in a block (SparseGrid::kMaxPlaneBlock)
  // on the calling thread, every tile stepped whole each generation.
  struct PlaneBlockCount {
    uint64_t tiles = 0;   // tile generations stepped
    size_t last = 0;      // tiles stepped in the last generation
    size_t last_cpu = 0;  // those of them that are the CPU's (not a strip's ghosts)
  };
  // What a plane block of at most kKeptBlockTiles tiles keeps of each
  // (its neighbourhood and target by the parity read), kept from block to
  // block so that the arrays are not mapped and faulted in anew each time.
  struct PlaneBlockScratch {
    std::array<std::vector<cpu::TileNeighbourhood>, 2> in;
    std::array<std::vector<Tile*>, 2> targets;
  };
  PlaneBlockCount step_plane_block(sparse::SparseGrid& grid, const Rule& rule, uint64_t depth,
                                   PlaneBlockScratch& scratch) const;
  // The generations of the next plane block of `grid` with `remaining` to
  // go: below 2, a generation at a time.
  uint64_t plane_block_depth(const sparse::SparseGrid& grid, uint64_t remaining) const;
  // Strips (sparse::SparseGrid::kMaxStripEpoch): how many a plane world is
  // cut into for its next `generations`, or 0 to step it whole.
  size_t strip_count(const sparse::SparseGrid& grid, uint64_t generations) const;
  // What one strip's thread counts while stepping it.
  struct StripTally {
    uint64_t tiles = 0;
    uint64_t cells = 0;
    uint64_t last = 0;
    uint64_t work = 0;  // see kTileWork
    uint64_t blocks = 0;
  };
  // A segment: the world held in strips, each stepped alone by a thread
  // of its own between exchanges of ghost columns, from its cut to its
  // merge, over as many step() calls as it lasts.
  struct StripSegment {
    std::vector<int64_t> starts;  // the first column of each strip but the first
    bool moving = false;          // whether the cuts move between epochs
    size_t active_at_cut = 0;
    uint64_t end = 0;  // the generation at which a segment of fixed cuts ends
    std::vector<StripTally> tallies;
    std::vector<PlaneBlockScratch> scratch;
    std::vector<StripImports> imports;
    uint64_t epoch_start = 0;  // the generation of the last exchange (or the cut)
    // What each strip did in this epoch so far, and its pace: seconds per
    // unit of work, remembered over its recent epochs.
    std::vector<uint64_t> epoch_work;
    std::vector<double> seconds;
    std::vector<double> paced_work;
    // Each cut's lead, the work it hands over each epoch beyond its
    // strips' imbalance, and the way it last moved (both signed west to
    // east: 1 where the cut moved west, handing the west's columns east).
    std::vector<double> leads;
    std::vector<int> last_moves;
    size_t count() const { return starts.size() + 1; }
  };
  // Cuts `grid` into `strips` for a segment; false where the active tiles'
  // columns allow no cut.
  bool cut_strips(sparse::SparseGrid& grid, size_t strips);
  // Steps the segment by up to `generations` and sets `last_stepped`;
  // returns the generations done. Merges it back into `grid` where it ends
  // first: its world grew active enough for more strips or fell asleep,
  // neared the plane's edge, or its fixed cuts' time is up.
  uint64_t step_segment(sparse::SparseGrid& grid, const Rule& rule, uint64_t generations,
                        uint64_t& last_stepped);
  // Whether the segment's world, fresh from an exchange, must be merged.
  bool segment_ends(const sparse::SparseGrid& grid) const;
  // Brings each strip's copies of its neighbours' columns up to date,
  // ending an epoch.
  void exchange_strips(sparse::SparseGrid& grid, cpu::WorkerCrew& crew);
  // Moves the cuts between epochs so that the strips take about equal time.
  void balance_strips(sparse::SparseGrid& grid);
  // Strip k of the segment: `grid` is the first.
  sparse::SparseGrid& strip(sparse::SparseGrid& grid, size_t k) const {
    return k == 0 ? grid : *strip_grids_[k];
  }
  void step_strip_alone(sparse::SparseGrid& strip, const Rule& rule, uint64_t generations,
                        StripTally& tally, PlaneBlockScratch& scratch) const;

  // session(crew) on the crew this call holds, or on one started for it;
  // on the calling thread alone where waking the workers is not
  // `worth_waking`.
  void with_crew(const std::function<void(cpu::WorkerCrew&)>& session, bool worth_waking = true);
  // Whether `generations` of `active` tiles are worth waking the workers
  // for (or they are awake already).
  bool crew_pays(uint64_t generations, size_t active) const;

  cpu::ParallelTileStepper workers_;
  // The crew of the session under way, which with_crew() reuses (null
  // between sessions).
  cpu::WorkerCrew* crew_ = nullptr;
  // Grids for strips, kept (empty) from one segment to the next: during a
  // segment the first strip is the world's own grid, whose emptied former
  // self waits in strip_grids_[0] to take the merge.
  std::vector<std::unique_ptr<sparse::SparseGrid>> strip_grids_;
  std::unique_ptr<StripSegment> segment_;  // while the world is held in strips
  CrewJudge judge_;
  TorusBlocks blocks_;
  PlaneBlockScratch plane_block_scratch_;
  size_t cache_bytes_;         // a core's own cache, for the blocks' depth
  size_t shared_cache_bytes_;  // the cores' shared cache, where rows are wider
  uint64_t block_depth_ = 0;   // see set_block_depth()
  bool strips_allowed_ = false;
  bool flights_allowed_ = false;
  GliderFlights flights_;
  bool flying_ = false;  // flights started and not landed (Landing::kLater)
  uint64_t strip_segments_ = 0;
  uint64_t cut_moves_ = 0;
  uint64_t plane_blocks_ = 0;
  uint64_t tiles_stepped_ = 0;
  uint64_t cells_computed_ = 0;
  bool timed_ = false;
  double stepping_seconds_ = 0;
  double finishing_seconds_ = 0;
};

}  // namespace gol
