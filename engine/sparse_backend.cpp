// The sparse scheduler: plans with sparse::SparseGrid, steps the active
// tiles with the SIMD kernel in parallel chunks, commits, repeats.
#include "engine/sparse_backend.h"

#include <algorithm>
#include <array>
#include <utility>

#include "cpu/simd/parallel_step.h"
#include "engine/core/error.h"
#include "sparse/sparse_grid.h"

namespace gol {
namespace {

// Tiles stepped per kernel call: enough to amortise the dispatch, few
// enough that their neighbourhoods and new rows are still in cache when the
// chunk is committed.
constexpr size_t kChunkTiles = 32;
// Fewer active tiles than this step on the calling thread: a generation of
// them takes tens of microseconds, and handing it to the workers costs about
// what it saves (on the Gosper gun stream, 100000 generations on the idle
// 2-core dev machine: 1.63 s with 1024 here, 1.52 s with 512, 1.54 s with 256).
constexpr size_t kMinParallelTiles = 512;

class SparseBackend final : public Backend {
 public:
  SparseBackend(const BackendOptions& options, cpu::SimdLibrary library)
      : library_(library), stepper_(options.threads, library) {
    stats_.threads = stepper_.threads();
  }

  std::string name() const override {
    return library_ == cpu::SimdLibrary::kHighway ? "simd" : "simd-xsimd";
  }

  void load(const CellSet& cells, const Rule& rule, const Topology& topology) override {
    if (!topology.is_torus() && rule.births_on_zero()) {
      throw InputError("rule " + rule.to_string() + " has B0 and cannot run on the plane");
    }
    rule_ = rule;
    grid_.load(cells, topology, rule.births_on_zero());
    stats_ = BackendStats{};
    stats_.tiles_total = grid_.tile_count();
    stats_.simd_target = cpu::simd_target_name(library_);
    stats_.threads = stepper_.threads();
  }

  void step(uint64_t generations) override {
    for (uint64_t done = 0; done < generations; ++done) {
      if (grid_.active().empty()) {
        grid_.advance_asleep(generations - done);
        stats_.tiles_active = 0;
        break;
      }
      step_generation();
    }
  }

  uint64_t population() const override { return grid_.population(); }
  CellSet cells() const override { return grid_.cells(); }
  BackendStats stats() const override { return stats_; }

 private:
  void step_range(size_t begin, size_t end) {
    std::array<cpu::TileNeighbourhood, kChunkTiles> in;
    std::array<Tile*, kChunkTiles> targets;
    std::array<cpu::TileChange, kChunkTiles> changes;
    const auto active = grid_.active();
    for (size_t first = begin; first < end; first += kChunkTiles) {
      const size_t count = std::min(kChunkTiles, end - first);
      for (size_t i = 0; i < count; ++i) {
        grid_.neighbourhood(active[first + i], in[i].at);
        targets[i] = grid_.commit_target(first + i);
      }
      // The kernel writes each next generation over the tile's generation
      // t-1 and notes the differences, so committing reads no tile again.
      cpu::step_tiles_over(in.data(), targets.data(), changes.data(), count, rule_, library_);
      for (size_t i = 0; i < count; ++i) {
        grid_.commit_written(first + i, {changes[i].changed_columns, changes[i].live_columns,
                                         changes[i].top_change, changes[i].bottom_change});
      }
    }
  }

  void step_generation() {
    const size_t count = grid_.active().size();
    if (count < kMinParallelTiles) {
      step_range(0, count);
    } else {
      stepper_.parallel_for(count, [this](size_t begin, size_t end) { step_range(begin, end); });
    }
    grid_.finish_generation();
    stats_.cells_computed += static_cast<uint64_t>(count) * kTileSize * kTileSize;
    stats_.tiles_active = count;
    stats_.tiles_total = grid_.tile_count();
  }

  cpu::SimdLibrary library_;
  cpu::ParallelTileStepper stepper_;
  sparse::SparseGrid grid_;
  Rule rule_;
  BackendStats stats_;
};

}  // namespace

std::unique_ptr<Backend> make_sparse_backend(const BackendOptions& options,
                                             cpu::SimdLibrary library) {
  return std::make_unique<SparseBackend>(options, library);
}

}  // namespace gol
