// The gol command line: subcommands on CLI11, --help on each, --version,
// and "did you mean" for mistyped commands and options.
#pragma once

#include <string>
#include <vector>

namespace gol::cli {

// `args`: argv without the program name. Parses, then runs the chosen
// subcommand; returns the process exit code. Throws gol::Error subclasses:
// UsageError (exit 2) for a bad command line.
int run_command_line(const std::vector<std::string>& args);

// What `gol --version` prints: the version, the SIMD instruction sets
// compiled in (and those this CPU runs), and whether CUDA is built.
std::string version_text();

}  // namespace gol::cli
