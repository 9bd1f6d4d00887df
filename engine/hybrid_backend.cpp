// The hybrid scheduler: epochs of k <= 32 generations over one SparseGrid
// whose dense clusters live in GPU regions of a gpu::TilePool.
//
// Why an epoch is exact (the light cone; a cell's state at t+j depends only
// on cells within Chebyshev distance j at t):
// - GPU side: the pool steps each region's owned rectangle and a ring of one
//   tile around it, uploaded at t from the CPU (absent tiles dead), with
//   dead cells beyond. Only cells beyond the ring are wrong, so after j
//   generations the wrong cells are within j of the ring's outer edge; the
//   owned tiles are at least 65 cells inside it, so all their cells are
//   exact for j <= 64, corners included (a corner cell of the rectangle is
//   65 cells from the outside in both axes, and Chebyshev distance takes the
//   larger).
// - CPU side: it steps its own tiles and the regions' edge tiles (ghosts),
//   whose inner neighbours (GPU tiles) it holds only as stale copies. Wrong
//   cells start in those copies and after j generations reach j cells into
//   the ghosts: a ghost's cells at least j+1 from the region's interior are
//   exact, so its outer row, column and corner cell (64 cells from the
//   interior) are exact for j <= 63, and every CPU tile is exact for j <= 64.
//   Ghosts sleep like CPU tiles (sparse_grid.h says why that stays exact):
//   the quiet margin the partition leaves around a cluster then costs the
//   CPU nothing.
// With k <= 32 both sides are exact with room to spare. At the epoch's end
// the ghosts are replaced by the pool's exact tiles (t+k and t+k-1). Since
// their outer borders already matched, the wake flags the CPU set while
// stepping them stand; the import only wakes what it must.
#include "engine/hybrid_backend.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <span>
#include <unordered_map>
#include <utility>

#include "cpu/simd/tile_step.h"
#include "engine/core/error.h"
#include "engine/grid_stepper.h"
#include "sparse/sparse_grid.h"

namespace gol {
namespace {

using gpu::TileRect;
using sparse::TileOwner;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A GPU region as the backend keeps it: the pool's id, its tiles (wrapped
// on a torus), which of them are ghosts here, and the ring the pool needs
// uploaded every epoch.
struct Region {
  int id = 0;
  TileRect rect;
  std::vector<TileCoord> owned;     // row-major over rect, as activity() lists them
  std::vector<TileCoord> boundary;  // the edge tiles: the CPU's ghosts
  // The ghosts' grid slots, by boundary index: ghosts are never freed (only
  // CPU tiles are), so their slots hold while the region lives.
  std::vector<int32_t> boundary_slots;
  std::vector<TileCoord> ring;       // the CPU tiles around it
  std::vector<Tile> ghost_current;   // the edge tiles on their way down (t+k)
  std::vector<Tile> ghost_previous;  // and t+k-1
  int epochs_held = 0;
  bool stepped = false;  // the pool has run an epoch since it was added
};

// The tiles of regions on their way into a larger region that replaces
// them (a region that grows), at t and t-1: they come down from the pool and
// go straight up again, never through the grid, whose copies of them are
// stale.
class CarriedTiles {
 public:
  // Makes room for the tiles at `coords`; returns the index of the first.
  size_t append(std::span<const TileCoord> coords) {
    const size_t first = current_.size();
    current_.resize(first + coords.size());
    previous_.resize(first + coords.size());
    for (size_t i = 0; i < coords.size(); ++i) index_.emplace_back(coords[i], first + i);
    sorted_ = false;
    return first;
  }
  std::span<Tile> current(size_t first, size_t count) { return {&current_[first], count}; }
  std::span<Tile> previous(size_t first, size_t count) { return {&previous_[first], count}; }
  // The tile carried at `coord` (t, t-1), or nulls.
  std::pair<const Tile*, const Tile*> find(TileCoord coord) {
    if (!sorted_) {
      std::sort(index_.begin(), index_.end());
      sorted_ = true;
    }
    const auto it =
        std::lower_bound(index_.begin(), index_.end(), std::pair<TileCoord, size_t>{coord, 0});
    if (it == index_.end() || it->first != coord) return {nullptr, nullptr};
    return {&current_[it->second], &previous_[it->second]};
  }

 private:
  std::vector<std::pair<TileCoord, size_t>> index_;
  std::vector<Tile> current_;
  std::vector<Tile> previous_;
  bool sorted_ = true;
};

// How many times max_partition_interval the passes of a torus held whole
// by the GPU may stretch to.
constexpr int kWholeTorusIntervalFactor = 4;

class HybridBackend final : public Backend {
 public:
  HybridBackend(const BackendOptions& options, std::unique_ptr<gpu::TilePool> pool,
                const HybridOptions& hybrid)
      : options_(hybrid),
        stepper_(options.threads, cpu::SimdLibrary::kHighway),
        pool_(std::move(pool)),
        costs_(hybrid.fixed_costs.value_or(hybrid::default_cost_model(stepper_.threads()))) {
    GOL_CHECK(options_.epoch_generations >= 1 &&
              options_.epoch_generations <= gpu::kMaxEpochGenerations);
    GOL_CHECK(options_.partition_every >= 1);
    stepper_.time_generations(trace_);
    // Flights wait while any tile is the GPU's (GridStepper::step).
    stepper_.allow_flights(GridStepper::flights_wanted());
  }

