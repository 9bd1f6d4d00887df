// The CPU stand-in for the device tile pool: the same regions, rings,
// epochs, history, activity and transfer accounting as the CUDA pool, with
// vectors of tiles instead of device memory and the SIMD tile kernel
// (cpu/simd) instead of CUDA. The epoch runs inside step_async(), so wait()
// has nothing left to do; the protocol is still checked, so schedulers
// tested against the stand-in in CI obey what the CUDA pool needs.
#include <map>
#include <utility>

#include "cpu/simd/tile_step.h"
#include "engine/core/error.h"
#include "gpu/tile_pool_region.h"

namespace gol::gpu {
namespace {

struct StandinRegion {
  RegionGeometry geometry;
  std::vector<Tile> current;   // generation t, by position
  std::vector<Tile> previous;  // generation t-1 (owned positions only)
  RegionActivity activity;
};

const Tile kDeadTile{};

// The 3x3 neighbourhoods of every position at the current generation: dead
// tiles beyond the ring, or the wrapped rectangle on a whole torus.
std::vector<cpu::TileNeighbourhood> neighbourhoods(const StandinRegion& region) {
  const TileRect& rect = region.geometry.extended;
  std::vector<cpu::TileNeighbourhood> in(region.current.size());
  for (int64_t y = 0; y < rect.height; ++y) {
    for (int64_t x = 0; x < rect.width; ++x) {
      cpu::TileNeighbourhood& tiles = in[static_cast<size_t>(y * rect.width + x)];
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          int64_t nx = x + dx;
          int64_t ny = y + dy;
          if (region.geometry.wraps) {
            nx = wrap(nx, rect.width);
            ny = wrap(ny, rect.height);
          }
          const bool inside = nx >= 0 && nx < rect.width && ny >= 0 && ny < rect.height;
          tiles.at[dy + 1][dx + 1] =
              inside ? &region.current[static_cast<size_t>(ny * rect.width + nx)] : &kDeadTile;
        }
      }
    }
  }
  return in;
}

// One generation over the whole rectangle+ring, written over t-1 so that
// `changes` compares the new generation with the one two before it.
void step_once(StandinRegion& region, const Rule& rule, std::vector<TileChange>& changes) {
  const std::vector<cpu::TileNeighbourhood> in = neighbourhoods(region);
  std::vector<Tile*> targets(region.previous.size());
  for (size_t i = 0; i < targets.size(); ++i) targets[i] = &region.previous[i];
  cpu::step_tiles_over(in.data(), targets.data(), changes.data(), in.size(), rule,
                       cpu::SimdLibrary::kHighway);
  std::swap(region.current, region.previous);
}

void note_activity(StandinRegion& region, const std::vector<TileChange>& changes) {
  RegionActivity& activity = region.activity;
  activity.population = 0;
  const std::vector<int64_t> owned = region.geometry.owned_positions();
  for (size_t i = 0; i < owned.size(); ++i) {
    const size_t position = static_cast<size_t>(owned[i]);
    activity.changed[i] = changes[position].changed_columns != 0;
    activity.nonempty[i] = changes[position].live_columns != 0;
    activity.population += region.current[position].population();
  }
}

// Ghost results are wrong near the ring's far edge; dropping them means the
// next epoch sees only what is uploaded for it.
void clear_ring(StandinRegion& region) {
  for (int64_t position = 0; position < region.geometry.positions(); ++position) {
    if (region.geometry.is_owned(position)) continue;
    region.current[static_cast<size_t>(position)] = Tile{};
    region.previous[static_cast<size_t>(position)] = Tile{};
  }
}

class StandinTilePool final : public TilePool {
 public:
  std::string name() const override { return "cpu-standin"; }

  void reset(const Rule& rule, int64_t torus_tiles_x, int64_t torus_tiles_y) override {
    GOL_CHECK(!pending_);
    downloads_queued_ = false;
    if (torus_tiles_x == 0 && rule.births_on_zero()) {
      throw InputError("rules with B0 cannot run on tiles of the plane");
    }
    rule_ = rule;
    torus_tiles_x_ = torus_tiles_x;
    torus_tiles_y_ = torus_tiles_y;
    regions_.clear();
    stats_ = {};
  }

  int add_region(const TileRect& owned) override {
    GOL_CHECK(!pending_ && !downloads_queued_);
    const int id = next_id_++;
    regions_.emplace(id, empty_region(owned, id));
    return id;
  }

  void grow_region(int region_id, const TileRect& owned) override {
    GOL_CHECK(!pending_ && !downloads_queued_);
    StandinRegion& region = find(region_id);
    StandinRegion grown = empty_region(owned, region_id);
    const std::vector<int64_t> kept = kept_positions(region.geometry, grown.geometry);
    for (size_t p = 0; p < kept.size(); ++p) {
      if (kept[p] < 0) continue;
      grown.current[p] = region.current[static_cast<size_t>(kept[p])];
      grown.previous[p] = region.previous[static_cast<size_t>(kept[p])];
    }
    region = std::move(grown);
  }

