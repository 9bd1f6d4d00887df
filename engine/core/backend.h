// The interface every stepping algorithm implements (serial, nibble, bit,
// simd, gpu, ...). Backends are created by name through the registry in
// engine/backend_registry.h; callers ask stats() for what a backend can
// report instead of assuming it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/core/cell_set.h"
#include "engine/core/rule.h"

namespace gol {

struct BackendOptions {
  int threads = 0;  // 0: as many as the machine has
};

// Cumulative since the last load().
struct BackendStats {
  uint64_t cells_computed = 0;  // cell updates actually evaluated
  uint64_t tiles_active = 0;    // tiles stepped in the last generation (0 if not tiled)
  uint64_t tiles_total = 0;     // tiles held in the last generation (0 if not tiled)
  std::string simd_target;      // e.g. "AVX3" for SIMD paths; empty otherwise
  int threads = 1;              // worker threads the backend steps with
  double device_seconds = 0;    // GPU kernel time (CUDA events); 0 on the CPU
  double transfer_seconds = 0;  // host<->device copies; 0 on the CPU
  uint64_t strip_segments = 0;  // stretches stepped with the world cut in strips
  uint64_t gliders_flying = 0;  // flown by formula outside the tiles now
  // The hybrid's split and exchange; 0 elsewhere.
  uint64_t tiles_cpu = 0;         // tiles the CPU owns after the last step
  uint64_t tiles_gpu = 0;         // tiles of GPU regions after the last step
  uint64_t epochs = 0;            // epochs run
  uint64_t bytes_uploaded = 0;    // host to device
  uint64_t bytes_downloaded = 0;  // device to host
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // Replaces the world. On a torus, cells are taken modulo its size.
  // Throws InputError when the rule or topology is not supported here
  // (check_rule_fits has already been applied by the caller).
  virtual void load(const CellSet& cells, const Rule& rule, const Topology& topology) = 0;
  // load() from cells the backend may take apart as it copies them, so that
  // a large pattern's memory moves into the world rather than being held
  // twice while it loads. By default, load().
  virtual void load_taking(CellSet&& cells, const Rule& rule, const Topology& topology) {
    load(cells, rule, topology);
  }
  // Advances the world by `generations` (0 is allowed). Throws RuntimeError
  // only on device failure.
  virtual void step(uint64_t generations) = 0;
  // Whether the caller will call step() again before it reads the world (a
  // run in chunks). A backend told so may leave work that a read would
  // settle for the next step (gliders flying by formula, which it would
  // otherwise land and lift again between the chunks); reads stay exact
  // either way. By default, ignored.
  virtual void expect_more_steps(bool /*more*/) {}
  // How many generations the run this call belongs to steps from here, this
  // call's and those of the calls that follow (gol run's chunks between
  // log rows), where the caller knows; each step() counts its own off. A
  // backend may prepare for the whole run rather than for one call: a
  // world cut into strips pays only over hundreds of generations. By
  // default, ignored.
  virtual void expect_run_length(uint64_t /*generations*/) {}
  virtual uint64_t population() const = 0;
  // The live cells; on a torus within [0, width) x [0, height).
  virtual CellSet cells() const = 0;
  // cells().bbox(), which backends that can find it without copying the
  // cells out do so.
  virtual std::optional<BBox> bbox() const { return cells().bbox(); }
  // Calls visit(coord, tile) for each tile of cells() holding a live cell,
  // in no particular order. Backends that hold their world as tiles visit
  // them in place, without copying the world out. A tile stays at its
  // address through the visit, and no other tile's bits pass through that
  // address meanwhile (tiles alike may share one): readers remember what
  // they read by address (bench's WorldDigest).
  using TileVisitor = std::function<void(TileCoord, const Tile&)>;
  virtual void visit_tiles(const TileVisitor& visit) const {
    const CellSet all = cells();
    for (const auto& [coord, tile] : all.tiles()) {
      if (!tile.empty()) visit(coord, tile);
    }
  }
  // visit_tiles() split into parts that may be visited at once: calls
  // visit(part, coord, tile) for the same tiles, part < tile_parts(), the
  // calls for one part one at a time and those for distinct parts perhaps
  // concurrently, so a reader keeping what it learns by part needs no
  // lock. By default one part, visited as visit_tiles() visits.
  using PartVisitor = std::function<void(size_t, TileCoord, const Tile&)>;
  virtual size_t tile_parts() const { return 1; }
  virtual void visit_tiles_in_parts(const PartVisitor& visit) const {
    visit_tiles([&](TileCoord coord, const Tile& tile) { visit(0, coord, tile); });
  }
  virtual BackendStats stats() const = 0;
};

}  // namespace gol
