// Where `gol run` writes patterns (--out, --checkpoint): resolved and
// checked before the run, so a long run never ends in an output it cannot
// write, then written through the atomic writer or to standard output.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/core/pattern.h"
#include "patterns/pattern_io.h"

namespace gol::cli {

// The --format option: nullopt when not given. UsageError for a name that
// is no format.
std::optional<patterns::PatternFormat> format_option(const std::optional<std::string>& text);

struct PatternOutput {
  std::string path;  // "-": standard output
  patterns::OutputFormat format;
  std::string role;  // the option, for messages: "--out"
};

// `format` (from --format) is used for "-" and for names without a known
// extension; a name whose extension says otherwise is a UsageError, as is
// a name nothing tells the format of. Standard output defaults to RLE.
// The folder, name length and writability are checked (RuntimeError).
PatternOutput plan_pattern_output(const std::string& path,
                                  std::optional<patterns::PatternFormat> format,
                                  std::string_view role);

// Writes `pattern`. A .cells output keeps only the cells: what it drops
// (the rule, the torus, the generation) is noted on stderr.
void write_pattern_output(const PatternOutput& output, const Pattern& pattern);

}  // namespace gol::cli
