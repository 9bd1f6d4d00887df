// `gol info` and `gol backends`.
#include "engine/cli/commands.h"

#include <cstdio>
#include <iostream>

#include "engine/backend_registry.h"
#include "engine/cli/pattern_outputs.h"
#include "engine/cli/run_summary.h"
#include "engine/core/error.h"
#include "engine/json_writer.h"
#include "patterns/pattern_io.h"

namespace gol::cli {

int info_command(const InfoOptions& options) {
  const std::optional<patterns::PatternFormat> format = format_option(options.format);
  if (format && options.pattern != "-") {
    throw UsageError(
        "--format applies to '-' (standard input); a file's format is told by content");
  }
  const Pattern pattern = patterns::load_pattern(options.pattern, format);
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
  std::cout << "bbox         " << bbox_text(box) << "\n";
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