  std::string name() const override {
    return pool_->name() == "cpu-standin" ? "hybrid-standin" : "hybrid";
  }

  void load(const CellSet& cells, const Rule& rule, const Topology& topology) override {
    load_cells(cells, rule, topology);
  }

  void load_taking(CellSet&& cells, const Rule& rule, const Topology& topology) override {
    load_cells(std::move(cells), rule, topology);
  }

  // `cells`: a CellSet to copy, or one to take apart (SparseGrid::load).
  template <class Cells>
  void load_cells(Cells&& cells, const Rule& rule, const Topology& topology) {
    if (!topology.is_torus() && rule.births_on_zero()) {
      throw InputError("rule " + rule.to_string() + " has B0 and cannot run on the plane");
    }
    rule_ = rule;
    activity_read_.clear();
    stepper_.land_flights(grid_);
    stepper_.merge_strips(grid_);
    torus_ = topology.is_torus()
                 ? hybrid::TorusTiles{topology.width / kTileSize, topology.height / kTileSize}
                 : hybrid::TorusTiles{};
    grid_.load(std::forward<Cells>(cells), topology, topology.is_torus() && rule.births_on_zero());
    pool_->reset(rule, torus_.x, torus_.y);
    regions_.clear();
    ghosts_queued_ = false;
    costs_ = hybrid::CostCalibration(
        options_.fixed_costs.value_or(hybrid::default_cost_model(stepper_.threads())));
    epochs_ = 0;
    run_length_ = {};
    partition_interval_ = options_.partition_every;
    epochs_since_partition_ = 0;
    timings_ = {};
    cpu_cells_computed_ = 0;
    cpu_tiles_last_generation_ = 0;
    CarriedTiles none;
    for (const TileRect& rect : options_.fixed_regions) {
      add_region(hybrid::fit_to_torus(rect, torus_), none);
    }
    grid_.replan();
    // The first partition is part of loading, as the other GPU backends
    // upload their worlds in load(); it prices with the starting model.
    if (options_.fixed_regions.empty()) {
      repartition(options_.epoch_generations);
      epochs_since_partition_ = 0;
    }
  }

  void step(uint64_t generations) override {
    activity_read_.clear();
    const uint64_t beyond_call = run_length_.beyond(generations);
    while (generations > 0) {
      generations_left_ = generations + beyond_call;
      if (regions_.empty() && stepper_.settled(grid_)) {
        // Flights started in an earlier epoch of this call, with none
        // flying now, end here; otherwise a world that fell asleep within a
        // call stepped the rest an epoch at a time (a block asked for 10^12
        // generations took 976 million epochs, 225 s).
        stepper_.land_flights(grid_);
        grid_.advance_asleep(generations);
        cpu_tiles_last_generation_ = 0;
        return;
      }
      const int priced = static_cast<int>(
          std::min<uint64_t>(static_cast<uint64_t>(options_.epoch_generations), generations));
      const bool pass_due =
          options_.fixed_regions.empty() && epochs_since_partition_ >= partition_interval_;
      int k = 0;
      if (pass_due && holds_only_the_whole_torus()) {
        k = run_epoch_beside_partition(generations, priced);
      } else {
        if (pass_due) {
          settle_ghosts();
          after_partition_pass(repartition(priced));
        }
        k = epoch_length(generations);
        run_epoch(k);
        epochs_since_partition_ += epochs_in(k);
      }
      generations -= static_cast<uint64_t>(k);
    }
    // Between calls the ghosts are settled, and the gliders landed unless
    // more steps follow (expect_more_steps): the cells, population and the
    // next load read the grid (or its strips, with no region), the pool
    // and the gliders flying.
    if (!more_steps_) stepper_.land_flights(grid_);
    settle_ghosts();
    if (trace_) {
      std::fprintf(stderr,
                   "hybrid: generation %llu: %.3f s stepping the CPU (%.3f s in the kernel's "
                   "pass, %.3f s ending generations), %.3f s waiting for the pool, %.3f s "
                   "uploading rings and launching, %.3f s bringing ghosts back, %.3f s "
                   "partitioning\n",
                   static_cast<unsigned long long>(grid_.generation()), timings_.cpu,
                   stepper_.stepping_seconds(), stepper_.finishing_seconds(), timings_.wait,
                   timings_.upload, timings_.ghosts, timings_.partition);
    }
  }

