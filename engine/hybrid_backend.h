// The hybrid backend: one sparse world stepped by the CPU and the GPU
// together in exact epochs (../shared/DESIGN.md, "The hybrid scheduler").
// Dense clusters of active tiles are GPU regions in a gpu::TilePool; the
// CPU steps the rest, plus the regions' edge tiles as its ghost ring, while
// the pool steps the regions; at each epoch's end the regions' edges come
// back as the CPU's ghosts. With GOL_HYBRID_TRACE set in the environment
// it reports each change of partition and where each step's time went on
// stderr.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "engine/core/backend.h"
#include "engine/hybrid_partition.h"
#include "gpu/tile_pool.h"

namespace gol {

struct HybridOptions {
  // The longest epoch, 1..gpu::kMaxEpochGenerations; epochs are shortened
  // so that any requested generation count is reached exactly.
  int epoch_generations = gpu::kMaxEpochGenerations;
  // Epochs between partition passes (clustering costs a pass over the
  // active tiles and the regions' activity).
  int partition_every = 4;
  // While passes change nothing they come less often, doubling their
  // interval up to this many epochs: a settled partition costs next to
  // nothing. Any change brings back partition_every.
  int max_partition_interval = 32;
  // Fixed costs, never recalibrated: the same partition on every run.
  std::optional<hybrid::CostModel> fixed_costs;
  // Learn the GPU's costs from the pool's device seconds. Off for the
  // stand-in, whose "device" is the CPU: it keeps the GPU figures of the
  // default model, so the scheduler still moves clusters to it.
  bool calibrate_gpu = true;
  // When not empty: exactly these regions, held for the whole run, and no
  // partition passes (tests of the exchange at the boundary).
  std::vector<gpu::TileRect> fixed_regions;
  hybrid::ClusterOptions clusters;
  hybrid::PartitionOptions partition;
};

// Any rule without B0 on the plane; any rule on a torus.
std::unique_ptr<Backend> make_hybrid_backend(const BackendOptions& options,
                                             std::unique_ptr<gpu::TilePool> pool,
                                             const HybridOptions& hybrid = {});

}  // namespace gol