  void remove_region(int region) override {
    GOL_CHECK(!pending_ && !downloads_queued_);
    GOL_CHECK(regions_.erase(region) == 1);
  }

  void upload(int region_id, std::span<const TileCoord> coords, std::span<const Tile> current,
              std::span<const Tile> previous) override {
    GOL_CHECK(!pending_);
    StandinRegion& region = find(region_id);
    const UploadPlan plan = plan_upload(region.geometry, coords, current.size(), previous.size());
    ScopedSeconds timer(stats_.transfer_seconds);
    for (size_t i = 0; i < coords.size(); ++i) {
      const int64_t position = plan.positions[i];
      region.current[static_cast<size_t>(position)] = current[i];
      if (region.geometry.is_owned(position)) {
        region.previous[static_cast<size_t>(position)] =
            previous.empty() ? current[i] : previous[i];
      }
    }
    count_upload(stats_, plan.staged_tiles);
  }

  void step_async(int generations) override {
    GOL_CHECK(!pending_);
    GOL_CHECK(epoch_length_allowed(generations, regions_));
    ScopedSeconds timer(stats_.device_seconds);
    for (auto& [id, region] : regions_) {
      std::vector<TileChange> changes(region.current.size());
      for (int g = 0; g < generations; ++g) step_once(region, rule_, changes);
      note_activity(region, changes);
      clear_ring(region);
      stats_.cells_computed += static_cast<uint64_t>(region.geometry.positions()) *
                               static_cast<uint64_t>(generations) * kTileSize * kTileSize;
    }
    ++stats_.epochs;
    pending_ = true;
  }

  void wait() override { pending_ = false; }

  void download(int region_id, std::span<const TileCoord> coords, std::span<Tile> current,
                std::span<Tile> previous) override {
    GOL_CHECK(!pending_);
    const StandinRegion& region = find(region_id);
    const std::vector<int64_t> positions =
        plan_download(region.geometry, coords, current.size(), previous.size());
    ScopedSeconds timer(stats_.transfer_seconds);
    for (size_t i = 0; i < positions.size(); ++i) {
      current[i] = region.current[static_cast<size_t>(positions[i])];
      if (!previous.empty()) previous[i] = region.previous[static_cast<size_t>(positions[i])];
    }
    count_download(stats_, positions.size() * (previous.empty() ? 1 : 2));
  }

  // The stand-in steps inside step_async(), so the tiles are read at once:
  // they are what a queued copy would have read.
  void download_async(int region_id, std::span<const TileCoord> coords, std::span<Tile> current,
                      std::span<Tile> previous) override {
    download(region_id, coords, current, previous);
    downloads_queued_ = true;
  }

  void finish_downloads() override { downloads_queued_ = false; }

  // Read at once, as download_async() reads its tiles.
  void activity_async(int region_id, RegionActivity& out) override {
    GOL_CHECK(!pending_);
    const StandinRegion& region = find(region_id);
    count_activity(stats_, region.geometry);
    out = region.activity;
    downloads_queued_ = true;
  }

  // The queued path, collected at once, as the CUDA pool does it.
  RegionActivity activity(int region_id) override {
    GOL_CHECK(!pending_ && !downloads_queued_);
    RegionActivity activity;
    activity_async(region_id, activity);
    finish_downloads();
    return activity;
  }

  TilePoolStats stats() const override { return stats_; }

 private:
  // A region owning `owned`, all dead, checked against the regions other
  // than `id`.
  StandinRegion empty_region(const TileRect& owned, int id) const {
    RegionGeometry geometry = make_region_geometry(owned, torus_tiles_x_, torus_tiles_y_);
    check_no_conflict(geometry, regions_, id);
    const auto positions = static_cast<size_t>(geometry.positions());
    const auto owned_tiles = static_cast<size_t>(owned.area());
    return {
        std::move(geometry), std::vector<Tile>(positions), std::vector<Tile>(positions),
        RegionActivity{std::vector<uint8_t>(owned_tiles), std::vector<uint8_t>(owned_tiles), 0}};
  }

  StandinRegion& find(int region) {
    const auto it = regions_.find(region);
    GOL_CHECK(it != regions_.end());
    return it->second;
  }

  Rule rule_;
  int64_t torus_tiles_x_ = 0;
  int64_t torus_tiles_y_ = 0;
  std::map<int, StandinRegion> regions_;
  int next_id_ = 0;
  bool pending_ = false;
  bool downloads_queued_ = false;
  TilePoolStats stats_;
};

}  // namespace

std::unique_ptr<TilePool> make_standin_tile_pool() { return std::make_unique<StandinTilePool>(); }

}  // namespace gol::gpu