  // Told of more steps to come, gliders fly on into the next call, as
  // between the epochs of one (the simd backend's reasons).
  void expect_more_steps(bool more) override { more_steps_ = more; }
  // As the simd backend: the CPU's strips are cut for the run, not the call.
  void expect_run_length(uint64_t generations) override { run_length_.expect(generations); }

  uint64_t population() const override {
    uint64_t count = stepper_.flying() ? stepper_.flights().population() : 0;
    for (const sparse::SparseGrid* part : parts()) count += part->cpu_population();
    for (const Region& region : regions_) {
      count += region.stepped ? last_activity(region).population : population_held(region);
    }
    return count;
  }

  // Without copying the world (Backend::bbox's way): the CPU's tiles as
  // the simd backend reads them, and of each stepped region only the tiles
  // on the sides of its tiles with cells, downloaded.
  std::optional<BBox> bbox() const override {
    std::optional<BBox> box;
    if (stepper_.flying()) box = stepper_.flights().bbox(grid_.generation());
    if (const std::optional<BBox> cpu_box = sparse::SparseGrid::cpu_bbox_of(parts())) {
      extend_bbox(box, *cpu_box);
    }
    for (const Region& region : regions_) {
      const std::vector<TileCoord> sides = outermost_live(region);
      std::vector<Tile> tiles(sides.size());
      pool_->download(region.id, sides, tiles, {});
      for (size_t i = 0; i < tiles.size(); ++i) {
        if (const std::optional<BBox> part = tile_bbox(sides[i], tiles[i])) extend_bbox(box, *part);
      }
    }
    return box;
  }

  CellSet cells() const override {
    CellSet result;
    if (stepper_.flying()) {
      stepper_.flights().visit_cells(grid_.generation(),
                                     [&](int64_t x, int64_t y) { result.set(x, y); });
    }
    for (const sparse::SparseGrid* part : parts()) {
      part->visit_cpu_tiles(
          [&](TileCoord coord, const Tile& tile) { result.put_tile(coord, tile); });
    }
    for (const Region& region : regions_) {
      std::vector<Tile> tiles(region.owned.size());
      pool_->download(region.id, region.owned, tiles, {});
      for (size_t i = 0; i < tiles.size(); ++i) {
        if (!tiles[i].empty()) result.put_tile(region.owned[i], tiles[i]);
      }
    }
    return result;
  }

  BackendStats stats() const override {
    const gpu::TilePoolStats pool = pool_->stats();
    BackendStats stats;
    uint64_t gpu_tiles = 0;
    uint64_t gpu_stepped = 0;
    for (const Region& region : regions_) {
      gpu_tiles += static_cast<uint64_t>(region.rect.area());
      gpu_stepped += static_cast<uint64_t>(region.rect.area() + region.ring.size());
    }
    stats.cells_computed = cpu_cells_computed_ + pool.cells_computed;
    stats.tiles_active = cpu_tiles_last_generation_ + gpu_stepped;
    // In strips each also holds copies of its neighbours' columns.
    const std::vector<const sparse::SparseGrid*> grids = parts();
    uint64_t tiles = grid_.tile_count();
    if (grids.size() > 1) {
      tiles = 0;
      for (const sparse::SparseGrid* part : grids) tiles += part->cpu_tile_count();
    }
    stats.tiles_total = tiles;
    stats.simd_target = cpu::simd_target_name(stepper_.library());
    stats.threads = stepper_.threads();
    stats.strip_segments = stepper_.strip_segments();
    stats.gliders_flying = stepper_.flying() ? stepper_.flights().flying() : 0;
    stats.device_seconds = pool.device_seconds;
    stats.transfer_seconds = pool.transfer_seconds;
    stats.tiles_gpu = gpu_tiles;
    stats.tiles_cpu = tiles - gpu_tiles;
    stats.epochs = epochs_;
    stats.bytes_uploaded = pool.bytes_uploaded;
    stats.bytes_downloaded = pool.bytes_downloaded;
    return stats;
  }

 private:
  TileCoord canonical(TileCoord coord) const {
    return torus_.is_torus() ? TileCoord{wrap(coord.tx, torus_.x), wrap(coord.ty, torus_.y)}
                             : coord;
  }

  bool wraps_whole_torus(const TileRect& rect) const {
    return torus_.is_torus() && rect.width == torus_.x && rect.height == torus_.y;
  }

  // What a stepped region's last epoch left, brought down once between two
  // changes of the world: a log row reads it for the population and again
  // for the box.
  const gpu::RegionActivity& last_activity(const Region& region) const {
    const auto [kept, added] = activity_read_.try_emplace(region.id);
    if (added) kept->second = pool_->activity(region.id);
    return kept->second;
  }

