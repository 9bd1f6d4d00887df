// Clusters, costs and the partition plan of the hybrid scheduler (see
// hybrid_partition.h).
#include "engine/hybrid_partition.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

#include "engine/core/error.h"
#include "sparse/tile_map.h"

namespace gol::hybrid {
namespace {

// One axis of a rectangle: [start, start + length), modulo `modulus` on a
// torus (modulus > 0), where a length of `modulus` is the whole axis.
struct Span {
  int64_t start;
  int64_t length;
};

Span x_span(const gpu::TileRect& rect) { return {rect.tx, rect.width}; }
Span y_span(const gpu::TileRect& rect) { return {rect.ty, rect.height}; }
gpu::TileRect make_rect(Span x, Span y) { return {x.start, y.start, x.length, y.length}; }

bool spans_overlap(Span a, Span b, int64_t modulus) {
  if (modulus == 0) return a.start < b.start + b.length && b.start < a.start + a.length;
  return wrap(b.start - a.start, modulus) < a.length || wrap(a.start - b.start, modulus) < b.length;
}

Span grown(Span span, int64_t by, int64_t modulus) {
  Span result{span.start - by, span.length + 2 * by};
  if (modulus > 0) {
    if (result.length >= modulus) return {0, modulus};
    result.start = wrap(result.start, modulus);
  }
  return result;
}

// The shortest span holding both: on a circle it starts where one of them
// starts.
Span span_cover(Span a, Span b, int64_t modulus) {
  if (modulus == 0) {
    const int64_t start = std::min(a.start, b.start);
    return {start, std::max(a.start + a.length, b.start + b.length) - start};
  }
  const int64_t from_a = std::max(a.length, wrap(b.start - a.start, modulus) + b.length);
  const int64_t from_b = std::max(b.length, wrap(a.start - b.start, modulus) + a.length);
  const Span best = from_a <= from_b ? Span{a.start, from_a} : Span{b.start, from_b};
  return best.length >= modulus ? Span{0, modulus} : best;
}

bool span_contains(Span outer, Span inner, int64_t modulus) {
  if (modulus == 0) {
    return outer.start <= inner.start && inner.start + inner.length <= outer.start + outer.length;
  }
  if (outer.length == modulus) return true;
  return wrap(inner.start - outer.start, modulus) + inner.length <= outer.length;
}

int64_t floor_div(int64_t value, int64_t divisor) {
  const int64_t quotient = value / divisor;
  return quotient * divisor > value ? quotient - 1 : quotient;
}

// Tiles of ghosts (the rectangle's edge) and of the ring outside it.
int64_t edge_tiles(const gpu::TileRect& rect) {
  return rect.area() - std::max<int64_t>(0, rect.width - 2) * std::max<int64_t>(0, rect.height - 2);
}

bool is_whole_torus(const gpu::TileRect& rect, const TorusTiles& torus) {
  return torus.is_torus() && rect.width == torus.x && rect.height == torus.y;
}

// Merges the items (anything with a `rect`) whose rectangles conflict until
// none do; join(kept, merged) gathers the rest of what they hold.
template <typename Item, typename Join>
void merge_conflicting(std::vector<Item>& items, const TorusTiles& torus, Join join) {
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < items.size() && !merged; ++i) {
      for (size_t j = i + 1; j < items.size(); ++j) {
        if (!rects_conflict(items[i].rect, items[j].rect, torus)) continue;
        items[i].rect = fit_to_torus(rect_cover(items[i].rect, items[j].rect, torus), torus);
        join(items[i], items[j]);
        items.erase(items.begin() + static_cast<std::ptrdiff_t>(j));
        merged = true;
        break;
      }
    }
  }
}

// `rect` with `fraction` of its side (at least a tile) added on every side.
gpu::TileRect grown_by_fraction(const gpu::TileRect& rect, double fraction,
                                const TorusTiles& torus) {
  const auto extra = [&](int64_t side) {
    return std::max<int64_t>(1, static_cast<int64_t>(fraction * static_cast<double>(side)));
  };
  return fit_to_torus(make_rect(grown(x_span(rect), extra(rect.width), torus.x),
                                grown(y_span(rect), extra(rect.height), torus.y)),
                      torus);
}

bool within_plane_range(const gpu::TileRect& rect) {
  // The ring too must be creatable.
  const int64_t limit = sparse::kMaxTileCoordinate - 1;
  return rect.tx > -limit && rect.ty > -limit && rect.tx + rect.width < limit &&
         rect.ty + rect.height < limit;
}

}  // namespace

