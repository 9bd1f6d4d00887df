// The CUDA tile pool: tiles resident in three device arrays of 512-byte
// slots (layout in gpu/tile_field.cuh), each region a table from its
// rectangle+ring positions to slots. Transfers are batched through pinned
// staging buffers with one scatter or gather kernel per batch; an epoch is a
// few launches of the multi-step kernel per region reading and writing the
// slots through the table, on one stream, timed by CUDA events.
//
// Three arrays because an epoch must end with t+k and t+k-1 (the history
// the CPU side needs) and compare t+k with t+k-2 (activity) while no launch
// writes the array it reads: see plan_epoch().
#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <utility>

#include "engine/core/error.h"
#include "gpu/device_memory.cuh"
#include "gpu/gpu_backend.h"
#include "gpu/kernel_config.cuh"
#include "gpu/kernels.cuh"
#include "gpu/tile_field.cuh"
#include "gpu/tile_pool_region.h"

namespace gol::gpu {
namespace {

// A staged tile's entry: its slot shifted left by two, and which arrays it
// goes to or comes from (the current generation, t-1, or both).
constexpr uint32_t kToCurrent = 1u;
constexpr uint32_t kToPrevious = 2u;
constexpr int kEntrySlotShift = 2;
constexpr int64_t kMaxSlots = int64_t{1} << (32 - kEntrySlotShift);

// One warp a tile, one 16-byte vector a lane.
constexpr int kTileVectors = sizeof(Tile) / sizeof(uint4);
static_assert(kTileVectors == 32, "a warp moves one tile");
constexpr int kCopyThreads = 256;

unsigned copy_blocks(int64_t tiles) {
  return static_cast<unsigned>((tiles * 32 + kCopyThreads - 1) / kCopyThreads);
}

__global__ void scatter_tiles(const uint32_t* entries, const uint4* staged, uint4* current,
                              uint4* previous, int64_t count) {
  const int64_t tile = (int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (tile >= count) return;
  const uint32_t entry = entries[tile];
  const size_t at = static_cast<size_t>(entry >> kEntrySlotShift) * kTileVectors + lane;
  const uint4 value = staged[tile * kTileVectors + lane];
  if (entry & kToCurrent) current[at] = value;
  if (entry & kToPrevious) previous[at] = value;
}

__global__ void gather_tiles(const uint32_t* entries, const uint4* current, const uint4* previous,
                             uint4* staged, int64_t count) {
  const int64_t tile = (int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (tile >= count) return;
  const uint32_t entry = entries[tile];
  const uint4* from = (entry & kToPrevious) ? previous : current;
  staged[tile * kTileVectors + lane] =
      from[static_cast<size_t>(entry >> kEntrySlotShift) * kTileVectors + lane];
}

// Empties the listed slots in all three arrays (ring marks ignored).
__global__ void zero_tiles(const uint32_t* table, int64_t count, uint4* a, uint4* b, uint4* c) {
  const int64_t tile = (int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (tile >= count) return;
  const size_t at = static_cast<size_t>(table[tile] & ~kRingTile) * kTileVectors + lane;
  const uint4 zero{0, 0, 0, 0};
  a[at] = zero;
  b[at] = zero;
  c[at] = zero;
}

// One launch of an epoch: arrays by index (0..2), -1 for none.
struct Launch {
  int generations;
  int src;
  int dst;
  int before_last;
  bool last;
};

struct EpochPlan {
  std::vector<Launch> launches;
  int current;   // the array holding t+k afterwards
  int previous;  // t+k-1
};

// Launches of at most kMultiStepGenerations, the last one of at
// least 2 generations whenever k >= 2, so that it can leave t+k-1 and t+k
// and find t+k-2 (TiledField). Earlier launches may overwrite t-1: only a
// 1-generation epoch needs it, as t+k-2.
EpochPlan plan_epoch(int generations, int current, int previous) {
  constexpr int kPerLaunch = kMultiStepGenerations;
  const int count = (generations + kPerLaunch - 1) / kPerLaunch;
  std::vector<int> sizes(static_cast<size_t>(count), kPerLaunch);
  sizes.back() = generations - kPerLaunch * (count - 1);
  if (count > 1 && sizes.back() == 1) {
    sizes[sizes.size() - 2] -= 1;
    sizes.back() = 2;
  }
  EpochPlan plan;
  int src = current;
  for (int i = 0; i + 1 < count; ++i) {
    const int dst = (src + 1) % 3;
    plan.launches.push_back({sizes[static_cast<size_t>(i)], src, dst, -1, false});
    src = dst;
  }
  const int last = sizes.back();
  if (last == 1) {
    plan.launches.push_back({1, src, previous, -1, true});
    plan.current = previous;
    plan.previous = src;
  } else {
    const int before_last = (src + 1) % 3;
    const int dst = (src + 2) % 3;
    plan.launches.push_back({last, src, dst, before_last, true});
    plan.current = dst;
    plan.previous = before_last;
  }
  return plan;
}

struct DeviceRegion {
  RegionGeometry geometry;
  std::vector<uint32_t> slots;           // by position
  DeviceBuffer<uint32_t> table;          // slots, kRingTile on ring positions
  int64_t first_slot = -1;               // >= 0: slots[p] == first_slot + p
  DeviceBuffer<uint32_t> activity;       // tile_field.cuh: population, then flags
  PinnedBuffer<uint32_t> activity_host;  // where activity_async() copies it
  size_t activity_words() const {
    return kActivityHeaderWords + static_cast<size_t>(geometry.owned.area());
  }
};

// A region's activity buffer as the host reads it (tile_field.cuh).
RegionActivity read_activity(const uint32_t* words, size_t count) {
  RegionActivity activity;
  std::memcpy(&activity.population, words, sizeof activity.population);
  const size_t owned = count - kActivityHeaderWords;
  activity.changed.resize(owned);
  activity.nonempty.resize(owned);
  for (size_t i = 0; i < owned; ++i) {
    const uint32_t flags = words[kActivityHeaderWords + i];
    activity.changed[i] = (flags & kTileChanged) != 0;
    activity.nonempty[i] = (flags & kTileNonempty) != 0;
  }
  return activity;
}

// Pinned and device staging of one batch: `tiles` entries, then the tiles
// from the next 512-byte boundary, so that a batch crosses in one copy.
struct Staging {
  uint32_t* host_entries;
  Tile* host_tiles;
  uint32_t* device_entries;
  uint4* device_tiles;
  size_t tiles_offset;
  size_t bytes(size_t tiles) const { return tiles_offset + tiles * sizeof(Tile); }
};

size_t tiles_offset(size_t tiles) {
  return (tiles * sizeof(uint32_t) + sizeof(Tile) - 1) / sizeof(Tile) * sizeof(Tile);
}

class CudaTilePool final : public TilePool {
 public:
  std::string name() const override { return "cuda"; }

  void reset(const Rule& rule, int64_t torus_tiles_x, int64_t torus_tiles_y) override {
    GOL_CHECK(!pending_);
    // Downloads left queued (a run that failed between epochs) are dropped.
    GOL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    queued_.clear();
    queued_tiles_ = 0;
    if (torus_tiles_x == 0 && rule.births_on_zero()) {
      throw InputError("rules with B0 cannot run on tiles of the plane");
    }
    rule_ = rule;
    torus_tiles_x_ = torus_tiles_x;
    torus_tiles_y_ = torus_tiles_y;
    regions_.clear();
    free_slots_.clear();
    slots_used_ = 0;
    stats_ = {};
  }

  int add_region(const TileRect& owned) override {
    GOL_CHECK(!pending_ && nothing_queued());
    DeviceRegion region{make_region_geometry(owned, torus_tiles_x_, torus_tiles_y_), {}, {}, {}};
    check_no_conflict(region.geometry, regions_, -1);
    region.slots = allocate_slots(region.geometry.positions());
    install_table(region, region.slots);
    const int id = next_id_++;
    regions_.emplace(id, std::move(region));
    return id;
  }

  void grow_region(int region_id, const TileRect& owned) override {
    GOL_CHECK(!pending_ && nothing_queued());
    DeviceRegion& region = find(region_id);
    RegionGeometry geometry = make_region_geometry(owned, torus_tiles_x_, torus_tiles_y_);
    check_no_conflict(geometry, regions_, region_id);
    const std::vector<int64_t> kept = kept_positions(region.geometry, geometry);
    const auto fresh_count = static_cast<int64_t>(std::count(kept.begin(), kept.end(), -1));
    const std::vector<uint32_t> fresh = allocate_slots(fresh_count);
    std::vector<uint32_t> slots(kept.size());
    for (size_t p = 0, next = 0; p < kept.size(); ++p) {
      slots[p] = kept[p] >= 0 ? region.slots[static_cast<size_t>(kept[p])] : fresh[next++];
    }
    for (int64_t p = 0; p < region.geometry.positions(); ++p) {
      if (!region.geometry.is_owned(p)) release_slot(region.slots[static_cast<size_t>(p)]);
    }
    sort_free_slots();
    region.geometry = std::move(geometry);
    region.slots = std::move(slots);
    install_table(region, fresh);
  }

  void remove_region(int region_id) override {
    GOL_CHECK(!pending_ && nothing_queued());
    const auto it = regions_.find(region_id);
    GOL_CHECK(it != regions_.end());
    for (const uint32_t slot : it->second.slots) release_slot(slot);
    sort_free_slots();
    regions_.erase(it);
  }

  void upload(int region_id, std::span<const TileCoord> coords, std::span<const Tile> current,
              std::span<const Tile> previous) override {
    GOL_CHECK(!pending_);
    const DeviceRegion& region = find(region_id);
    const UploadPlan plan = plan_upload(region.geometry, coords, current.size(), previous.size());
    if (plan.staged_tiles == 0) return;
    ScopedSeconds timer(stats_.transfer_seconds);
    const Staging staging = stage(plan.staged_tiles);
    size_t n = 0;
    const auto put = [&](uint32_t slot, uint32_t to, const Tile& tile) {
      staging.host_entries[n] = slot << kEntrySlotShift | to;
      staging.host_tiles[n] = tile;
      ++n;
    };
    for (size_t i = 0; i < coords.size(); ++i) {
      const int64_t position = plan.positions[i];
      const uint32_t slot = region.slots[static_cast<size_t>(position)];
      if (!region.geometry.is_owned(position)) {
        put(slot, kToCurrent, current[i]);
      } else if (previous.empty()) {
        put(slot, kToCurrent | kToPrevious, current[i]);
      } else {
        put(slot, kToCurrent, current[i]);
        put(slot, kToPrevious, previous[i]);
      }
    }
    GOL_CUDA_CHECK(cudaMemcpyAsync(staging.device_entries, staging.host_entries, staging.bytes(n),
                                   cudaMemcpyHostToDevice, stream_.get()));
    scatter_tiles<<<copy_blocks(static_cast<int64_t>(n)), kCopyThreads, 0, stream_.get()>>>(
        staging.device_entries, staging.device_tiles, vectors(current_), vectors(previous_),
        static_cast<int64_t>(n));
    GOL_CUDA_CHECK_LAUNCH();
    GOL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    count_upload(stats_, plan.staged_tiles);
  }

  void step_async(int generations) override {
    GOL_CHECK(!pending_);
    GOL_CHECK(epoch_length_allowed(generations, regions_));
    const EpochPlan plan = plan_epoch(generations, current_, previous_);
    timer_.start(stream_.get());
    for (auto& [id, region] : regions_) step_region(region, plan);
    timer_.stop(stream_.get());
    current_ = plan.current;
    previous_ = plan.previous;
    ++stats_.epochs;
    pending_ = true;
  }

  void wait() override {
    if (!pending_) return;
    pending_ = false;
    stats_.device_seconds += timer_.seconds();
    // Reports a fault of the epoch's kernels here, not at some later call.
    GOL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  // The queued path, waited for at once.
  void download(int region_id, std::span<const TileCoord> coords, std::span<Tile> current,
                std::span<Tile> previous) override {
    download_async(region_id, coords, current, previous);
    finish_downloads();
  }

  void download_async(int region_id, std::span<const TileCoord> coords, std::span<Tile> current,
                      std::span<Tile> previous) override {
    GOL_CHECK(!pending_);
    const DeviceRegion& region = find(region_id);
    const std::vector<int64_t> positions =
        plan_download(region.geometry, coords, current.size(), previous.size());
    const size_t count = positions.size();
    const size_t gathered = count * (previous.empty() ? 1 : 2);
    if (gathered == 0) return;
    ScopedSeconds timer(stats_.transfer_seconds);
    const size_t first = queued_tiles_;
    reserve_queued(first + gathered);
    uint32_t* entries = queued_entries_host_.get() + first;
    for (size_t i = 0; i < gathered; ++i) {
      const uint32_t slot = region.slots[static_cast<size_t>(positions[i % count])];
      entries[i] = slot << kEntrySlotShift | (i < count ? kToCurrent : kToPrevious);
    }
    GOL_CUDA_CHECK(cudaMemcpyAsync(queued_entries_device_.get() + first, entries,
                                   gathered * sizeof(uint32_t), cudaMemcpyHostToDevice,
                                   stream_.get()));
    gather_tiles<<<copy_blocks(static_cast<int64_t>(gathered)), kCopyThreads, 0, stream_.get()>>>(
        queued_entries_device_.get() + first, vectors(current_), vectors(previous_),
        reinterpret_cast<uint4*>(queued_tiles_device_.get() + first),
        static_cast<int64_t>(gathered));
    GOL_CUDA_CHECK_LAUNCH();
    GOL_CUDA_CHECK(cudaMemcpyAsync(queued_tiles_host_.get() + first,
                                   queued_tiles_device_.get() + first, gathered * sizeof(Tile),
                                   cudaMemcpyDeviceToHost, stream_.get()));
    downloads_done_.record(stream_.get());
    queued_.push_back({first, count, current, previous});
    queued_tiles_ = first + gathered;
    count_download(stats_, gathered);
  }

  void finish_downloads() override {
    if (nothing_queued()) return;
    ScopedSeconds timer(stats_.transfer_seconds);
    downloads_done_.wait();
    for (const QueuedActivity& queued : queued_activity_) {
      *queued.out =
          read_activity(queued.region->activity_host.get(), queued.region->activity_words());
    }
    queued_activity_.clear();
    for (const QueuedDownload& download : queued_) {
      const Tile* tiles = queued_tiles_host_.get() + download.first;
      std::copy_n(tiles, download.count, download.current.begin());
      if (!download.previous.empty()) {
        std::copy_n(tiles + download.count, download.count, download.previous.begin());
      }
    }
    queued_.clear();
    queued_tiles_ = 0;
  }

  RegionActivity activity(int region_id) override {
    GOL_CHECK(!pending_ && nothing_queued());
    RegionActivity activity;
    activity_async(region_id, activity);
    finish_downloads();
    return activity;
  }

  void activity_async(int region_id, RegionActivity& out) override {
    GOL_CHECK(!pending_);
    DeviceRegion& region = find(region_id);
    ScopedSeconds timer(stats_.transfer_seconds);
    if (region.activity_host.size() < region.activity_words()) {
      region.activity_host = PinnedBuffer<uint32_t>(region.activity_words());
    }
    GOL_CUDA_CHECK(cudaMemcpyAsync(region.activity_host.get(), region.activity.get(),
                                   region.activity.bytes(), cudaMemcpyDeviceToHost, stream_.get()));
    downloads_done_.record(stream_.get());
    queued_activity_.push_back({&region, &out});
    count_activity(stats_, region.geometry);
  }

  TilePoolStats stats() const override { return stats_; }

 private:
  uint4* vectors(int array) const { return reinterpret_cast<uint4*>(arrays_[array].get()); }

  void release_slot(uint32_t slot) { free_slots_.push_back(slot); }
  // Highest first, so allocation pops the lowest slots: a new region's
  // tiles stay close together.
  void sort_free_slots() { std::sort(free_slots_.begin(), free_slots_.end(), std::greater<>()); }

  // Gives the region its table (its slots, ring positions marked), a
  // zeroed activity buffer, and empties the `emptied` slots in all three
  // arrays; returns when the device has done so.
  void install_table(DeviceRegion& region, std::span<const uint32_t> emptied) {
    const auto gap = [](uint32_t a, uint32_t b) { return b != a + 1; };
    const bool in_order =
        region.geometry.wraps &&
        std::adjacent_find(region.slots.begin(), region.slots.end(), gap) == region.slots.end();
    region.first_slot = in_order ? static_cast<int64_t>(region.slots.front()) : int64_t{-1};
    std::vector<uint32_t> table(region.slots);
    for (int64_t p = 0; p < region.geometry.positions(); ++p) {
      if (!region.geometry.is_owned(p)) table[static_cast<size_t>(p)] |= kRingTile;
    }
    region.table = DeviceBuffer<uint32_t>(table.size());
    region.activity = DeviceBuffer<uint32_t>(region.activity_words());
    GOL_CUDA_CHECK(cudaMemcpyAsync(region.table.get(), table.data(), region.table.bytes(),
                                   cudaMemcpyHostToDevice, stream_.get()));
    GOL_CUDA_CHECK(
        cudaMemsetAsync(region.activity.get(), 0, region.activity.bytes(), stream_.get()));
    DeviceBuffer<uint32_t> list(emptied.size());
    if (!emptied.empty()) {
      GOL_CUDA_CHECK(cudaMemcpyAsync(list.get(), emptied.data(), list.bytes(),
                                     cudaMemcpyHostToDevice, stream_.get()));
      const auto count = static_cast<int64_t>(emptied.size());
      zero_tiles<<<copy_blocks(count), kCopyThreads, 0, stream_.get()>>>(
          list.get(), count, vectors(0), vectors(1), vectors(2));
      GOL_CUDA_CHECK_LAUNCH();
    }
    // The host table and the list must outlive the copies and the kernel.
    GOL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  bool nothing_queued() const { return queued_.empty() && queued_activity_.empty(); }

  DeviceRegion& find(int region) {
    return const_cast<DeviceRegion&>(std::as_const(*this).find(region));
  }
  const DeviceRegion& find(int region) const {
    const auto it = regions_.find(region);
    GOL_CHECK(it != regions_.end());
    return it->second;
  }

  void step_region(DeviceRegion& region, const EpochPlan& plan) {
    const RegionGeometry& geometry = region.geometry;
    const PackedFieldView view{geometry.extended.width * kTileSize / 32,
                               geometry.extended.height * kTileSize};
    const Edge edge = geometry.wraps ? Edge::kTorus : Edge::kDead;
    GOL_CUDA_CHECK(
        cudaMemsetAsync(region.activity.get(), 0, region.activity.bytes(), stream_.get()));
    for (const Launch& launch : plan.launches) {
      TiledField field;
      field.src = arrays_[launch.src].get();
      field.dst = arrays_[launch.dst].get();
      field.before_last = launch.before_last >= 0 ? arrays_[launch.before_last].get() : nullptr;
      field.table = region.first_slot >= 0 ? nullptr : region.table.get();
      field.first_slot = region.first_slot;
      field.tiles_x = geometry.extended.width;
      field.tiles_y = geometry.extended.height;
      field.generations = launch.generations;
      field.last_launch = launch.last;
      field.activity = region.activity.get();
      field.ring = geometry.wraps ? 0 : 1;
      field.owned_x = geometry.owned.width;
      stats_.cells_computed +=
          launch_multistep(field, view, edge, launch.generations, rule_, stream_.get());
    }
  }

  // The lowest free slots first, then new ones past the highest used.
  std::vector<uint32_t> allocate_slots(int64_t count) {
    std::vector<uint32_t> slots;
    slots.reserve(static_cast<size_t>(count));
    while (static_cast<int64_t>(slots.size()) < count && !free_slots_.empty()) {
      slots.push_back(free_slots_.back());
      free_slots_.pop_back();
    }
    const int64_t fresh = count - static_cast<int64_t>(slots.size());
    if (slots_used_ + fresh > kMaxSlots) {
      throw RuntimeError("the GPU tile pool cannot hold more than " + std::to_string(kMaxSlots) +
                         " tiles");
    }
    reserve_slots(slots_used_ + fresh);
    for (int64_t i = 0; i < fresh; ++i) slots.push_back(static_cast<uint32_t>(slots_used_++));
    return slots;
  }

  // Grows the three arrays (geometrically) to hold `count` slots, keeping
  // the tiles of the slots in use.
  void reserve_slots(int64_t count) {
    if (count <= capacity_) return;
    const int64_t capacity = std::max(count, 2 * capacity_);
    for (DeviceBuffer<uint32_t>& array : arrays_) {
      DeviceBuffer<uint32_t> grown(static_cast<size_t>(capacity) * kTileWords);
      if (slots_used_ > 0) {
        GOL_CUDA_CHECK(cudaMemcpyAsync(grown.get(), array.get(),
                                       static_cast<size_t>(slots_used_) * sizeof(Tile),
                                       cudaMemcpyDeviceToDevice, stream_.get()));
      }
      GOL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
      array = std::move(grown);
    }
    capacity_ = capacity;
  }

  // Staging for a batch of `tiles`, grown geometrically.
  // Room for `tiles` queued tiles, keeping those already queued: growing
  // waits for their copies (no epoch runs while downloads are queued).
  void reserve_queued(size_t tiles) {
    if (tiles <= queued_tiles_host_.size()) return;
    GOL_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    const size_t grown = std::max(tiles, 2 * queued_tiles_host_.size());
    PinnedBuffer<Tile> host_tiles(grown);
    PinnedBuffer<uint32_t> host_entries(grown);
    std::copy_n(queued_tiles_host_.get(), queued_tiles_, host_tiles.get());
    queued_tiles_host_ = std::move(host_tiles);
    queued_entries_host_ = std::move(host_entries);
    queued_tiles_device_ = DeviceBuffer<Tile>(grown);
    queued_entries_device_ = DeviceBuffer<uint32_t>(grown);
  }

  Staging stage(size_t tiles) {
    const size_t offset = tiles_offset(tiles);
    const size_t bytes = offset + tiles * sizeof(Tile);
    if (bytes > host_staging_.size()) {
      const size_t grown = std::max(bytes, 2 * host_staging_.size());
      host_staging_ = PinnedBuffer<uint8_t>(grown);
      device_staging_ = DeviceBuffer<uint8_t>(grown);
    }
    return {reinterpret_cast<uint32_t*>(host_staging_.get()),
            reinterpret_cast<Tile*>(host_staging_.get() + offset),
            reinterpret_cast<uint32_t*>(device_staging_.get()),
            reinterpret_cast<uint4*>(device_staging_.get() + offset), offset};
  }

  Rule rule_;
  int64_t torus_tiles_x_ = 0;
  int64_t torus_tiles_y_ = 0;
  std::map<int, DeviceRegion> regions_;
  int next_id_ = 0;
  Stream stream_;
  EventTimer timer_;
  std::array<DeviceBuffer<uint32_t>, 3> arrays_;
  int current_ = 0;
  int previous_ = 1;
  int64_t capacity_ = 0;    // slots each array holds
  int64_t slots_used_ = 0;  // slots ever handed out (free ones included)
  std::vector<uint32_t> free_slots_;
  PinnedBuffer<uint8_t> host_staging_;
  DeviceBuffer<uint8_t> device_staging_;
  bool pending_ = false;
  // Downloads queued by download_async(), their tiles in the queued_
  // buffers in order, complete when downloads_done_ is reached.
  struct QueuedActivity {
    const DeviceRegion* region;
    RegionActivity* out;
  };
  std::vector<QueuedActivity> queued_activity_;
  struct QueuedDownload {
    size_t first;
    size_t count;
    std::span<Tile> current;
    std::span<Tile> previous;
  };
  std::vector<QueuedDownload> queued_;
  size_t queued_tiles_ = 0;
  PinnedBuffer<Tile> queued_tiles_host_;
  PinnedBuffer<uint32_t> queued_entries_host_;
  DeviceBuffer<Tile> queued_tiles_device_;
  DeviceBuffer<uint32_t> queued_entries_device_;
  Event downloads_done_;
  TilePoolStats stats_;
};

}  // namespace

std::unique_ptr<TilePool> make_cuda_tile_pool() {
  if (!device_available()) throw RuntimeError("no usable GPU: " + device_unavailable_reason());
  return std::make_unique<CudaTilePool>();
}

}  // namespace gol::gpu
