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

  void advance(uint64_t generations);

  uint64_t generation() const { return generation_; }
  uint64_t population() const { return backend_->population(); }
  CellSet cells() const { return backend_->cells(); }
  std::optional<BBox> bbox() const { return backend_->bbox(); }
  void visit_tiles(const Backend::TileVisitor& visit) const { backend_->visit_tiles(visit); }
  size_t tile_parts() const { return backend_->tile_parts(); }
  void visit_tiles_in_parts(const Backend::PartVisitor& visit) const {
    backend_->visit_tiles_in_parts(visit);
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

  Rule rule_;
  Topology topology_;
  uint64_t generation_ = 0;
  std::string backend_name_;
  std::unique_ptr<Backend> backend_;
};

}  // namespace gol