  // The region's tiles with cells on the sides of the box around them, as
  // its last epoch's activity flags them; every owned tile before its first.
  std::vector<TileCoord> outermost_live(const Region& region) const {
    if (!region.stepped) return region.owned;
    const std::vector<uint8_t>& nonempty = last_activity(region).nonempty;
    std::optional<BBox> tiles;
    for (size_t i = 0; i < region.owned.size(); ++i) {
      const TileCoord at = region.owned[i];
      if (nonempty[i] != 0) extend_bbox(tiles, BBox{at.tx, at.ty, at.tx, at.ty});
    }
    std::vector<TileCoord> sides;
    for (size_t i = 0; tiles && i < region.owned.size(); ++i) {
      const TileCoord at = region.owned[i];
      if (nonempty[i] != 0 && (at.tx == tiles->xmin || at.tx == tiles->xmax ||
                               at.ty == tiles->ymin || at.ty == tiles->ymax)) {
        sides.push_back(at);
      }
    }
    return sides;
  }

  // A region's population from the grid's copies, exact until its first
  // epoch on the pool.
  uint64_t population_held(const Region& region) const {
    const int parity = static_cast<int>(grid_.generation() & 1);
    uint64_t count = 0;
    for (const TileCoord& coord : region.owned) {
      count += grid_.map().tile(parity, grid_.map().find(coord)).population();
    }
    return count;
  }

  // Epochs of epoch_generations that k generations make, for the partition
  // pass's interval.
  int epochs_in(int k) const {
    return (k + options_.epoch_generations - 1) / options_.epoch_generations;
  }

  // The grids holding the CPU's world: grid_ alone, or its strips while no
  // region exists (GridStepper::world_parts).
  std::vector<const sparse::SparseGrid*> parts() const { return stepper_.world_parts(grid_); }

  bool holds_only_the_whole_torus() const {
    return regions_.size() == 1 && wraps_whole_torus(regions_.front().rect);
  }

  // Passes come every partition_every epochs after a change, and ever less
  // often while they change nothing.
  // A torus held whole by the GPU waits longer still: the pass can only
  // hand it back once it falls asleep, and a late return costs one epoch.
  void after_partition_pass(bool changed) {
    const int longest = holds_only_the_whole_torus()
                            ? kWholeTorusIntervalFactor * options_.max_partition_interval
                            : options_.max_partition_interval;
    partition_interval_ =
        changed ? options_.partition_every
                : std::max(options_.partition_every, std::min(2 * partition_interval_, longest));
    epochs_since_partition_ = 0;
  }

  // With the whole torus on the pool the host has nothing to step, so the
  // pass plans from the activity the last epoch left while the next epoch
  // runs, and what it changes takes effect one epoch late (any partition is
  // exact; a late one only costs that epoch). The epoch is as long as the
  // next interval would be were nothing to change. Returns its length.
  int run_epoch_beside_partition(uint64_t generations, int priced) {
    // Queued ahead of the epoch, read while it runs.
    std::vector<gpu::RegionActivity> last(1);
    pool_->activity_async(regions_.front().id, last.front());
    after_partition_pass(false);
    const int k = epoch_length(generations);
    std::vector<hybrid::HeldRegion> held;
    hybrid::PartitionPlan plan;
    run_epoch(k, [&] {
      const auto planning = std::chrono::steady_clock::now();
      pool_->finish_downloads();
      const hybrid::ActivityBlocks active = activity(held, last);
      plan = plan_from(held, active, priced);
      timings_.partition += seconds_since(planning);
    });
    const auto start = std::chrono::steady_clock::now();
    const bool changed = apply_partition(plan, held);
    timings_.partition += seconds_since(start);
    // A change counts from when it took effect, after the epoch.
    if (changed) {
      after_partition_pass(true);
    } else {
      epochs_since_partition_ += epochs_in(k);
    }
    return k;
  }

  // Epochs are epoch_generations long, but one region holding the whole
  // torus has no ring and no CPU side to exchange with, so it runs on until
  // the next partition pass (or max_partition_interval epochs' worth with
  // fixed regions) in one epoch: one launch sequence and one wait instead of
  // one for every epoch_generations. With no region the CPU alone runs on
  // the same way, its workers kept spinning through the whole stretch.
  // Such a stretch that would leave less than half of itself for one more
  // takes the rest too: an epoch's start and end cost the same however
  // long it runs.
  int epoch_length(uint64_t generations) const {
    uint64_t longest = static_cast<uint64_t>(options_.epoch_generations);
    if (regions_.empty() || holds_only_the_whole_torus()) {
      const int epochs_left = options_.fixed_regions.empty()
                                  ? partition_interval_ - epochs_since_partition_
                                  : options_.max_partition_interval;
      longest *= static_cast<uint64_t>(std::max(1, epochs_left));
      if (generations > longest && generations - longest < longest / 2) longest = generations;
    }
    return static_cast<int>(std::min(longest, generations));
  }

