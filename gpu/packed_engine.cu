// PackedEngine: loading, stepping (in launches of the kernel's size; on the
// plane in batches checked against the border band) and reading back.
#include <algorithm>
#include <chrono>

#include "engine/core/error.h"
#include "gpu/kernel_config.cuh"
#include "gpu/packed_engine.cuh"

namespace gol::gpu {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// At most this many generations between two checks of a plane region's
// border band: live cells outside the band cannot reach the edge sooner.
constexpr uint64_t kPlaneBatch = kPlaneBandCells - 1;

}  // namespace

void PackedEngine::load(const CellSet& cells, const Rule& rule, const Topology& topology) {
  rule_ = rule;
  torus_ = topology.is_torus();
  stats_ = {};
  if (torus_) {
    region_ = {0, 0, topology.width / kTileSize, topology.height / kTileSize};
  } else {
    region_ = plane_region_around(cells.bbox());
  }
  upload(cells);
}

void PackedEngine::upload(const CellSet& cells) {
  const HostField host = pack_cells(cells, region_, torus_);
  const auto start = std::chrono::steady_clock::now();
  current_ = DeviceBuffer<uint32_t>(static_cast<size_t>(view().word_count()));
  next_ = DeviceBuffer<uint32_t>(current_.size());
  GOL_CUDA_CHECK(cudaMemcpy(current_.get(), host.data(), current_.bytes(), cudaMemcpyHostToDevice));
  stats_.transfer_seconds += seconds_since(start);
}

HostField PackedEngine::download() const {
  HostField host(static_cast<size_t>(region_.tile_row_count()));
  const auto start = std::chrono::steady_clock::now();
  GOL_CUDA_CHECK(cudaMemcpy(host.data(), current_.get(), current_.bytes(), cudaMemcpyDeviceToHost));
  stats_.transfer_seconds += seconds_since(start);
  return host;
}

void PackedEngine::run_kernels(uint64_t generations) {
  EventTimer timer;
  timer.start(stream_.get());
  const Rule rule = rule_;
  while (generations > 0) {
    const int batch = kernel_ == PackedKernel::kMultiStep
                          ? static_cast<int>(std::min<uint64_t>(generations, kMultiStepGenerations))
                          : 1;
    stats_.cells_computed +=
        kernel_ == PackedKernel::kMultiStep
            ? launch_multistep(current_.get(), next_.get(), view(), edge(), batch, rule,
                               stream_.get())
            : launch_bitstep(current_.get(), next_.get(), view(), edge(), rule, stream_.get());
    std::swap(current_, next_);
    generations -= static_cast<uint64_t>(batch);
  }
  timer.stop(stream_.get());
  stats_.device_seconds += timer.seconds();
}

void PackedEngine::step(uint64_t generations) {
  if (torus_) {
    run_kernels(generations);
    return;
  }
  while (generations > 0) {
    if (border_band_live(current_.get(), view(), stream_.get())) regrow();
    const uint64_t batch = std::min(generations, kPlaneBatch);
    run_kernels(batch);
    generations -= batch;
  }
}

void PackedEngine::regrow() {
  const CellSet live = cells();
  region_ = plane_region_around(live.bbox());
  upload(live);
}

uint64_t PackedEngine::population() const {
  return count_live_packed(current_.get(), view().word_count(), stream_.get());
}

CellSet PackedEngine::cells() const { return unpack_cells(download(), region_); }

}  // namespace gol::gpu