double CostModel::move_ns(const gpu::TileRect& rect,
                          std::span<const gpu::TileRect> absorbed) const {
  if (absorbed.size() == 1) {
    return grow_ns_per_tile * static_cast<double>(rect.area() - absorbed[0].area());
  }
  int64_t moved = rect.area();
  for (const gpu::TileRect& region : absorbed) moved += region.area();
  return migrate_ns_per_tile * static_cast<double>(moved);
}

double CostModel::cpu_epoch_ns(int64_t active_tiles, int generations) const {
  return static_cast<double>(active_tiles) * generations * cpu_ns_per_tile;
}

double CostModel::cpu_side_ns(int64_t active_tiles, int generations) const {
  if (active_tiles <= 0) return 0;
  return cpu_generation_ns * generations + cpu_epoch_ns(active_tiles, generations);
}

double CostModel::gpu_epoch_ns(const gpu::TileRect& owned, const TorusTiles& torus, int generations,
                               int64_t active_ghosts) const {
  if (is_whole_torus(owned, torus)) {
    return gpu_overhead_ns + host_ns_per_region +
           static_cast<double>(owned.area()) * generations * gpu_ns_per_tile;
  }
  const auto stepped = static_cast<double>((owned.width + 2) * (owned.height + 2));
  const auto ghosts = static_cast<double>(edge_tiles(owned));
  const double ring = stepped - static_cast<double>(owned.area());
  // A ring tile goes up once an epoch; a ghost comes down at t and t-1.
  constexpr double kTileBytes = sizeof(Tile) + 4;
  const double bytes = (ring + 2 * ghosts) * kTileBytes;
  return gpu_overhead_ns + host_ns_per_region + stepped * generations * gpu_ns_per_tile +
         static_cast<double>(active_ghosts) * generations * cpu_ns_per_tile +
         bytes * transfer_ns_per_byte;
}

CostModel default_cost_model(int cpu_threads) {
  // On the H100 machine `simd` steps a 16384^2 soup at about 14 ns a tile
  // generation with 16 threads (issue 7: 3.69 s for 4096 generations),
  // some 200 ns of one core; the multi-step kernel runs 4096^2 tori at
  // 11.7 T cells/s, 0.35 ns a tile generation, and an epoch's launch, sync
  // and activity copy take some tens of microseconds.
  CostModel model;
  model.cpu_ns_per_tile = 200.0 / std::max(1, cpu_threads);
  model.cpu_generation_ns = 5e3;
  // Growing a 290^2-tile region took some 0.3 s in the first H100 runs.
  model.migrate_ns_per_tile = 2e3;
  // Growing the soup-long region in place (some 110000 mostly empty tiles)
  // took 0.8 to 0.95 us a tile there.
  model.grow_ns_per_tile = 1e3;
  model.gpu_overhead_ns = 30e3;
  model.gpu_ns_per_tile = 0.4;
  model.transfer_ns_per_byte = 0.1;  // 10 GB/s through pinned memory
  // The host's work for a puffer train's small regions took about 58 us an
  // epoch on the H200 host (0.36 s over some 6200 epochs).
  model.host_ns_per_region = 50e3;
  return model;
}

namespace {

// Weight of the newest observation in the running averages: a handful of
// epochs, so the model follows a settling soup without jumping on noise.
constexpr double kNewWeight = 0.25;
// Smaller moves are mostly fixed costs (a region's allocation, a sync).
constexpr uint64_t kMinMigratedTiles = 1024;
// CPU generations of fewer tiles than this cost mostly what any generation
// costs (a few microseconds on the calling thread); larger ones teach the
// cost of a tile.
constexpr double kFewTilesPerGeneration = 64;

double blend(double old_value, double sample) {
  return old_value + kNewWeight * (sample - old_value);
}

// Splits an observed cost into fixed_units x fixed_each + variable_units x
// variable_each: an observation where the variable part dominates refines
// variable_each, one where the fixed part does refines fixed_each.
void refine(double nanoseconds, double fixed_units, double variable_units, double& fixed_each,
            double& variable_each) {
  if (fixed_units <= 0 || variable_units <= 0) return;
  const double fixed = fixed_each * fixed_units;
  const double variable = variable_each * variable_units;
  if (variable >= fixed) {
    variable_each = blend(variable_each, std::max(0.0, nanoseconds - fixed) / variable_units);
  } else {
    fixed_each = blend(fixed_each, std::max(0.0, nanoseconds - variable) / fixed_units);
  }
}

}  // namespace

