// The public API (<gol/gol.h>) as a thin layer over Simulation, the pattern
// loaders and the backend registry.
#include "gol/gol.h"

#include "engine/backend_registry.h"
#include "engine/core/output_file.h"
#include "engine/simulation.h"
#include "patterns/pattern_io.h"
#include "patterns/png_render.h"

namespace gol {
namespace {

// The option names, not the command line's flags, name the source of a bad
// value: "rule: column 2 of rule 'B9/S23': ...".
SimulationOptions simulation_options(const LoadOptions& options) {
  if (options.threads < 0) {
    throw UsageError("threads must be 0 (every core) or a positive count, got " +
                     std::to_string(options.threads));
  }
  SimulationOptions simulation;
  simulation.backend = options.backend;
  simulation.backend_options.threads = options.threads;
  if (!options.rule.empty()) {
    const RuleSpec spec = parse_rule(options.rule, "rule");
    simulation.rule = spec.rule;
    simulation.topology = spec.topology;
  }
  if (options.topology == "plane") {
    simulation.topology = Topology::plane();
  } else if (!options.topology.empty()) {
    simulation.topology = parse_torus_size(options.topology, "topology");
  }
  return simulation;
}

// As with the rule, the option names name the source of a bad value.
patterns::RenderOptions render_options(const RenderOptions& options) {
  patterns::RenderOptions render;
  if (!options.window.empty()) render.window = patterns::parse_window(options.window, "window");
  if (!options.size.empty()) {
    const auto [width, height] = patterns::parse_image_size(options.size, "size");
    render.width = width;
    render.height = height;
  }
  if (!options.zoom.empty()) render.zoom = patterns::parse_zoom(options.zoom, "zoom");
  return render;
}

}  // namespace

std::string version() { return GOL_VERSION; }

class World::Impl {
 public:
  Impl(const Pattern& pattern, const SimulationOptions& options) : simulation(pattern, options) {}
  Simulation simulation;
};

World World::load(std::string_view spec, const LoadOptions& options) {
  const SimulationOptions simulation = simulation_options(options);
  return World(std::make_unique<Impl>(patterns::load_pattern(spec), simulation));
}

World::World(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;
World::~World() = default;

void World::advance(uint64_t generations, bool more_follow, uint64_t run_length) {
  impl_->simulation.expect_more_steps(more_follow);
  impl_->simulation.expect_run_length(run_length);
  impl_->simulation.advance(generations);
}
uint64_t World::generation() const { return impl_->simulation.generation(); }
uint64_t World::population() const { return impl_->simulation.population(); }
std::optional<BBox> World::bbox() const { return impl_->simulation.bbox(); }
std::vector<Cell> World::cells() const { return impl_->simulation.cells().cells(); }

void World::save(const std::string& path) const {
  patterns::write_pattern_file(path, impl_->simulation.snapshot());
}

void World::render(const std::string& path, const RenderOptions& options) const {
  const patterns::RenderOptions render = render_options(options);
  const patterns::GrayImage image = patterns::render_image(impl_->simulation.cells(), render);
  write_file_atomically(path, patterns::encode_png(image));
}

std::string World::rule() const { return impl_->simulation.rule().to_string(); }
std::string World::topology() const { return impl_->simulation.topology().to_string(); }
std::string World::backend() const { return impl_->simulation.backend_name(); }

std::vector<BackendDescription> backends() {
  std::vector<BackendDescription> descriptions;
  for (const BackendInfo& info : BackendRegistry::builtin().all()) {
    const bool available = info.available();
    descriptions.push_back({.name = info.name,
                            .description = info.description,
                            .available = available,
                            .unavailable_reason = available || !info.unavailable_reason
                                                      ? std::string()
                                                      : info.unavailable_reason()});
  }
  return descriptions;
}

}  // namespace gol