  // One epoch of k generations: rings up, the pool's epoch launched, the
  // CPU's tiles and ghosts stepped meanwhile (and `meanwhile` run), the
  // ghosts brought back.
  void run_epoch(int k, const std::function<void()>& meanwhile = {}) {
    ++epochs_;
    if (regions_.empty()) {
      step_cpu(k);
      return;
    }
    // A region's first epoch pays for its buffers and, the first time, the
    // device's start (about 1 ms on the H200 host): learnt from, those kept
    // the breeder's cluster off the GPU on 16 threads for the rest of the run.
    const bool learns = options_.calibrate_gpu && !options_.fixed_costs &&
                        std::none_of(regions_.begin(), regions_.end(),
                                     [](const Region& region) { return region.epochs_held == 0; });
    auto start = std::chrono::steady_clock::now();
    upload_rings();
    const double device_before = pool_->stats().device_seconds;
    pool_->step_async(k);
    const double launching = seconds_since(start);
    timings_.upload += launching;
    const double settling = settle_ghosts();
    step_cpu(k);
    if (meanwhile) meanwhile();
    start = std::chrono::steady_clock::now();
    pool_->wait();
    timings_.wait += seconds_since(start);
    if (learns) {
      uint64_t stepped = 0;
      for (const Region& region : regions_) {
        stepped += static_cast<uint64_t>(region.rect.area() + region.ring.size());
      }
      costs_.observe_gpu(pool_->stats().device_seconds - device_before,
                         stepped * static_cast<uint64_t>(k), regions_.size());
    }
    for (Region& region : regions_) {
      ++region.epochs_held;
      region.stepped = true;
    }
    start = std::chrono::steady_clock::now();
    queue_ghosts();
    const double queueing = seconds_since(start);
    timings_.ghosts += queueing;
    if (learns) costs_.observe_region_host(launching + settling + queueing, regions_.size());
  }

  void step_cpu(int k) {
    // The planner prices a cluster by its active tiles (activity()), so the
    // cost of a tile is learnt per active tile at the stretch's start, not
    // per tile stepped: plane blocks step each active tile's neighbours
    // whole too (the breeder on hybrid-standin, 4 threads on 2 cores: 12.8
    // ns a tile stepped, 28.1 ns an active tile).
    const uint64_t active = stepper_.world_active(grid_);
    const uint64_t cells_before = stepper_.cells_computed();
    const auto start = std::chrono::steady_clock::now();
    // With no region the world is the CPU's alone, as simd's is, and may be
    // held in strips as there, from stretch to stretch and call to call: on
    // 16 threads the spacefiller took 0.93 s here against simd's 0.33 s
    // without them. Only regions hold slots, and the strips are merged
    // before one is added (change_partition) or another world loaded.
    // Gliders fly on from stretch to stretch too: landing them at the end
    // of each cost a gun's stream 3.7 times simd's time on two threads.
    stepper_.allow_strips(regions_.empty());
    cpu_tiles_last_generation_ = stepper_.step(
        grid_, rule_, static_cast<uint64_t>(k), generations_left_,
        regions_.empty() ? GridStepper::Landing::kLater : GridStepper::Landing::kAtEnd);
    cpu_cells_computed_ += stepper_.cells_computed() - cells_before;
    const double seconds = seconds_since(start);
    timings_.cpu += seconds;
    if (!options_.fixed_costs) {
      costs_.observe_cpu(seconds, static_cast<uint64_t>(k), static_cast<uint64_t>(k) * active);
    }
  }

  // The CPU tiles around each region at generation t. Every epoch leaves
  // the pool's ring dead, so empty and absent tiles need not go up.
  void upload_rings() {
    const int parity = static_cast<int>(grid_.generation() & 1);
    std::vector<TileCoord> coords;
    std::vector<Tile> tiles;
    for (const Region& region : regions_) {
      coords.clear();
      tiles.clear();
      for (const TileCoord& coord : region.ring) {
        const int32_t slot = grid_.map().find(coord);
        if (slot == sparse::TileMap::kAbsent || !grid_.map().summary(parity, slot).nonempty) {
          continue;
        }
        coords.push_back(coord);
        tiles.push_back(grid_.map().tile(parity, slot));
      }
      if (!coords.empty()) pool_->upload(region.id, coords, tiles, {});
    }
  }

  // Each region's edge tiles at t+k and t+k-1 become the CPU's ghosts.
  // Queues each region's edge tiles at t+k and t+k-1 to come down; the
  // next epoch may start before they arrive (settle_ghosts() says why).
  void queue_ghosts() {
    for (Region& region : regions_) {
      if (region.boundary.empty()) continue;
      region.ghost_current.resize(region.boundary.size());
      region.ghost_previous.resize(region.boundary.size());
      pool_->download_async(region.id, region.boundary, region.ghost_current,
                            region.ghost_previous);
    }
    ghosts_queued_ = true;
  }

