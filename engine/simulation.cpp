// Simulation: applies rule/topology overrides, picks the backend, tracks generations.
#include "engine/simulation.h"

#include <new>
#include <string>

#include "engine/core/error.h"

namespace gol {

Simulation::Simulation(const Pattern& pattern, const SimulationOptions& options)
    : rule_(options.rule.value_or(pattern.rule.value_or(Rule::conway()))),
      topology_(options.topology.value_or(pattern.topology.value_or(Topology::plane()))),
      generation_(pattern.generation) {
  check_rule_fits(rule_, topology_);
  // Only a torus needs a wrapped copy; on the plane the backend reads the
  // pattern's own cells, so no second copy of a large pattern is held.
  CellSet wrapped;
  if (topology_.is_torus()) wrapped = pattern.cells.wrapped(topology_.width, topology_.height);
  const CellSet& cells = topology_.is_torus() ? wrapped : pattern.cells;
  create_backend(cells, options);
  backend_->load(cells, rule_, topology_);
}

Simulation::Simulation(Pattern&& pattern, const SimulationOptions& options)
    : rule_(options.rule.value_or(pattern.rule.value_or(Rule::conway()))),
      topology_(options.topology.value_or(pattern.topology.value_or(Topology::plane()))),
      generation_(pattern.generation) {
  check_rule_fits(rule_, topology_);
  if (topology_.is_torus()) {
    pattern.cells = pattern.cells.wrapped(topology_.width, topology_.height);
  }
  create_backend(pattern.cells, options);
  backend_->load_taking(std::move(pattern.cells), rule_, topology_);
}

void Simulation::create_backend(const CellSet& cells, const SimulationOptions& options) {
  const WorkloadHint hint{topology_, cells.population(), cells.bbox()};
  const BackendInfo& info = BackendRegistry::builtin().resolve(options.backend, hint);
  backend_name_ = info.name;
  backend_ = info.create(options.backend_options);
}

const Backend& Simulation::usable() const {
  if (spoilt_by_) {
    throw RuntimeError("the world is unusable: a step from generation " +
                       std::to_string(generation_) + " stopped part of the way (" + *spoilt_by_ +
                       "), leaving its cells between generations; load the pattern again");
  }
  return *backend_;
}

void Simulation::advance(uint64_t generations) {
  usable();
  try {
    backend_->step(generations);
  } catch (const std::bad_alloc&) {
    spoilt_by_ = "out of memory";
    throw;
  } catch (const std::exception& e) {
    spoilt_by_ = e.what();
    throw;
  }
  generation_ += generations;
}

Pattern Simulation::snapshot() const {
  Pattern pattern;
  pattern.cells = usable().cells();
  pattern.rule = rule_;
  pattern.topology = topology_;
  pattern.generation = generation_;
  return pattern;
}

}  // namespace gol
