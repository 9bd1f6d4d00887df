// The tile pool bench: a whole-torus pool region stepped in epochs of
// kMaxEpochGenerations, timed beside the `gpu` backend's step() on the same
// soup and checked against it by population; then upload and download of
// batches of kTransferTiles tiles.
#include "bench/tile_pool_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <vector>

#include "bench/bench_result.h"
#include "engine/backend_registry.h"
#include "engine/core/error.h"
#include "gpu/gpu_backend.h"
#include "gpu/tile_pool.h"
#include "patterns/soup.h"

namespace gol::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr int64_t kTransferTiles = 4096;
constexpr int kTransferBatches = 20;

struct SteppingTimes {
  std::vector<double> wall;    // the stepping calls, one entry per repeat
  std::vector<double> device;  // kernel time by CUDA events
  uint64_t population = 0;
};

SteppingTimes time_gpu_backend(const CellSet& soup, const Topology& torus, uint64_t generations,
                               int repeats) {
  SteppingTimes times;
  for (int r = 0; r < repeats; ++r) {
    const std::unique_ptr<Backend> backend = BackendRegistry::builtin().create("gpu", {}, {});
    backend->load(soup, Rule::conway(), torus);
    const auto start = Clock::now();
    backend->step(generations);
    times.wall.push_back(seconds_since(start));
    times.device.push_back(backend->stats().device_seconds);
    times.population = backend->population();
  }
  return times;
}

SteppingTimes time_pool(const CellSet& soup, int64_t tiles_per_side, uint64_t generations,
                        int repeats) {
  std::vector<TileCoord> coords;
  std::vector<Tile> tiles;
  for (int64_t ty = 0; ty < tiles_per_side; ++ty) {
    for (int64_t tx = 0; tx < tiles_per_side; ++tx) {
      coords.push_back({tx, ty});
      const Tile* tile = soup.find_tile({tx, ty});
      tiles.push_back(tile != nullptr ? *tile : Tile{});
    }
  }
  SteppingTimes times;
  const std::unique_ptr<gpu::TilePool> pool = gpu::make_tile_pool();
  for (int r = 0; r < repeats; ++r) {
    pool->reset(Rule::conway(), tiles_per_side, tiles_per_side);
    const int region = pool->add_region({0, 0, tiles_per_side, tiles_per_side});
    pool->upload(region, coords, tiles, {});
    const auto start = Clock::now();
    for (uint64_t done = 0; done < generations;) {
      const int k =
          static_cast<int>(std::min<uint64_t>(generations - done, gpu::kMaxEpochGenerations));
      pool->step_async(k);
      pool->wait();
      done += static_cast<uint64_t>(k);
    }
    times.wall.push_back(seconds_since(start));
    times.device.push_back(pool->stats().device_seconds);
    times.population = pool->activity(region).population;
  }
  return times;
}

struct TransferTimes {
  std::vector<double> upload;
  std::vector<double> download;
};

// Batches of kTransferTiles random tiles (current generation only) to and
// from an owned square of that many tiles.
TransferTimes time_transfers() {
  const int64_t side = 64;
  static_assert(kTransferTiles == 64 * 64);
  std::vector<TileCoord> coords;
  for (int64_t ty = 0; ty < side; ++ty) {
    for (int64_t tx = 0; tx < side; ++tx) coords.push_back({tx, ty});
  }
  std::vector<Tile> tiles(coords.size());
  std::mt19937_64 random(7);
  for (Tile& tile : tiles) {
    for (uint64_t& row : tile.rows) row = random();
  }
  std::vector<Tile> back(coords.size());
  const std::unique_ptr<gpu::TilePool> pool = gpu::make_tile_pool();
  pool->reset(Rule::conway(), 0, 0);
  const int region = pool->add_region({0, 0, side, side});
  TransferTimes times;
  for (int b = 0; b < kTransferBatches + 1; ++b) {  // the first batch sizes the staging
    auto start = Clock::now();
    pool->upload(region, coords, tiles, {});
    const double up = seconds_since(start);
    start = Clock::now();
    pool->download(region, coords, back, {});
    const double down = seconds_since(start);
    if (back != tiles) throw RuntimeError("tile pool: a downloaded batch differs from the upload");
    if (b == 0) continue;
    times.upload.push_back(up);
    times.download.push_back(down);
  }
  return times;
}

void print_stepping(const char* label, const SteppingTimes& t, double cells) {
  const double wall = median(t.wall);
  std::printf("%-26s %10.4f %10.4f %9.2fT %12llu\n", label, wall, median(t.device),
              cells / wall / 1e12, static_cast<unsigned long long>(t.population));
}

}  // namespace

int run_tile_pool_bench(const BenchOptions& options) {
  if (!gpu::device_available()) {
    throw RuntimeError("--tile-pool needs a GPU: " + gpu::device_unavailable_reason());
  }
  const int64_t side = options.tile_pool_side;
  const uint64_t generations = options.kernel_generations;
  const CellSet soup = patterns::make_soup({side, side, 0.5, 1});
  const Topology torus = Topology::torus(side, side);
  std::cerr << "gol bench: tile pool on a " << side << "^2 torus, " << generations
            << " generations\n";
  const SteppingTimes backend = time_gpu_backend(soup, torus, generations, options.repeats);
  const SteppingTimes pool = time_pool(soup, side / kTileSize, generations, options.repeats);
  const double cells =
      static_cast<double>(side) * static_cast<double>(side) * static_cast<double>(generations);
  std::printf("soup:%lldx%lld:0.5:1 on its torus, %llu generations, median of %d\n",
              static_cast<long long>(side), static_cast<long long>(side),
              static_cast<unsigned long long>(generations), options.repeats);
  std::printf("%-26s %10s %10s %10s %12s\n", "stepping", "wall s", "device s", "CUpS",
              "population");
  print_stepping("gpu backend step()", backend, cells);
  print_stepping("tile pool, epochs of 32", pool, cells);
  std::printf("tile pool / gpu backend wall: %.3f\n", median(backend.wall) / median(pool.wall));

  const TransferTimes transfers = time_transfers();
  const double batch_bytes = static_cast<double>(kTransferTiles) * sizeof(Tile);
  std::printf(
      "batches of %lld tiles (%.1f MiB), median of %d: upload %.3f ms (%.2f GB/s), "
      "download %.3f ms (%.2f GB/s)\n",
      static_cast<long long>(kTransferTiles), batch_bytes / (1 << 20), kTransferBatches,
      median(transfers.upload) * 1e3, batch_bytes / median(transfers.upload) / 1e9,
      median(transfers.download) * 1e3, batch_bytes / median(transfers.download) / 1e9);
  if (pool.population != backend.population) {
    throw RuntimeError("tile pool and gpu backend disagree on the population (" +
                       std::to_string(pool.population) + " vs " +
                       std::to_string(backend.population) + ")");
  }
  return 0;
}

}  // namespace gol::bench