  // The queued edge tiles become the CPU's ghosts. This may wait until the
  // pool runs the next epoch: that epoch needs only the ring, CPU tiles
  // already exact at t+k, and the copies were queued ahead of it. The CPU
  // needs its ghosts before it steps on, and the planner before it plans.
  // Returns the seconds it took.
  double settle_ghosts() {
    if (!ghosts_queued_) return 0;
    const auto start = std::chrono::steady_clock::now();
    pool_->finish_downloads();
    ghosts_queued_ = false;
    imported_.clear();
    for (const Region& region : regions_) {
      for (size_t i = 0; i < region.boundary.size(); ++i) {
        const int32_t slot = region.boundary_slots[i];
        GOL_CHECK(grid_.map().coord(slot) == region.boundary[i]);
        if (grid_.import_tile(slot, region.ghost_current[i], region.ghost_previous[i])) {
          imported_.push_back(slot);
        }
      }
    }
    // Quiet ghosts come back as the CPU left them, and a whole-torus region
    // has none: then the active list stands.
    if (!imported_.empty()) grid_.replan_near(imported_);
    const double seconds = seconds_since(start);
    timings_.ghosts += seconds;
    return seconds;
  }

  void add_region(const TileRect& rect, CarriedTiles& carried) {
    Region region;
    region.id = pool_->add_region(rect);
    lay_out(region, rect);
    take_owned(region.id, region.owned, carried);
    take_boundary(region);
    regions_.push_back(std::move(region));
  }

  // A region growing alone grows in place on the pool: what it owned stays
  // there, and only the tiles it gains go up (from the grid, which holds
  // them exactly: they were the CPU's, or absent).
  void grow_region(Region& region, const TileRect& rect) {
    const TileRect old_rect = region.rect;
    pool_->grow_region(region.id, rect);
    // The old ghosts are the GPU's now, unless still on the boundary.
    for (const int32_t slot : region.boundary_slots) grid_.set_owner(slot, TileOwner::kGpu);
    lay_out(region, rect);
    std::vector<TileCoord> gained;
    for (const TileCoord& coord : region.owned) {
      if (!hybrid::rect_contains(old_rect, coord, torus_)) gained.push_back(coord);
    }
    CarriedTiles none;
    take_owned(region.id, gained, none);
    take_boundary(region);
    region.epochs_held = 0;
    region.stepped = false;
  }

  // The region's tiles for `rect`: owned, ring and boundary.
  void lay_out(Region& region, const TileRect& rect) const {
    region.rect = rect;
    region.owned.clear();
    region.ring.clear();
    region.boundary.clear();
    const bool whole = wraps_whole_torus(rect);
    for (int64_t dy = -1; dy <= rect.height; ++dy) {
      for (int64_t dx = -1; dx <= rect.width; ++dx) {
        const bool owned = dx >= 0 && dy >= 0 && dx < rect.width && dy < rect.height;
        const TileCoord coord = canonical({rect.tx + dx, rect.ty + dy});
        if (!owned) {
          if (!whole) region.ring.push_back(coord);
          continue;
        }
        region.owned.push_back(coord);
        const bool edge = dx == 0 || dy == 0 || dx == rect.width - 1 || dy == rect.height - 1;
        if (edge && !whole) region.boundary.push_back(coord);
      }
    }
  }

  // The region's boundary tiles become the CPU's ghosts.
  void take_boundary(Region& region) {
    region.boundary_slots.clear();
    for (const TileCoord& coord : region.boundary) {
      const int32_t slot = grid_.map().find(coord);
      grid_.set_owner(slot, TileOwner::kGhost);
      region.boundary_slots.push_back(slot);
    }
  }

  // Hands tiles of a region to the GPU with their state at t and t-1:
  // carried ones from the regions it replaces, the rest from the grid, which
  // holds them exactly until now. The pool starts them dead, so only live
  // ones go up.
  void take_owned(int region_id, std::span<const TileCoord> owned, CarriedTiles& carried) {
    const int parity = static_cast<int>(grid_.generation() & 1);
    std::vector<TileCoord> coords;
    std::vector<Tile> current;
    std::vector<Tile> previous;
    for (const TileCoord& coord : owned) {
      const int32_t slot = grid_.ensure_tile(coord);
      GOL_CHECK(slot != sparse::TileMap::kAbsent);
      grid_.set_owner(slot, TileOwner::kGpu);
      auto [now, before] = carried.find(coord);
      if (now == nullptr) {
        now = &grid_.map().tile(parity, slot);
        before = &grid_.map().tile(parity ^ 1, slot);
      }
      if (now->empty() && before->empty()) continue;
      coords.push_back(coord);
      current.push_back(*now);
      previous.push_back(*before);
    }
    // At generation 0 the grid's t-1 is t itself, which is what the pool
    // assumes without it.
    if (grid_.generation() == 0) previous.clear();
    if (!coords.empty()) pool_->upload(region_id, coords, current, previous);
  }

