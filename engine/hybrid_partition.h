// Where the hybrid scheduler puts its tiles: clusters of active tiles,
// their cost on either side, and which GPU regions to keep, release or add
// at an epoch boundary. Pure planning over tile coordinates; the backend
// (engine/hybrid_backend.cpp) carries the plan out.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "engine/core/tile.h"
#include "gpu/tile_pool.h"

namespace gol::hybrid {

// The world's shape in tiles: 0 x 0 on the plane.
struct TorusTiles {
  int64_t x = 0;
  int64_t y = 0;
  bool is_torus() const { return x > 0; }
};

// What an epoch of k generations costs, in wall nanoseconds, on each side.
// The two sides run at once, but a tile stepped on one side is work the
// other need not do, so comparing the sums is what decides a cluster.
struct CostModel {
  double cpu_ns_per_tile = 0;       // one tile, one generation, on all CPU workers
  double gpu_overhead_ns = 0;       // one region, one epoch: launch, sync, small copies
  double gpu_ns_per_tile = 0;       // one tile of a region's rectangle+ring, one generation
  double transfer_ns_per_byte = 0;  // host<->device, either way
  // One region, one epoch, on the host thread, which steps CPU tiles too:
  // finding its ring and sending it up, the launch, and taking its ghosts
  // back into the grid (about 58 us an epoch on the device host for a
  // puffer train's small regions, four times their device overhead).
  double host_ns_per_region = 0;
  // One CPU generation whatever it steps (dispatch to the workers,
  // planning): paid on either partition, so that only a region leaving the
  // CPU but a few active tiles saves it, but without it a few tiles would
  // look as dear as the whole generation.
  double cpu_generation_ns = 0;
  // Moving one tile onto the GPU or off it (copies both ways, the grid's
  // bookkeeping): what a new or merged region must earn back.
  double migrate_ns_per_tile = 0;
  // Adding one tile to a region that grows in place: the grid's bookkeeping
  // and, for the few live ones, the copy up.
  double grow_ns_per_tile = 0;
  // What replacing the `absorbed` regions by `rect` costs: one grows in
  // place, several come off the pool and go back as one.
  double move_ns(const gpu::TileRect& rect, std::span<const gpu::TileRect> absorbed) const;

  double cpu_epoch_ns(int64_t active_tiles, int generations) const;
  // The CPU's side of an epoch stepping `active_tiles`: their cost and
  // that of its generations, or nothing when it has no tile to step.
  double cpu_side_ns(int64_t active_tiles, int generations) const;
  // The region's device time, its ghosts awake on the CPU (they sleep like
  // CPU tiles, so a quiet margin costs nothing there), the ring and ghost
  // tiles crossing the bus, and the host's work for it.
  double gpu_epoch_ns(const gpu::TileRect& owned, const TorusTiles& torus, int generations,
                      int64_t active_ghosts) const;
};

// Rough figures of the H100 machine (16 cores): the start of calibration,
// and the GPU side of the stand-in, which must look like a GPU for the
// scheduler's migrations to be exercised where there is none.
CostModel default_cost_model(int cpu_threads);

// Refines a CostModel from what epochs cost: exponential averages, so the
// model follows a world whose cost per tile drifts (soups settle into ash).
class CostCalibration {
 public:
  explicit CostCalibration(const CostModel& start) : model_(start) {}
  // `generations` generations of `tile_generations` tiles in all took the
  // CPU `seconds` of wall time. The cost of a generation is learnt from
  // small steps, the cost per tile from large ones.
  void observe_cpu(double seconds, uint64_t generations, uint64_t tile_generations);
  // An epoch of `regions` regions and `tile_generations` rectangle+ring
  // tiles stepped took `seconds` on the device. The overhead is learnt from
  // small epochs, the cost per tile from large ones.
  void observe_gpu(double seconds, uint64_t tile_generations, size_t regions);
  // The host's own work for `regions` regions in one epoch took `seconds`.
  void observe_region_host(double seconds, size_t regions);
  // Moving `tiles` tiles between the sides took `seconds`.
  void observe_migration(double seconds, uint64_t tiles);
  // A region grew in place by `tiles` tiles, which took `seconds`.
  void observe_growth(double seconds, uint64_t tiles);
  const CostModel& model() const { return model_; }

 private:
  CostModel model_;
};

// Active tiles counted by square blocks of tiles, with the bounds of the
// active tiles within each block so cluster rectangles stay tight. Counting
// by block keeps the planner's work proportional to the blocks, not the
// tiles: a region's flags are summed in a plain array first.
class ActivityBlocks {
 public:
  // Where the active tiles of one block lie (offsets within the block).
  struct Block {
    int64_t count = 0;
    int64_t min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  };
  struct KeyHash {
    size_t operator()(TileCoord key) const;
  };
  using Map = std::unordered_map<TileCoord, Block, KeyHash>;

  ActivityBlocks(int64_t block_side, const TorusTiles& torus);
  // One active tile (wrapped into the torus by the caller).
  void add(TileCoord tile);
  // The tiles of `rect` (on a torus, wrapped) whose flag is set in `flags`,
  // row-major over the rectangle.
  void add_flags(const gpu::TileRect& rect, std::span<const uint8_t> flags);