void CostCalibration::observe_cpu(double seconds, uint64_t generations, uint64_t tile_generations) {
  if (generations == 0) return;
  const double nanoseconds = seconds * 1e9;
  const auto steps = static_cast<double>(generations);
  const auto tiles = static_cast<double>(tile_generations);
  // Attributed by the size of the steps, not by which term the model
  // already thinks larger: that choice locks in whatever the first epochs
  // taught (on the H100 machine a thousand CPU tiles came to look like
  // 90 us of fixed cost a generation and 12.5 ns a tile, so no cluster
  // seemed worth moving off the CPU).
  if (tiles < kFewTilesPerGeneration * steps) {
    model_.cpu_generation_ns =
        blend(model_.cpu_generation_ns,
              std::max(0.0, nanoseconds - tiles * model_.cpu_ns_per_tile) / steps);
  } else {
    model_.cpu_ns_per_tile =
        blend(model_.cpu_ns_per_tile,
              std::max(0.0, nanoseconds - steps * model_.cpu_generation_ns) / tiles);
  }
}

void CostCalibration::observe_region_host(double seconds, size_t regions) {
  if (regions == 0) return;
  model_.host_ns_per_region =
      blend(model_.host_ns_per_region, seconds * 1e9 / static_cast<double>(regions));
}

void CostCalibration::observe_growth(double seconds, uint64_t tiles) {
  if (tiles < kMinMigratedTiles) return;
  model_.grow_ns_per_tile =
      blend(model_.grow_ns_per_tile, seconds * 1e9 / static_cast<double>(tiles));
}

void CostCalibration::observe_migration(double seconds, uint64_t tiles) {
  if (tiles < kMinMigratedTiles) return;
  model_.migrate_ns_per_tile =
      blend(model_.migrate_ns_per_tile, seconds * 1e9 / static_cast<double>(tiles));
}

void CostCalibration::observe_gpu(double seconds, uint64_t tile_generations, size_t regions) {
  refine(seconds * 1e9, static_cast<double>(regions), static_cast<double>(tile_generations),
         model_.gpu_overhead_ns, model_.gpu_ns_per_tile);
}

bool rects_conflict(const gpu::TileRect& a, const gpu::TileRect& b, const TorusTiles& torus) {
  return spans_overlap(grown(x_span(a), 1, torus.x), x_span(b), torus.x) &&
         spans_overlap(grown(y_span(a), 1, torus.y), y_span(b), torus.y);
}

gpu::TileRect rect_cover(const gpu::TileRect& a, const gpu::TileRect& b, const TorusTiles& torus) {
  return make_rect(span_cover(x_span(a), x_span(b), torus.x),
                   span_cover(y_span(a), y_span(b), torus.y));
}

bool rect_contains(const gpu::TileRect& outer, const gpu::TileRect& inner,
                   const TorusTiles& torus) {
  return span_contains(x_span(outer), x_span(inner), torus.x) &&
         span_contains(y_span(outer), y_span(inner), torus.y);
}

bool rect_contains(const gpu::TileRect& rect, TileCoord coord, const TorusTiles& torus) {
  return rect_contains(rect, gpu::TileRect{coord.tx, coord.ty, 1, 1}, torus);
}

gpu::TileRect fit_to_torus(const gpu::TileRect& rect, const TorusTiles& torus) {
  if (!torus.is_torus()) return rect;
  if (rect.width + 2 > torus.x || rect.height + 2 > torus.y) return {0, 0, torus.x, torus.y};
  return {wrap(rect.tx, torus.x), wrap(rect.ty, torus.y), rect.width, rect.height};
}

size_t ActivityBlocks::KeyHash::operator()(TileCoord key) const {
  return std::hash<uint64_t>()(static_cast<uint64_t>(key.tx) * 0x9E3779B97F4A7C15ull ^
                               static_cast<uint64_t>(key.ty));
}

ActivityBlocks::ActivityBlocks(int64_t block_side, const TorusTiles& torus)
    : side_(block_side), torus_(torus) {}

void ActivityBlocks::add_at(TileCoord key, int64_t x, int64_t y, int64_t count) {
  merge(key, {count, x, x, y, y});
}

