// Region geometry, the checks on new regions and transfer accounting shared
// by both tile pools.
#include "gpu/tile_pool_region.h"

#include "engine/core/error.h"

namespace gol::gpu {
namespace {

// Offset of `value` from `origin` along one axis: wrapped into [0, modulus)
// on a torus (modulus > 0), plain difference on the plane.
int64_t axis_offset(int64_t value, int64_t origin, int64_t modulus) {
  return modulus > 0 ? wrap(value - origin, modulus) : value - origin;
}

// Whether [a, a + a_length) and [b, b + b_length) share a value, modulo
// `modulus` on a torus. Lengths never exceed the modulus.
bool intervals_overlap(int64_t a, int64_t a_length, int64_t b, int64_t b_length, int64_t modulus) {
  if (modulus > 0) {
    return wrap(b - a, modulus) < a_length || wrap(a - b, modulus) < b_length;
  }
  return a < b + b_length && b < a + a_length;
}

bool rects_overlap(const TileRect& a, const TileRect& b, const RegionGeometry& topology) {
  return intervals_overlap(a.tx, a.width, b.tx, b.width, topology.torus_tiles_x) &&
         intervals_overlap(a.ty, a.height, b.ty, b.height, topology.torus_tiles_y);
}

}  // namespace

int64_t RegionGeometry::position_of(TileCoord coord) const {
  const int64_t dx = axis_offset(coord.tx, extended.tx, torus_tiles_x);
  const int64_t dy = axis_offset(coord.ty, extended.ty, torus_tiles_y);
  if (dx < 0 || dx >= extended.width || dy < 0 || dy >= extended.height) return -1;
  return dy * extended.width + dx;
}

bool RegionGeometry::is_owned(int64_t position) const {
  if (wraps) return true;
  const int64_t dx = position % extended.width;
  const int64_t dy = position / extended.width;
  return dx >= 1 && dx <= owned.width && dy >= 1 && dy <= owned.height;
}

int64_t RegionGeometry::owned_index(int64_t position) const {
  if (wraps) return position;
  return (position / extended.width - 1) * owned.width + position % extended.width - 1;
}

std::vector<int64_t> kept_positions(const RegionGeometry& from, const RegionGeometry& to) {
  std::vector<int64_t> kept(static_cast<size_t>(to.positions()), -1);
  for (const int64_t position : from.owned_positions()) {
    const TileCoord coord{from.extended.tx + position % from.extended.width,
                          from.extended.ty + position / from.extended.width};
    const int64_t there = to.position_of(coord);
    GOL_CHECK(there >= 0 && to.is_owned(there));
    kept[static_cast<size_t>(there)] = position;
  }
  return kept;
}

std::vector<int64_t> RegionGeometry::owned_positions() const {
  std::vector<int64_t> positions;
  positions.reserve(static_cast<size_t>(owned.area()));
  const int64_t ring = wraps ? 0 : 1;
  for (int64_t y = 0; y < owned.height; ++y) {
    for (int64_t x = 0; x < owned.width; ++x) {
      positions.push_back((y + ring) * extended.width + x + ring);
    }
  }
  return positions;
}

RegionGeometry make_region_geometry(const TileRect& owned, int64_t torus_tiles_x,
                                    int64_t torus_tiles_y) {
  GOL_CHECK(owned.width > 0 && owned.height > 0);
  GOL_CHECK((torus_tiles_x > 0) == (torus_tiles_y > 0));
  RegionGeometry region;
  region.owned = owned;
  region.torus_tiles_x = torus_tiles_x;
  region.torus_tiles_y = torus_tiles_y;
  if (torus_tiles_x > 0) {
    GOL_CHECK(owned.tx >= 0 && owned.tx < torus_tiles_x && owned.ty >= 0 &&
              owned.ty < torus_tiles_y);
    GOL_CHECK(owned.width <= torus_tiles_x && owned.height <= torus_tiles_y);
    // A ring that would meet itself around the torus cannot be a ring.
    if (owned.width + 2 > torus_tiles_x || owned.height + 2 > torus_tiles_y) {
      GOL_CHECK(owned.width == torus_tiles_x && owned.height == torus_tiles_y);
      region.wraps = true;
    }
  }
  region.extended = region.wraps
                        ? owned
                        : TileRect{owned.tx - 1, owned.ty - 1, owned.width + 2, owned.height + 2};
  if (torus_tiles_x > 0) {
    region.extended.tx = wrap(region.extended.tx, torus_tiles_x);
    region.extended.ty = wrap(region.extended.ty, torus_tiles_y);
  }
  return region;
}

bool regions_conflict(const RegionGeometry& a, const RegionGeometry& b) {
  return rects_overlap(a.extended, b.owned, a) || rects_overlap(b.extended, a.owned, a);
}

UploadPlan plan_upload(const RegionGeometry& region, std::span<const TileCoord> coords,
                       size_t current_count, size_t previous_count) {
  GOL_CHECK(current_count == coords.size());
  GOL_CHECK(previous_count == 0 || previous_count == coords.size());
  UploadPlan plan;
  plan.positions.reserve(coords.size());
  for (const TileCoord& coord : coords) {
    const int64_t position = region.position_of(coord);
    GOL_CHECK(position >= 0);
    plan.positions.push_back(position);
    plan.staged_tiles += 1 + (previous_count > 0 && region.is_owned(position) ? 1 : 0);
  }
  return plan;
}

std::vector<int64_t> plan_download(const RegionGeometry& region, std::span<const TileCoord> coords,
                                   size_t current_count, size_t previous_count) {
  GOL_CHECK(current_count == coords.size());
  GOL_CHECK(previous_count == 0 || previous_count == coords.size());
  std::vector<int64_t> positions;
  positions.reserve(coords.size());
  for (const TileCoord& coord : coords) {
    const int64_t position = region.position_of(coord);
    GOL_CHECK(position >= 0 && region.is_owned(position));
    positions.push_back(position);
  }
  return positions;
}

void count_upload(TilePoolStats& stats, uint64_t staged_tiles) {
  stats.bytes_uploaded += staged_tiles * (sizeof(Tile) + kSlotIndexBytes);
}

void count_download(TilePoolStats& stats, uint64_t gathered_tiles) {
  stats.bytes_uploaded += gathered_tiles * kSlotIndexBytes;
  stats.bytes_downloaded += gathered_tiles * sizeof(Tile);
}

void count_activity(TilePoolStats& stats, const RegionGeometry& region) {
  stats.bytes_downloaded +=
      static_cast<uint64_t>(region.owned.area()) * kActivityFlagBytes + kPopulationBytes;
}

}  // namespace gol::gpu
