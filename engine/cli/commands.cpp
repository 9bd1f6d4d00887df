// `gol run`, `gol info` and `gol backends`.
#include "engine/cli/commands.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "engine/cli/run_summary.h"
#include "engine/core/error.h"
#include "engine/json_writer.h"
#include "engine/simulation.h"
#include "patterns/pattern_io.h"

namespace gol::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double world_area(const Simulation& world, const std::optional<BBox>& before,
                  const std::optional<BBox>& after) {
  if (world.topology().is_torus()) {
    return static_cast<double>(world.topology().width) *
           static_cast<double>(world.topology().height);
  }
  return std::max(bbox_area(before), bbox_area(after));
}

// Advances in chunks sized to last about a quarter of a second, printing a
// progress line on stderr once the run has taken over a second.
void advance_with_progress(Simulation& world, uint64_t generations, Clock::time_point start) {
  uint64_t chunk = 1;
  uint64_t done = 0;
  bool shown = false;
  while (done < generations) {
    const uint64_t this_chunk = std::min(chunk, generations - done);
    const auto chunk_start = Clock::now();
    world.advance(this_chunk);
    done += this_chunk;
    const double chunk_seconds = seconds_since(chunk_start);
    if (chunk_seconds < 0.25 && chunk < (uint64_t{1} << 40)) chunk *= 2;
    const double elapsed = seconds_since(start);
    if (elapsed < 1.0) continue;
    const BackendStats stats = world.stats();
    std::fprintf(stderr, "\rgeneration %llu  %.0f gens/s  %.3g CUpS computed  population %llu   ",
                 static_cast<unsigned long long>(world.generation()), done / elapsed,
                 stats.cells_computed / elapsed,
                 static_cast<unsigned long long>(world.population()));
    shown = true;
  }
  if (shown) std::fputc('\n', stderr);
}

SimulationOptions simulation_options(const RunOptions& options) {
  SimulationOptions world;
  world.backend = options.backend;
  world.backend_options.threads = options.threads;
  if (options.rule) {
    const RuleSpec spec = parse_rule(*options.rule, "--rule");
    world.rule = spec.rule;
    world.topology = spec.topology;
  }
  if (options.torus) world.topology = parse_torus_size(*options.torus, "--torus");
  return world;
}

}  // namespace

int run_command(const RunOptions& options) {
  // The loaded pattern is a temporary: once the backend holds the cells,
  // the input's copy is freed rather than kept for the whole run.
  Simulation world(patterns::load_pattern(options.pattern), simulation_options(options));

  RunSummary summary;
  summary.pattern = options.pattern;
  const std::optional<BBox> bbox_before = world.cells().bbox();
  const bool show_progress = !options.quiet && isatty(STDERR_FILENO);
  const auto start = Clock::now();
  if (show_progress) {
    advance_with_progress(world, options.generations, start);
  } else {
    world.advance(options.generations);
  }
  summary.seconds = seconds_since(start);

  const Pattern result = world.snapshot();
  summary.generation = world.generation();
  summary.generations_run = options.generations;
  summary.population = result.cells.population();
  summary.bbox = result.cells.bbox();
  summary.rule = world.rule().to_string();
  summary.topology = world.topology().to_string();
  summary.backend = world.backend_name();
  summary.area = world_area(world, bbox_before, summary.bbox);
  summary.stats = world.stats();

  if (options.out) patterns::write_pattern_file(*options.out, result);
  std::cout << (options.json ? summary_json(summary) + "\n" : summary_text(summary));
  return 0;
}

int info_command(const InfoOptions& options) {
  const Pattern pattern = patterns::load_pattern(options.pattern);
  const Rule rule = pattern.rule.value_or(Rule::conway());
  const Topology topology = pattern.topology.value_or(Topology::plane());
  const std::optional<BBox> box = pattern.cells.bbox();
  if (options.json) {
    JsonWriter json;
    json.begin_object();
    json.key("pattern").value(options.pattern);
    json.key("name").value(pattern.name);
    json.key("format").value(pattern.format);
    json.key("rule").value(rule.to_string());
    json.key("topology").value(topology.to_string());
    json.key("generation").value(pattern.generation);
    json.key("population").value(pattern.cells.population());
    json.key("bbox");
    if (box) {
      json.begin_array().value(box->xmin).value(box->ymin).value(box->xmax).value(box->ymax);
      json.end_array();
    } else {
      json.null();
    }
    json.key("comments").begin_array();
    for (const std::string& line : pattern.comments) json.value(line);
    json.end_array().end_object();
    std::cout << json.str() << "\n";
    return 0;
  }
  std::cout << "name         " << pattern.name << "\n"
            << "format       " << pattern.format << "\n"
            << "rule         " << rule.to_string() << "\n"
            << "topology     " << topology.to_string() << "\n"
            << "generation   " << pattern.generation << "\n"
            << "population   " << pattern.cells.population() << "\n";
  if (box) {
    std::cout << "bbox         x " << box->xmin << ".." << box->xmax << ", y " << box->ymin << ".."
              << box->ymax << " (" << box->width() << " x " << box->height() << ")\n";
  } else {
    std::cout << "bbox         empty\n";
  }
  for (const std::string& line : pattern.comments) std::cout << "comment      " << line << "\n";
  return 0;
}

int backends_command() {
  for (const BackendInfo& info : BackendRegistry::builtin().all()) {
    const bool available = info.available();
    std::printf("%-12s %-9s %s%s\n", info.name.c_str(), available ? "available" : "absent",
                info.description.c_str(),
                available || !info.unavailable_reason
                    ? ""
                    : (" (" + info.unavailable_reason() + ")").c_str());
  }
  return 0;
}

}  // namespace gol::cli
