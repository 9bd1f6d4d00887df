// The sparse scheduler: the whole world in one sparse::SparseGrid, its
// active tiles stepped by the GridStepper each generation.
#include "engine/sparse_backend.h"

#include "engine/core/error.h"
#include "engine/grid_stepper.h"
#include "sparse/sparse_grid.h"

namespace gol {
namespace {

class SparseBackend final : public Backend {
 public:
  SparseBackend(const BackendOptions& options, cpu::SimdLibrary library)
      : stepper_(options.threads, library) {
    stats_.threads = stepper_.threads();
    // The grid is all this backend holds: no slot outlives a step() call.
    stepper_.allow_strips(true);
  }

  std::string name() const override {
    return stepper_.library() == cpu::SimdLibrary::kHighway ? "simd" : "simd-xsimd";
  }

  void load(const CellSet& cells, const Rule& rule, const Topology& topology) override {
    load_cells(cells, rule, topology);
  }

  void load_taking(CellSet&& cells, const Rule& rule, const Topology& topology) override {
    load_cells(std::move(cells), rule, topology);
  }

  void step(uint64_t generations) override {
    if (generations == 0) return;
    const uint64_t computed_before = stepper_.cells_computed();
    stats_.tiles_active = stepper_.step(grid_, rule_, generations);
    stats_.cells_computed += stepper_.cells_computed() - computed_before;
    stats_.tiles_total = grid_.tile_count();
  }

  uint64_t population() const override { return grid_.population(); }
  CellSet cells() const override { return grid_.cells(); }
  std::optional<BBox> bbox() const override { return grid_.bbox(); }
  void visit_tiles(const TileVisitor& visit) const override { grid_.visit_tiles(visit); }
  // One part a thread, each a share of the held tiles, on the stepper's
  // workers.
  size_t tile_parts() const override { return static_cast<size_t>(stepper_.threads()); }
  void visit_tiles_in_parts(const PartVisitor& visit) const override {
    const size_t parts = tile_parts();
    stepper_.run_tasks(parts, [&](size_t part) {
      grid_.visit_tiles_share(part, parts,
                              [&](TileCoord coord, const Tile& tile) { visit(part, coord, tile); });
    });
  }
  BackendStats stats() const override { return stats_; }

 private:
  // `cells`: a CellSet to copy, or one to take apart (SparseGrid::load).
  template <class Cells>
  void load_cells(Cells&& cells, const Rule& rule, const Topology& topology) {
    if (!topology.is_torus() && rule.births_on_zero()) {
      throw InputError("rule " + rule.to_string() + " has B0 and cannot run on the plane");
    }
    rule_ = rule;
    grid_.load(std::forward<Cells>(cells), topology, rule.births_on_zero());
    stats_ = BackendStats{};
    stats_.tiles_total = grid_.tile_count();
    stats_.simd_target = cpu::simd_target_name(stepper_.library());
    stats_.threads = stepper_.threads();
  }

  GridStepper stepper_;
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