  // Takes a region off the pool into `carried`, for a region that replaces
  // it; the grid's ownership of its tiles is set by that region.
  void carry_region(size_t index, CarriedTiles& carried) {
    const Region& region = regions_[index];
    const size_t count = region.owned.size();
    const size_t first = carried.append(region.owned);
    pool_->download(region.id, region.owned, carried.current(first, count),
                    carried.previous(first, count));
    pool_->remove_region(region.id);
    regions_.erase(regions_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  // Hands a region back: its tiles at t and t-1 come down, are imported
  // and wake.
  void release_region(size_t index) {
    const Region& region = regions_[index];
    std::vector<Tile> current(region.owned.size());
    std::vector<Tile> previous(region.owned.size());
    pool_->download(region.id, region.owned, current, previous);
    for (size_t i = 0; i < region.owned.size(); ++i) {
      const int32_t slot = grid_.map().find(region.owned[i]);
      grid_.import_tile(slot, current[i], previous[i]);
      grid_.set_owner(slot, TileOwner::kCpu);
    }
    pool_->remove_region(region.id);
    regions_.erase(regions_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  // The active tiles the partition clusters: the CPU's own active tiles and
  // the tiles each region changed in its last step.
  hybrid::ActivityBlocks activity(std::vector<hybrid::HeldRegion>& held) const {
    std::vector<gpu::RegionActivity> regions;
    for (const Region& region : regions_) regions.push_back(pool_->activity(region.id));
    return activity(held, regions);
  }

  // The same from the regions' activity as read already, in regions_ order.
  hybrid::ActivityBlocks activity(std::vector<hybrid::HeldRegion>& held,
                                  std::span<const gpu::RegionActivity> regions) const {
    hybrid::ActivityBlocks active(options_.clusters.block, torus_);
    std::vector<int64_t> active_ghosts(regions_.size(), 0);
    // In strips there is no region, and a strip's copies of its
    // neighbours' columns (not the CPU's own) count for none.
    for (const sparse::SparseGrid* part : parts()) {
      for (int32_t slot : part->active()) {
        const TileCoord coord = part->map().coord(slot);
        if (part->owner(slot) == TileOwner::kCpu) {
          active.add(coord);
          continue;
        }
        for (size_t i = 0; i < regions_.size(); ++i) {
          if (hybrid::rect_contains(regions_[i].rect, coord, torus_)) ++active_ghosts[i];
        }
      }
    }
    for (size_t i = 0; i < regions_.size(); ++i) {
      const Region& region = regions_[i];
      const gpu::RegionActivity& activity = regions[i];
      active.add_flags(region.rect, activity.changed);
      const auto changed = std::count(activity.changed.begin(), activity.changed.end(), 1);
      held.push_back(
          {region.rect, static_cast<int64_t>(changed), active_ghosts[i], region.epochs_held});
    }
    return active;
  }

  // Returns whether the partition changed.
  bool repartition(int k) {
    const auto start = std::chrono::steady_clock::now();
    const bool changed = change_partition(k);
    timings_.partition += seconds_since(start);
    return changed;
  }

  bool change_partition(int k) {
    std::vector<hybrid::HeldRegion> held;
    const hybrid::ActivityBlocks active = activity(held);
    const hybrid::PartitionPlan plan = plan_from(held, active, k);
    // A region takes the gliders in its way, and holds the grid's slots,
    // which merging strips renumbers.
    if (!plan.add.empty()) {
      stepper_.land_flights(grid_);
      stepper_.merge_strips(grid_);
    }
    return apply_partition(plan, held);
  }

  hybrid::PartitionPlan plan_from(std::span<const hybrid::HeldRegion> held,
                                  const hybrid::ActivityBlocks& active, int k) const {
    const std::vector<hybrid::Cluster> clusters =
        hybrid::find_clusters(active, torus_, options_.clusters);
    return hybrid::plan_partition(held, clusters, active, costs_.model(), k, torus_,
                                  options_.partition);
  }

  // Returns whether the plan changed anything.
  bool apply_partition(const hybrid::PartitionPlan& plan,
                       std::span<const hybrid::HeldRegion> held) {
    if (plan.release.empty() && plan.add.empty()) return false;
    const auto start = std::chrono::steady_clock::now();
    // An added rectangle holding exactly one released region is that
    // region grown (by pool id: releasing others moves the indices).
    std::vector<int> grows_from(plan.add.size(), -1);
    for (size_t a = 0; a < plan.add.size(); ++a) {
      int holds = 0;
      for (size_t index : plan.release) {
        if (!hybrid::rect_contains(plan.add[a], held[index].rect, torus_)) continue;
        grows_from[a] = regions_[index].id;
        ++holds;
      }
      if (holds != 1) grows_from[a] = -1;
    }
    // As the planner prices them: the tiles of whole regions moved on and
    // off the pool, and those that regions growing in place gain.
    int64_t moved = 0;
    int64_t gained = 0;
    // Released from the back, so the indices of the others stay valid.
    CarriedTiles carried;
    for (auto it = plan.release.rbegin(); it != plan.release.rend(); ++it) {
      const Region& region = regions_[*it];
      if (std::find(grows_from.begin(), grows_from.end(), region.id) != grows_from.end()) continue;
      moved += region.rect.area();
      const bool merges = std::any_of(plan.add.begin(), plan.add.end(), [&](const TileRect& rect) {
        return hybrid::rect_contains(rect, region.rect, torus_);
      });
      if (merges) {
        carry_region(*it, carried);
      } else {
        release_region(*it);
      }
    }
    double growing_seconds = 0;
    for (size_t a = 0; a < plan.add.size(); ++a) {
      if (grows_from[a] < 0) {
        moved += plan.add[a].area();
        add_region(plan.add[a], carried);
        continue;
      }
      const auto grown = std::find_if(regions_.begin(), regions_.end(),
                                      [&](const Region& r) { return r.id == grows_from[a]; });
      GOL_CHECK(grown != regions_.end());
      gained += plan.add[a].area() - grown->rect.area();
      const auto growing = std::chrono::steady_clock::now();
      grow_region(*grown, plan.add[a]);
      growing_seconds += seconds_since(growing);
    }
    if (!options_.fixed_costs) {
      costs_.observe_growth(growing_seconds, static_cast<uint64_t>(gained));
      costs_.observe_migration(seconds_since(start) - growing_seconds,
                               static_cast<uint64_t>(moved));
    }
    grid_.replan();
    if (trace_) trace_partition(plan, held.size());
    return true;
  }

  void trace_partition(const hybrid::PartitionPlan& plan, size_t held_before) const {
    uint64_t gpu_tiles = 0;
    for (const Region& region : regions_) gpu_tiles += static_cast<uint64_t>(region.rect.area());
    const hybrid::CostModel& model = costs_.model();
    std::fprintf(stderr,
                 "hybrid: generation %llu: %zu of %zu regions released, %zu added: %zu regions, "
                 "%llu GPU tiles, %zu CPU tiles active; ns: CPU %.2f a tile + %.0f a generation, "
                 "GPU %.3f a tile + %.0f a region (host %.0f)\n",
                 static_cast<unsigned long long>(grid_.generation()), plan.release.size(),
                 held_before, plan.add.size(), regions_.size(),
                 static_cast<unsigned long long>(gpu_tiles), grid_.active().size(),
                 model.cpu_ns_per_tile, model.cpu_generation_ns, model.gpu_ns_per_tile,
                 model.gpu_overhead_ns, model.host_ns_per_region);
    for (const TileRect& rect : plan.add) {
      std::fprintf(stderr, "hybrid:   added %lld,%lld %lldx%lld tiles\n",
                   static_cast<long long>(rect.tx), static_cast<long long>(rect.ty),
                   static_cast<long long>(rect.width), static_cast<long long>(rect.height));
    }
  }

  HybridOptions options_;
  GridStepper stepper_;
  std::unique_ptr<gpu::TilePool> pool_;
  hybrid::CostCalibration costs_;
  sparse::SparseGrid grid_;
  Rule rule_;
  hybrid::TorusTiles torus_;
  std::vector<Region> regions_;
  std::vector<int32_t> imported_;  // the ghosts an epoch's import changed
  bool ghosts_queued_ = false;     // queue_ghosts() awaits settle_ghosts()
  uint64_t epochs_ = 0;
  int epochs_since_partition_ = 0;
  int partition_interval_ = 1;
  uint64_t cpu_cells_computed_ = 0;  // the bands the CPU stepped, as simd counts them
  uint64_t cpu_tiles_last_generation_ = 0;
  // last_activity()'s downloads by region id, dropped by every step and load.
  mutable std::unordered_map<int, gpu::RegionActivity> activity_read_;
  // What is left of the step() call, as the lookahead for cutting strips.
  uint64_t generations_left_ = 0;
  // Where the wall time of the steps went, for GOL_HYBRID_TRACE.
  struct Timings {
    double cpu = 0;
    double wait = 0;
    double upload = 0;  // rings up and the epoch's launch
    double ghosts = 0;  // ghosts down and imported
    double partition = 0;
  } timings_;
  bool trace_ = std::getenv("GOL_HYBRID_TRACE") != nullptr;
  bool more_steps_ = false;  // expect_more_steps()
  RunLength run_length_;
};

}  // namespace

std::unique_ptr<Backend> make_hybrid_backend(const BackendOptions& options,
                                             std::unique_ptr<gpu::TilePool> pool,
                                             const HybridOptions& hybrid) {
  return std::make_unique<HybridBackend>(options, std::move(pool), hybrid);
}

}  // namespace gol
