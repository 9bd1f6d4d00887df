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
    stepper_.allow_flights(GridStepper::flights_wanted());
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
    stats_.tiles_active =
        stepper_.step(grid_, rule_, generations, generations + run_length_.beyond(generations),
                      more_steps_ ? GridStepper::Landing::kLater : GridStepper::Landing::kAtEnd);
    stats_.cells_computed += stepper_.cells_computed() - computed_before;
    stats_.tiles_total = 0;
    for (const sparse::SparseGrid* part : parts()) stats_.tiles_total += part->cpu_tile_count();
  }
  // Told of more steps to come, gliders fly on into the next call: landed
  // and lifted again at each of a run's chunks, a gun's stream of 100000
  // cost more than its reviews.
  void expect_more_steps(bool more) override { more_steps_ = more; }
  // A run's chunks between log rows (gol run --every 100) were each too
  // short to cut the world into strips (GridStepper's lookahead), and
  // stepped a whole world on two threads.
  void expect_run_length(uint64_t generations) override { run_length_.expect(generations); }

  // The reads go through the world's parts: between steps it may be held
  // in strips (GridStepper::world_parts), whose own tiles are CPU tiles.
  // Population and extent count the gliders flying as they are; the reads
  // of cells land them first.
  uint64_t population() const override {
    uint64_t population = stepper_.flying() ? stepper_.flights().population() : 0;
    for (const sparse::SparseGrid* part : parts()) population += part->cpu_population();
    return population;
  }
  CellSet cells() const override {
    CellSet cells;
    visit_tiles([&](TileCoord coord, const Tile& tile) { cells.put_tile(coord, tile); });
    return cells;
  }
  std::optional<BBox> bbox() const override {
    std::optional<BBox> box;
    if (stepper_.flying()) box = stepper_.flights().bbox(grid_.generation());
    if (const std::optional<BBox> cpu_box = sparse::SparseGrid::cpu_bbox_of(parts())) {
      extend_bbox(box, *cpu_box);
    }
    return box;
  }
  void visit_tiles(const TileVisitor& visit) const override {
    land();
    for (const sparse::SparseGrid* part : parts()) part->visit_cpu_tiles(visit);
  }
  // One part a thread, on the stepper's workers: a share of the held tiles,
  // or a strip's own where the world is held in strips (as many as threads
  // or fewer, each read by the task of its number).
  size_t tile_parts() const override { return static_cast<size_t>(stepper_.threads()); }
  void visit_tiles_in_parts(const PartVisitor& visit) const override {
    land();
    const std::vector<const sparse::SparseGrid*> grids = parts();
    const size_t tasks = tile_parts();
    stepper_.run_tasks(tasks, [&](size_t task) {
      const auto visit_part = [&](TileCoord coord, const Tile& tile) { visit(task, coord, tile); };
      if (grids.size() == 1) {
        grids.front()->visit_cpu_tiles_share(task, tasks, visit_part);
      } else if (task < grids.size()) {
        grids[task]->visit_cpu_tiles(visit_part);
      }
    });
  }
  BackendStats stats() const override {
    BackendStats stats = stats_;
    stats.strip_segments = stepper_.strip_segments();
    stats.gliders_flying = stepper_.flying() ? stepper_.flights().flying() : 0;
    return stats;
  }

 private:
  // `cells`: a CellSet to copy, or one to take apart (SparseGrid::load).
  template <class Cells>
  void load_cells(Cells&& cells, const Rule& rule, const Topology& topology) {
    if (!topology.is_torus() && rule.births_on_zero()) {
      throw InputError("rule " + rule.to_string() + " has B0 and cannot run on the plane");
    }
    rule_ = rule;
    stepper_.land_flights(grid_);
    stepper_.merge_strips(grid_);
    grid_.load(std::forward<Cells>(cells), topology, rule.births_on_zero());
    stats_ = BackendStats{};
    run_length_ = {};
    stats_.tiles_total = grid_.tile_count();
    stats_.simd_target = cpu::simd_target_name(stepper_.library());
    stats_.threads = stepper_.threads();
  }

  std::vector<const sparse::SparseGrid*> parts() const { return stepper_.world_parts(grid_); }
  // Puts the gliders still flying back into the tiles: how the world is
  // held changes, not what it is, so the reads that need it do it.
  void land() const { stepper_.land_flights(grid_); }

  // Mutable for land().
  mutable GridStepper stepper_;
  mutable sparse::SparseGrid grid_;
  bool more_steps_ = false;
  RunLength run_length_;
  Rule rule_;
  BackendStats stats_;
};

}  // namespace

std::unique_ptr<Backend> make_sparse_backend(const BackendOptions& options,
                                             cpu::SimdLibrary library) {
  return std::make_unique<SparseBackend>(options, library);
}

}  // namespace gol