void ActivityBlocks::merge(TileCoord key, const Block& block) {
  const auto [it, inserted] = blocks_.try_emplace(key, block);
  if (inserted) return;
  Block& held = it->second;
  held.count += block.count;
  held.min_x = std::min(held.min_x, block.min_x);
  held.max_x = std::max(held.max_x, block.max_x);
  held.min_y = std::min(held.min_y, block.min_y);
  held.max_y = std::max(held.max_y, block.max_y);
}

void ActivityBlocks::add(TileCoord tile) {
  const TileCoord key{floor_div(tile.tx, side_), floor_div(tile.ty, side_)};
  add_at(key, tile.tx - key.tx * side_, tile.ty - key.ty * side_, 1);
}

void ActivityBlocks::add_flags(const gpu::TileRect& rect, std::span<const uint8_t> flags) {
  GOL_CHECK(flags.size() == static_cast<size_t>(rect.area()));
  const bool wraps =
      torus_.is_torus() && (rect.tx + rect.width > torus_.x || rect.ty + rect.height > torus_.y);
  if (wraps) {
    // Rare (a region across a torus's seam): tile by tile.
    for (int64_t dy = 0; dy < rect.height; ++dy) {
      for (int64_t dx = 0; dx < rect.width; ++dx) {
        if (!flags[static_cast<size_t>(dy * rect.width + dx)]) continue;
        add({wrap(rect.tx + dx, torus_.x), wrap(rect.ty + dy, torus_.y)});
      }
    }
    return;
  }
  // The blocks the rectangle spans, summed in a plain array first.
  const int64_t first_x = floor_div(rect.tx, side_);
  const int64_t first_y = floor_div(rect.ty, side_);
  const int64_t blocks_x = floor_div(rect.tx + rect.width - 1, side_) - first_x + 1;
  const int64_t blocks_y = floor_div(rect.ty + rect.height - 1, side_) - first_y + 1;
  std::vector<Block> local(static_cast<size_t>(blocks_x * blocks_y));
  for (int64_t dy = 0; dy < rect.height; ++dy) {
    const int64_t y = rect.ty + dy - first_y * side_;
    for (int64_t dx = 0; dx < rect.width; ++dx) {
      if (!flags[static_cast<size_t>(dy * rect.width + dx)]) continue;
      const int64_t x = rect.tx + dx - first_x * side_;
      Block& block = local[static_cast<size_t>(y / side_ * blocks_x + x / side_)];
      const int64_t in_x = x % side_;
      const int64_t in_y = y % side_;
      if (block.count++ == 0) {
        block = {1, in_x, in_x, in_y, in_y};
        continue;
      }
      block.min_x = std::min(block.min_x, in_x);
      block.max_x = std::max(block.max_x, in_x);
      block.min_y = std::min(block.min_y, in_y);
      block.max_y = std::max(block.max_y, in_y);
    }
  }
  for (int64_t by = 0; by < blocks_y; ++by) {
    for (int64_t bx = 0; bx < blocks_x; ++bx) {
      const Block& block = local[static_cast<size_t>(by * blocks_x + bx)];
      if (block.count > 0) merge({first_x + bx, first_y + by}, block);
    }
  }
}

gpu::TileRect ActivityBlocks::tight_rect(TileCoord key, const Block& block) const {
  return {key.tx * side_ + block.min_x, key.ty * side_ + block.min_y, block.max_x - block.min_x + 1,
          block.max_y - block.min_y + 1};
}

int64_t ActivityBlocks::count_within(const gpu::TileRect& rect,
                                     std::span<const gpu::TileRect> excluded) const {
  int64_t count = 0;
  for (const auto& [key, block] : blocks_) {
    const gpu::TileRect tight = tight_rect(key, block);
    if (!rect_contains(rect, tight, torus_)) continue;
    const bool inside_excluded = std::any_of(
        excluded.begin(), excluded.end(),
        [&](const gpu::TileRect& other) { return rect_contains(other, tight, torus_); });
    if (!inside_excluded) count += block.count;
  }
  return count;
}

