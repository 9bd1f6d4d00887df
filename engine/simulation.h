// A Simulation is a pattern being run: its rule, topology, generation count and
// the backend that steps it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine/backend_registry.h"
#include "engine/core/pattern.h"

namespace gol {

struct SimulationOptions {
  std::string backend = "auto";
  BackendOptions backend_options;
  std::optional<Rule> rule;          // overrides the pattern's rule
  std::optional<Topology> topology;  // overrides the pattern's topology
};

class Simulation {
 public:
  // Throws InputError for a rule that cannot run on the topology (B0 on the
  // plane), UsageError for an unknown backend, RuntimeError when the backend
  // cannot run here.
  Simulation(const Pattern& pattern, const SimulationOptions& options);
  // The same, taking the pattern's cells apart as the backend loads them
  // (Backend::load_taking): a large pattern is not held twice.
  Simulation(Pattern&& pattern, const SimulationOptions& options);

  // Throws what the backend throws (RuntimeError where the world outgrows
  // the memory allowed or the plane, std::bad_alloc). A step stopped part
  // of the way leaves the world's tiles at different generations (each
  // thread's part of the world stops where it is), so the world is then
  // spoilt: every later call that steps or reads its cells throws
  // RuntimeError naming the first failure, where it would give wrong cells.
  void advance(uint64_t generations);
  // Backend::expect_more_steps: whether advance() will be called again
  // before the world is read (a run in chunks).
  void expect_more_steps(bool more) { backend_->expect_more_steps(more); }
  // Backend::expect_run_length: the generations left in the run.
  void expect_run_length(uint64_t generations) { backend_->expect_run_length(generations); }

  // The generations stepped whole; a failed advance() counts none.
  uint64_t generation() const { return generation_; }
  uint64_t population() const { return usable().population(); }
  CellSet cells() const { return usable().cells(); }
  std::optional<BBox> bbox() const { return usable().bbox(); }
  void visit_tiles(const Backend::TileVisitor& visit) const { usable().visit_tiles(visit); }
  size_t tile_parts() const { return usable().tile_parts(); }
  void visit_tiles_in_parts(const Backend::PartVisitor& visit) const {
    usable().visit_tiles_in_parts(visit);
  }
  // Cells, rule, topology and generation, ready to write out.
  Pattern snapshot() const;

  const Rule& rule() const { return rule_; }
  const Topology& topology() const { return topology_; }
  const std::string& backend_name() const { return backend_name_; }
  BackendStats stats() const { return backend_->stats(); }

 private:
  // Picks the backend for `cells` (those it will load) and creates it.
  void create_backend(const CellSet& cells, const SimulationOptions& options);
  // The backend, or RuntimeError where a failed advance() spoilt its world.
  const Backend& usable() const;

  Rule rule_;
  Topology topology_;
  uint64_t generation_ = 0;
  std::string backend_name_;
  std::unique_ptr<Backend> backend_;
  std::optional<std::string> spoilt_by_;  // what stopped an advance() part of the way
};

}  // namespace gol
