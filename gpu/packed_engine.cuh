// The device-resident packed world shared by the `gpu` and `gpu-bitstep`
// backends: a torus held whole, or a plane region that regrows around the
// live cells.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/backend.h"
#include "gpu/device_memory.cuh"
#include "gpu/kernels.cuh"
#include "gpu/packed_layout.h"

namespace gol::gpu {

enum class PackedKernel { kMultiStep, kBitStep };

class PackedEngine {
 public:
  explicit PackedEngine(PackedKernel kernel) : kernel_(kernel) {}

  void load(const CellSet& cells, const Rule& rule, const Topology& topology);
  void step(uint64_t generations);
  uint64_t population() const;
  CellSet cells() const;
  BackendStats stats() const { return stats_; }

 private:
  PackedFieldView view() const { return {region_.width_words(), region_.height()}; }
  Edge edge() const { return torus_ ? Edge::kTorus : Edge::kDead; }
  void upload(const CellSet& cells);
  HostField download() const;
  // Runs `generations` on the device as is, timing the kernels.
  void run_kernels(uint64_t generations);
  // Plane only: re-embeds the live cells in a region with a fresh margin.
  void regrow();

  PackedKernel kernel_;
  Rule rule_;
  bool torus_ = false;
  TileRegion region_;
  Stream stream_;
  DeviceBuffer<uint32_t> current_;
  DeviceBuffer<uint32_t> next_;
  mutable BackendStats stats_;
};

}  // namespace gol::gpu
