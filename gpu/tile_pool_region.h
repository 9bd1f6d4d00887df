// What the CUDA pool and its CPU stand-in share: the geometry of a region
// (its owned rectangle, the ring around it, wrapping on a whole torus), the
// checks on new regions and the transfer accounting, so both pools accept
// the same calls and report the same bytes. Plain C++.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/tile.h"
#include "gpu/tile_pool.h"

namespace gol::gpu {

// A region's tiles are numbered row-major over `extended` (the owned
// rectangle plus its ring, or the owned rectangle alone when it wraps):
// position = dy * extended.width + dx.
struct RegionGeometry {
  TileRect owned;
  TileRect extended;
  bool wraps = false;         // the region is the whole torus
  int64_t torus_tiles_x = 0;  // 0 on the plane
  int64_t torus_tiles_y = 0;

  int64_t positions() const { return extended.area(); }
  // The position of `coord`, or -1 when it lies outside the rectangle+ring.
  int64_t position_of(TileCoord coord) const;
  bool is_owned(int64_t position) const;
  // Index of an owned position in row-major order over the owned rectangle.
  int64_t owned_index(int64_t position) const;
  // The positions of the owned tiles, in owned_index order.
  std::vector<int64_t> owned_positions() const;
};

// For each position of `to`, a region grown from `from` (its owned
// rectangle holding all of `from`'s, checked), the owned position of `from`
// whose tiles it keeps, or -1 where it starts empty (new tiles and ring).
std::vector<int64_t> kept_positions(const RegionGeometry& from, const RegionGeometry& to);

// Checks `owned` against the topology (aborting on a caller's logic error:
// empty rectangle, coordinates outside the torus, a ring that would wrap
// onto itself) and lays out its positions.
RegionGeometry make_region_geometry(const TileRect& owned, int64_t torus_tiles_x,
                                    int64_t torus_tiles_y);

// Whether either region's rectangle+ring overlaps the other's owned tiles,
// which the pool refuses: a ring must hold CPU tiles only.
bool regions_conflict(const RegionGeometry& a, const RegionGeometry& b);

// Checks (aborting) that `geometry` conflicts with none of `regions`, a map
// from ids to regions with a RegionGeometry `geometry`, but the one with id
// `except` (-1 for none): the region it replaces when it grows.
template <class Regions>
void check_no_conflict(const RegionGeometry& geometry, const Regions& regions, int except) {
  for (const auto& [id, other] : regions) {
    if (id != except) GOL_CHECK(!regions_conflict(geometry, other.geometry));
  }
}

// Whether an epoch of `generations` may run (TilePool::step_async) on the
// `regions`, a map from ids to regions with a RegionGeometry `geometry`.
template <class Regions>
bool epoch_length_allowed(int generations, const Regions& regions) {
  if (generations < 1) return false;
  if (generations <= kMaxEpochGenerations) return true;
  return regions.size() == 1 && regions.begin()->second.geometry.wraps;
}

// Transfer accounting (see tile_pool.h): a tile crosses the bus with its
// 4-byte slot index.
inline constexpr uint64_t kSlotIndexBytes = 4;
inline constexpr uint64_t kActivityFlagBytes = 4;
inline constexpr uint64_t kPopulationBytes = 8;

// The tile images an upload stages: every current tile, and the previous
// tile of each owned one when `previous` is given.
struct UploadPlan {
  std::vector<int64_t> positions;  // one per coord, checked
  uint64_t staged_tiles = 0;
};
UploadPlan plan_upload(const RegionGeometry& region, std::span<const TileCoord> coords,
                       size_t current_count, size_t previous_count);
// The positions of owned tiles to download, checked.
std::vector<int64_t> plan_download(const RegionGeometry& region, std::span<const TileCoord> coords,
                                   size_t current_count, size_t previous_count);

void count_upload(TilePoolStats& stats, uint64_t staged_tiles);
void count_download(TilePoolStats& stats, uint64_t gathered_tiles);
void count_activity(TilePoolStats& stats, const RegionGeometry& region);

// Adds the wall time of its scope to `total` (host-side timing of copies
// and of the stand-in's stepping).
class ScopedSeconds {
 public:
  explicit ScopedSeconds(double& total) : total_(total) {}
  ~ScopedSeconds() {
    total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  ScopedSeconds(const ScopedSeconds&) = delete;
  ScopedSeconds& operator=(const ScopedSeconds&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The two pools behind make_tile_pool(); the CUDA one exists only in builds
// with GOL_HAVE_CUDA and throws RuntimeError where no device is usable.
std::unique_ptr<TilePool> make_standin_tile_pool();
std::unique_ptr<TilePool> make_cuda_tile_pool();

}  // namespace gol::gpu
