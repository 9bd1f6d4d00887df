// Planning and writing of the pattern outputs of `gol run`.
#include "engine/cli/pattern_outputs.h"

#include <cstdio>

#include "engine/core/error.h"
#include "engine/core/output_file.h"

namespace gol::cli {
namespace {

std::string format_name(patterns::PatternFormat format) {
  switch (format) {
    case patterns::PatternFormat::kRle:
      return "rle";
    case patterns::PatternFormat::kCells:
      return "cells";
    case patterns::PatternFormat::kMacrocell:
      return "mc";
  }
  return "?";
}

// What a .cells file cannot hold of `pattern`, as "the rule B36/S23, ...".
std::string dropped_by_cells(const Pattern& pattern) {
  std::string dropped;
  const auto add = [&](const std::string& what) {
    dropped += (dropped.empty() ? "" : ", ") + what;
  };
  if (pattern.rule && !pattern.rule->is_conway()) add("the rule " + pattern.rule->to_string());
  if (pattern.topology && pattern.topology->is_torus()) {
    add("the " + pattern.topology->to_string());
  }
  if (pattern.generation != 0) add("generation " + std::to_string(pattern.generation));
  return dropped;
}

}  // namespace

std::optional<patterns::PatternFormat> format_option(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  if (const auto format = patterns::pattern_format_named(*text)) return format;
  throw UsageError("--format " + *text + ": expected rle, cells or mc");
}

PatternOutput plan_pattern_output(const std::string& path,
                                  std::optional<patterns::PatternFormat> format,
                                  std::string_view role) {
  PatternOutput output{path, {}, std::string(role)};
  if (path == "-") {
    output.format.format = format.value_or(patterns::PatternFormat::kRle);
    return output;
  }
  const std::optional<patterns::OutputFormat> named = patterns::output_format_of(path);
  if (named && format && named->format != *format) {
    throw UsageError(std::string(role) + " '" + path + "' names a ." + format_name(named->format) +
                     " file, but --format says " + format_name(*format));
  }
  if (!named && !format) {
    throw UsageError("cannot tell the format of " + std::string(role) + " '" + path +
                     "': use a name ending in .rle, .cells or .mc (optionally .gz), or --format");
  }
  if (named) output.format = *named;
  if (!named) output.format.format = *format;
  check_output_path(path, role);
  return output;
}

void write_pattern_output(const PatternOutput& output, const Pattern& pattern) {
  if (output.format.format == patterns::PatternFormat::kCells) {
    if (const std::string dropped = dropped_by_cells(pattern); !dropped.empty()) {
      std::fprintf(stderr,
                   "gol: note: %s '%s' is plaintext (.cells), which keeps only the cells, not %s; "
                   "write .rle to keep them\n",
                   output.role.c_str(), output.path.c_str(), dropped.c_str());
    }
  }
  if (output.path != "-") {
    patterns::write_pattern_file(output.path, pattern, output.format);
    return;
  }
  const std::string text = patterns::pattern_text(pattern, output.format.format);
  std::fwrite(text.data(), 1, text.size(), stdout);
}

}  // namespace gol::cli