std::vector<Cluster> find_clusters(const ActivityBlocks& activity, const TorusTiles& torus,
                                   const ClusterOptions& options) {
  const int64_t block = activity.block_side();
  const ActivityBlocks::Map& blocks = activity.blocks();
  std::unordered_map<TileCoord, bool, ActivityBlocks::KeyHash> visited;
  for (const auto& [key, stat] : blocks) {
    if (stat.count >= options.dense_block_tiles) visited.emplace(key, false);
  }
  // Blocks per axis on a torus, where block neighbours wrap.
  const int64_t blocks_x = torus.is_torus() ? (torus.x + block - 1) / block : 0;
  const int64_t blocks_y = torus.is_torus() ? (torus.y + block - 1) / block : 0;
  std::vector<Cluster> clusters;
  std::vector<TileCoord> queue;
  // Visiting in order of coordinates makes the clusters the same on every run.
  std::vector<TileCoord> dense;
  for (const auto& entry : visited) dense.push_back(entry.first);
  std::sort(dense.begin(), dense.end());
  for (const TileCoord& seed : dense) {
    if (visited[seed]) continue;
    visited[seed] = true;
    queue.assign(1, seed);
    Cluster cluster;
    // Breadth first, so the cover grows contiguously and stays short when
    // it wraps around a torus.
    for (size_t next = 0; next < queue.size(); ++next) {
      const TileCoord key = queue[next];
      const ActivityBlocks::Block& stat = blocks.at(key);
      const gpu::TileRect tight = activity.tight_rect(key, stat);
      cluster.rect = cluster.active_tiles == 0 ? tight : rect_cover(cluster.rect, tight, torus);
      cluster.active_tiles += stat.count;
      for (int direction = 0; direction < sparse::kDirections; ++direction) {
        TileCoord other{key.tx + sparse::kDirectionDx[direction],
                        key.ty + sparse::kDirectionDy[direction]};
        if (torus.is_torus()) other = {wrap(other.tx, blocks_x), wrap(other.ty, blocks_y)};
        const auto it = visited.find(other);
        if (it == visited.end() || it->second) continue;
        it->second = true;
        queue.push_back(other);
      }
    }
    const auto margin = [&](int64_t side) {
      return std::max(options.margin,
                      static_cast<int64_t>(options.margin_fraction * static_cast<double>(side)));
    };
    const gpu::TileRect margin_rect =
        make_rect(grown(x_span(cluster.rect), margin(cluster.rect.width), torus.x),
                  grown(y_span(cluster.rect), margin(cluster.rect.height), torus.y));
    cluster.rect = fit_to_torus(margin_rect, torus);
    if (!torus.is_torus() && !within_plane_range(cluster.rect)) continue;
    // A thin line of activity (a glider stream) spans a large square of
    // tiles that would be stepped for nothing.
    if (static_cast<double>(cluster.active_tiles) <
        options.min_fill * static_cast<double>(cluster.rect.area())) {
      continue;
    }
    clusters.push_back(cluster);
  }
  merge_conflicting(clusters, torus, [](Cluster& kept, const Cluster& merged) {
    kept.active_tiles += merged.active_tiles;
  });
  return clusters;
}

