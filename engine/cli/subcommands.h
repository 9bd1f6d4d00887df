// How the gol subcommands plug into the CLI11 command line: each adds its
// options to the top-level app and returns what to run once parsing
// succeeds. Adding a subcommand is one add_*_subcommand function and one
// line in command_line.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gol::cli {

struct Subcommand {
  CLI::App* app = nullptr;
  // Runs the subcommand with the parsed options; returns the exit code.
  // `args` is the command line as typed, without the program name.
  std::function<int(const std::vector<std::string>& args)> run;
};

Subcommand add_run_subcommand(CLI::App& gol);
Subcommand add_info_subcommand(CLI::App& gol);
Subcommand add_backends_subcommand(CLI::App& gol);
Subcommand add_bench_subcommand(CLI::App& gol);
Subcommand add_render_subcommand(CLI::App& gol);

// A CLI11 check for a decimal whole number in [min, max]: no sign, no hex,
// no exponent, so "-5", "0x10" and "1e3" are refused with the range named.
CLI::Validator whole_number(uint64_t min, uint64_t max);

// --max-memory SIZE ("512M", "4G"): sets the process's memory budget
// (engine/core/memory_budget.h) as soon as it is parsed.
void add_max_memory_option(CLI::App& command);

// Settings every gol app shares; call before adding subcommands.
void configure_defaults(CLI::App& gol);

// Parses `args` (argv without the program name) into `app`. A mistake is a
// UsageError naming the argument, with a "did you mean" for a mistyped
// option, and pointing at the subcommand's --help. --help and --version
// surface as CLI11's CallForHelp/CallForVersion for the caller to print.
void parse_arguments(CLI::App& app, const std::vector<std::string>& args);

}  // namespace gol::cli