  int64_t block_side() const { return side_; }
  const Map& blocks() const { return blocks_; }
  // The tight rectangle of a block's active tiles.
  gpu::TileRect tight_rect(TileCoord key, const Block& block) const;
  // Active tiles of the blocks lying within `rect` and outside every one of
  // `excluded` (judged by each block's tight rectangle).
  int64_t count_within(const gpu::TileRect& rect, std::span<const gpu::TileRect> excluded) const;

 private:
  void add_at(TileCoord key, int64_t x, int64_t y, int64_t count);
  void merge(TileCoord key, const Block& block);

  int64_t side_;
  TorusTiles torus_;
  Map blocks_;
};

// A rectangle of tiles holding dense activity, and how many active tiles
// it holds.
struct Cluster {
  gpu::TileRect rect;
  int64_t active_tiles = 0;
};

struct ClusterOptions {
  // Side of the square blocks of tiles in which activity is counted.
  int64_t block = 8;
  // Active tiles a block needs to count as dense.
  int64_t dense_block_tiles = 8;
  // Tiles of margin around a cluster's active tiles, so the fringe of a
  // soup (and its first escaping debris) stays inside the region: at least
  // `margin`, and this fraction of the cluster's side. A large soup's
  // fringe creeps outwards for thousands of generations, and each time it
  // outgrows its region the region is replaced by a larger one (all its
  // tiles down and up again); GPU area is cheap, round trips are not.
  int64_t margin = 2;
  double margin_fraction = 1.0 / 16;
  // Clusters with fewer active tiles than this fraction of their rectangle
  // (margin included) stay on the CPU.
  double min_fill = 1.0 / 6;
};

// The active tiles grouped into clusters: dense blocks joined with their
// eight neighbours, each group's active tiles bounded by a rectangle with
// a margin, and rectangles that would not leave a tile between them merged.
// On a torus, rectangles wrap; one whose ring would meet itself becomes the
// whole torus. On the plane, clusters reaching beyond the tile range are
// dropped (they stay on the CPU).
std::vector<Cluster> find_clusters(const ActivityBlocks& activity, const TorusTiles& torus,
                                   const ClusterOptions& options);

// A GPU region as the planner sees it.
struct HeldRegion {
  gpu::TileRect rect;
  int64_t changed_tiles = 0;  // tiles changed by the last step of the last epoch
  int64_t active_ghosts = 0;  // its edge tiles awake on the CPU
  int epochs_held = 0;
};

struct PartitionOptions {
  // A cluster moves to the GPU when that costs at most this fraction of
  // stepping it on the CPU, and a region returns when it costs more than
  // kKeep times that: the band between them is the hysteresis that keeps
  // tiles from bouncing between the sides.
  double create_ratio = 0.5;
  double keep_ratio = 2.0;
  // A region is not returned for being sparse before this many epochs
  // (one that falls asleep returns at once).
  int min_epochs_held = 4;
  // A region that grows gains this fraction of its side on every side
  // beyond the cluster that made it grow.
  double growth_fraction = 1.0 / 8;
  // A new or grown region must save the cost of moving its tiles within
  // this many epochs.
  int amortize_epochs = 32;
  // A region grows over only some of the CPU's stragglers when that
  // shortens the epoch's longer side (the two run at once) by at least this
  // fraction.
  double min_epoch_saving = 0.1;
};

struct PartitionPlan {
  std::vector<size_t> release;     // indices into the held regions
  std::vector<gpu::TileRect> add;  // new regions, never conflicting with kept ones
};

// Decides the partition for the next epochs: regions asleep or no longer
// worth their cost are released; clusters worth the GPU become regions,
// absorbing held regions they touch (a region grows by release and add).
// A new region's margin keeps its ghosts quiet at first: none count as awake.
PartitionPlan plan_partition(std::span<const HeldRegion> held, std::span<const Cluster> clusters,
                             const ActivityBlocks& activity, const CostModel& costs,
                             int generations, const TorusTiles& torus,
                             const PartitionOptions& options);

// Whether two owned rectangles are too close for regions: one's ring
// would hold the other's tiles.
bool rects_conflict(const gpu::TileRect& a, const gpu::TileRect& b, const TorusTiles& torus);
// The smallest rectangle holding both (wrapping the shorter way on a torus).
gpu::TileRect rect_cover(const gpu::TileRect& a, const gpu::TileRect& b, const TorusTiles& torus);
bool rect_contains(const gpu::TileRect& outer, const gpu::TileRect& inner, const TorusTiles& torus);
bool rect_contains(const gpu::TileRect& rect, TileCoord coord, const TorusTiles& torus);
// The whole torus when `rect`'s ring would meet itself around it (the
// pool's rule), else `rect` with its origin wrapped into the torus.
gpu::TileRect fit_to_torus(const gpu::TileRect& rect, const TorusTiles& torus);

}  // namespace gol::hybrid