namespace {

// A glider moves one cell diagonally every four generations.
constexpr int64_t kGliderGenerationsPerCell = 4;

// The margin grown_by_fraction() adds beyond a region's cover, on its
// narrower side (grown_by_fraction's own measure, from the grown side).
int64_t growth_margin(const gpu::TileRect& grown, double fraction) {
  const auto side = static_cast<double>(std::min(grown.width, grown.height));
  return std::max<int64_t>(1, static_cast<int64_t>(fraction * side / (1 + 2 * fraction)));
}

// A region of the plan being built: a held one kept, or a new one.
struct Planned {
  gpu::TileRect rect;
  int64_t active_tiles;
  int64_t active_ghosts;
  int64_t held_index;  // -1 for a new region
};

// Active tiles of the CPU outside every planned region, block by block.
struct Straggler {
  gpu::TileRect rect;
  int64_t active_tiles;
};

std::vector<Straggler> find_stragglers(const std::vector<Planned>& plan,
                                       const ActivityBlocks& activity, const TorusTiles& torus) {
  std::vector<Straggler> stragglers;
  for (const auto& [key, block] : activity.blocks()) {
    const gpu::TileRect tight = activity.tight_rect(key, block);
    const bool inside = std::any_of(plan.begin(), plan.end(), [&](const Planned& region) {
      return rect_contains(region.rect, tight, torus);
    });
    if (!inside) stragglers.push_back({tight, block.count});
  }
  // The same plan on every run, whatever the hash map's order.
  std::sort(stragglers.begin(), stragglers.end(), [](const Straggler& a, const Straggler& b) {
    return std::pair(a.rect.ty, a.rect.tx) < std::pair(b.rect.ty, b.rect.tx);
  });
  return stragglers;
}

// Planned regions grown to take in the stragglers: each straggler joins the
// region it enlarges least, a region that grows gains `growth_fraction` of
// its side beyond them, and grown regions that come to conflict merge.
struct GrownRegion {
  gpu::TileRect rect;
  std::vector<size_t> members;  // the plan entries it replaces
  int64_t active_tiles = 0;
  bool grew = false;
  // Still exactly one planned region, kept as it was.
  bool unchanged(const std::vector<Planned>& plan) const {
    return members.size() == 1 && rect == plan[members[0]].rect;
  }
};

std::optional<std::vector<GrownRegion>> grow_over(const std::vector<Planned>& plan,
                                                  const std::vector<Straggler>& stragglers,
                                                  const TorusTiles& torus,
                                                  const PartitionOptions& options) {
  std::vector<GrownRegion> grown;
  for (size_t i = 0; i < plan.size(); ++i) {
    grown.push_back({plan[i].rect, {i}, plan[i].active_tiles});
  }
  for (const Straggler& straggler : stragglers) {
    const auto increase = [&](const GrownRegion& region) {
      return rect_cover(region.rect, straggler.rect, torus).area() - region.rect.area();
    };
    GrownRegion& best = *std::min_element(
        grown.begin(), grown.end(),
        [&](const GrownRegion& a, const GrownRegion& b) { return increase(a) < increase(b); });
    best.rect = rect_cover(best.rect, straggler.rect, torus);
    best.active_tiles += straggler.active_tiles;
    best.grew = true;
  }
  for (GrownRegion& region : grown) {
    if (!region.grew) continue;
    region.rect = grown_by_fraction(region.rect, options.growth_fraction, torus);
    if (!torus.is_torus() && !within_plane_range(region.rect)) return std::nullopt;
  }
  merge_conflicting(grown, torus, [](GrownRegion& kept, const GrownRegion& merged) {
    kept.members.insert(kept.members.end(), merged.members.begin(), merged.members.end());
    kept.active_tiles += merged.active_tiles;
  });
  return grown;
}

// The planned regions grown over `stragglers`, when that pays: returns
// whether `plan` changed. `saves` says what moving them saves the CPU.
enum class Saves { kEverything, kTheirTiles };

bool absorb(std::vector<Planned>& plan, const std::vector<Straggler>& stragglers,
            int64_t all_straggling, Saves saves, const CostModel& costs, int generations,
            const TorusTiles& torus, const PartitionOptions& options) {
  int64_t straggling = 0;
  for (const Straggler& straggler : stragglers) straggling += straggler.active_tiles;
  const std::optional<std::vector<GrownRegion>> grown = grow_over(plan, stragglers, torus, options);
  if (!grown) return false;
  double gpu_ns = 0;
  for (const Planned& region : plan) {
    gpu_ns += costs.gpu_epoch_ns(region.rect, torus, generations, region.active_ghosts);
  }
  double grown_ns = 0;
  double move_ns = 0;
  // The thinnest margin a grown region gains beyond the stragglers.
  int64_t margin_tiles = std::numeric_limits<int64_t>::max();
  for (const GrownRegion& region : *grown) {
    const bool unchanged = region.unchanged(plan);
    const int64_t ghosts = unchanged ? plan[region.members[0]].active_ghosts : 0;
    grown_ns += costs.gpu_epoch_ns(region.rect, torus, generations, ghosts);
    if (!unchanged) {
      std::vector<gpu::TileRect> members;
      for (size_t member : region.members) members.push_back(plan[member].rect);
      move_ns += costs.move_ns(region.rect, members);
      margin_tiles = std::min(margin_tiles, growth_margin(region.rect, options.growth_fraction));
    }
  }
  const double extra_ns = grown_ns - gpu_ns;
  bool pays = false;
  double saved_ns = 0;
  double payback_epochs = options.amortize_epochs;
  if (saves == Saves::kEverything) {
    saved_ns = costs.cpu_side_ns(straggling, generations) - extra_ns;
    pays = extra_ns <= options.create_ratio * (saved_ns + extra_ns);
  } else {
    // The CPU still steps the rest, beside the GPU: what counts is the
    // longer side of the epoch, before and after.
    const double before = std::max(costs.cpu_side_ns(all_straggling, generations), gpu_ns);
    saved_ns =
        before - std::max(costs.cpu_side_ns(all_straggling - straggling, generations), grown_ns);
    pays = saved_ns >= options.min_epoch_saving * before;
    // Stragglers left behind mean debris flying outwards, and gliders, the
    // commonest, take kGliderGenerationsPerCell a cell: the region's new
    // margin holds them, and keeps saving, for that long.
    const double margin_generations =
        static_cast<double>(margin_tiles) * kTileSize * kGliderGenerationsPerCell;
    payback_epochs = std::max(payback_epochs, margin_generations / generations);
  }
  const bool earns_its_move = saved_ns * payback_epochs >= move_ns;
  if (!pays || !earns_its_move) return false;
  std::vector<Planned> absorbed;
  for (const GrownRegion& region : *grown) {
    if (region.unchanged(plan)) {
      absorbed.push_back(plan[region.members[0]]);
    } else {
      absorbed.push_back({region.rect, region.active_tiles, 0, -1});
    }
  }
  plan = std::move(absorbed);
  return true;
}

// When the regions can take in every active tile the CPU has left, the CPU
// has no generation to step at all: its cost per generation (dispatch,
// planning), which no single cluster's move saves, is saved too. A glider
// stream leaving a soup is too thin to be a cluster of its own, but this way
// its soup's region follows it while that is cheaper than the CPU's steps.
// Failing that, the regions may take in the stragglers near them: a large
// soup's escaping gliders, with its faster ships far ahead of them, are too
// spread for one region, but the shell of them just beyond the soup's region
// is cheaper on the GPU, which is mostly idle beside a CPU stepping them.
void absorb_stragglers(std::vector<Planned>& plan, const ActivityBlocks& activity,
                       const CostModel& costs, int generations, const TorusTiles& torus,
                       const PartitionOptions& options) {
  if (plan.empty()) return;
  const std::vector<Straggler> stragglers = find_stragglers(plan, activity, torus);
  if (stragglers.empty()) return;
  int64_t straggling = 0;
  for (const Straggler& straggler : stragglers) straggling += straggler.active_tiles;
  if (absorb(plan, stragglers, straggling, Saves::kEverything, costs, generations, torus,
             options)) {
    return;
  }
  std::vector<Straggler> near;
  for (const Straggler& straggler : stragglers) {
    const bool within_reach = std::any_of(plan.begin(), plan.end(), [&](const Planned& region) {
      return rect_contains(grown_by_fraction(region.rect, options.growth_fraction, torus),
                           straggler.rect, torus);
    });
    if (within_reach) near.push_back(straggler);
  }
  if (near.empty() || near.size() == stragglers.size()) return;
  absorb(plan, near, straggling, Saves::kTheirTiles, costs, generations, torus, options);
}

}  // namespace

PartitionPlan plan_partition(std::span<const HeldRegion> held, std::span<const Cluster> clusters,
                             const ActivityBlocks& activity, const CostModel& costs,
                             int generations, const TorusTiles& torus,
                             const PartitionOptions& options) {
  // The two sides of an epoch as held now: the CPU's active tiles (all the
  // activity but the regions' flags) and every region.
  int64_t cpu_active = 0;
  for (const auto& [key, block] : activity.blocks()) cpu_active += block.count;
  double gpu_side = 0;
  for (const HeldRegion& region : held) {
    cpu_active -= region.changed_tiles;
    gpu_side += costs.gpu_epoch_ns(region.rect, torus, generations, region.active_ghosts);
  }
  std::vector<Planned> plan;
  for (size_t i = 0; i < held.size(); ++i) {
    const HeldRegion& region = held[i];
    if (region.changed_tiles == 0) continue;  // asleep: the CPU holds it for free
    const double on_gpu = costs.gpu_epoch_ns(region.rect, torus, generations, region.active_ghosts);
    const double on_cpu = costs.cpu_epoch_ns(region.changed_tiles, generations);
    // A sparse region goes back, unless the CPU is busy already and taking
    // it on would make the epoch longer: beside a CPU that is the longer
    // side, the GPU's time is free.
    const bool sparse =
        region.epochs_held >= options.min_epochs_held && on_gpu > options.keep_ratio * on_cpu;
    const bool lengthens =
        cpu_active > 0 && costs.cpu_side_ns(cpu_active + region.changed_tiles, generations) >
                              std::max(costs.cpu_side_ns(cpu_active, generations), gpu_side);
    if (sparse && !lengthens) {
      gpu_side -= on_gpu;
      cpu_active += region.changed_tiles;
      continue;
    }
    plan.push_back(
        {region.rect, region.changed_tiles, region.active_ghosts, static_cast<int64_t>(i)});
  }
  for (const Cluster& cluster : clusters) {
    std::vector<Planned> absorbed;
    gpu::TileRect rect = cluster.rect;
    bool contained = false;
    // Absorbs every planned region the growing rectangle touches.
    const auto absorb = [&] {
      for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < plan.size(); ++i) {
          if (!rects_conflict(rect, plan[i].rect, torus)) continue;
          contained = contained || (absorbed.empty() && rect_contains(plan[i].rect, rect, torus));
          rect = fit_to_torus(rect_cover(rect, plan[i].rect, torus), torus);
          absorbed.push_back(plan[i]);
          plan.erase(plan.begin() + static_cast<std::ptrdiff_t>(i));
          grew = true;
          break;
        }
      }
    };
    absorb();
    const auto restore = [&] { plan.insert(plan.end(), absorbed.begin(), absorbed.end()); };
    if (contained && absorbed.size() == 1) {
      restore();  // activity inside a region it already has
      continue;
    }
    if (!absorbed.empty()) {
      // A region that grows once tends to grow again (a soup's fringe
      // creeps on): growing by a fraction of its side makes the round
      // trips of a steadily growing cluster few, as a vector's doubling does.
      rect = grown_by_fraction(rect, options.growth_fraction, torus);
      if (!torus.is_torus() && !within_plane_range(rect)) {
        restore();
        continue;
      }
      absorb();
    }
    double absorbed_ns = 0;
    int64_t absorbed_active = 0;
    for (const Planned& region : absorbed) {
      absorbed_ns += costs.gpu_epoch_ns(region.rect, torus, generations, region.active_ghosts);
      absorbed_active += region.active_tiles;
    }
    // What moves is the activity outside the absorbed regions; the regions'
    // own cost is paid either way.
    std::vector<gpu::TileRect> absorbed_rects;
    for (const Planned& region : absorbed) absorbed_rects.push_back(region.rect);
    const int64_t moving =
        absorbed.empty() ? cluster.active_tiles : activity.count_within(rect, absorbed_rects);
    const double extra_ns = costs.gpu_epoch_ns(rect, torus, generations, 0) - absorbed_ns;
    // A region leaving the CPU no more than a few active tiles also saves
    // most of what a CPU generation costs beyond its tiles (the crew's
    // passes, the strips' exchanges: learnt at 10-15 us on hybrid-standin
    // with 8 or 16 threads), without which the breeder's one cluster did
    // not pay its move on 16 threads until generation 8191 of 12000 there,
    // and never on the 16-core device host.
    const bool empties_cpu = cpu_active - moving < static_cast<int64_t>(kFewTilesPerGeneration);
    const double cpu_ns = empties_cpu ? costs.cpu_side_ns(moving, generations)
                                      : costs.cpu_epoch_ns(moving, generations);
    const bool earns_its_move =
        (cpu_ns - extra_ns) * options.amortize_epochs >= costs.move_ns(rect, absorbed_rects);
    if (moving > 0 && extra_ns <= options.create_ratio * cpu_ns && earns_its_move) {
      plan.push_back({rect, moving + absorbed_active, 0, -1});
      cpu_active -= moving;
    } else {
      restore();
    }
  }
  absorb_stragglers(plan, activity, costs, generations, torus, options);
  PartitionPlan result;
  std::vector<bool> kept(held.size(), false);
  for (size_t i = 0; i < plan.size(); ++i) {
    for (size_t j = i + 1; j < plan.size(); ++j) {
      GOL_CHECK(!rects_conflict(plan[i].rect, plan[j].rect, torus));
    }
    if (plan[i].held_index >= 0) {
      kept[static_cast<size_t>(plan[i].held_index)] = true;
    } else {
      result.add.push_back(plan[i].rect);
    }
  }
  for (size_t i = 0; i < held.size(); ++i) {
    if (!kept[i]) result.release.push_back(i);
  }
  return result;
}

}  // namespace gol::hybrid
