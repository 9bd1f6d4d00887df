// The options of `gol run`, `gol info` and `gol backends`.
#include "engine/cli/options.h"

#include <limits>
#include <memory>

#include "engine/cli/commands.h"
#include "engine/cli/subcommands.h"

namespace gol::cli {
namespace {

constexpr uint64_t kMaxGeneration = std::numeric_limits<int64_t>::max();

constexpr const char* kPatternHelp =
    "PATTERN is a file (RLE, .cells, Life 1.05/1.06 or Golly macrocell .mc, optionally\n"
    "gzipped; the format is told by content), - for standard input, builtin:NAME\n"
    "(gol info builtin:NAME) or a seeded random soup soup:WxH[:DENSITY[:SEED]].\n"
    "Only two-state B.../S... rules run (a Generations, hexagonal or rule-table pattern\n"
    "is refused, naming its kind).\n";

constexpr const char* kExitCodes =
    "Exit codes: 0 success, 2 bad command line, 3 bad input, 4 runtime failure.";

constexpr const char* kSignalHelp =
    "SIGINT or SIGTERM during a run writes the state reached to --out and --checkpoint,\n"
    "then exits 130 or 143.\n";

}  // namespace

Subcommand add_run_subcommand(CLI::App& gol) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* run = gol.add_subcommand("run", "Run a pattern for some generations and report");
  run->add_option("PATTERN", options->pattern,
                  "A file, - (standard input), builtin:NAME or soup:WxH[:DENSITY[:SEED]] "
                  "(default: " +
                      std::string(kDefaultPattern) + ")");
  CLI::Option* gens = run->add_option("--gens", options->generations, "Generations to run")
                          ->default_val(kDefaultGenerations)
                          ->check(whole_number(0, kMaxGeneration))
                          ->type_name("N");
  run->add_option("--until", options->until,
                  "Run to generation G, counting from the pattern's own (#CXRLE Gen=)")
      ->check(whole_number(0, kMaxGeneration))
      ->type_name("G")
      ->excludes(gens);
  run->add_option("--backend", options->backend,
                  "auto, cpu or a name from 'gol backends' (default: auto)");
  run->add_option("--rule", options->rule, "B3/S23, b3s23, 23/3 or B3/S23:T256,256");
  run->add_option("--torus", options->torus, "Run on a W x H torus (multiples of 64), as WxH");
  run->add_option("--threads", options->threads, "CPU threads, up to 4096 (0: all)")
      ->check(whole_number(0, 4096))
      ->type_name("N");
  run->add_option("--gpus", options->gpus,
                  "Step the torus in N horizontal bands on GPUs 0..N-1, halos through NCCL")
      ->check(whole_number(1, 1024))
      ->type_name("N");
  run->add_option("--out", options->out,
                  "Write the final pattern: .rle, .cells or .mc, optionally with .gz, or - "
                  "(standard output, RLE unless --format says)")
      ->type_name("FILE");
  run->add_option("--format", options->format,
                  "rle, cells or mc: the format of - (input or output) and of an --out name "
                  "without a known extension")
      ->check(CLI::IsMember({"rle", "cells", "mc"}));
  run->add_option("--log", options->log,
                  "Write CSV rows generation,population,xmin,ymin,xmax,ymax,tiles_active,seconds "
                  "every --every generations, from the start")
      ->type_name("FILE.csv");
  run->add_option("--checkpoint", options->checkpoint,
                  "Keep a resumable state (.rle or .mc, optionally .gz) every --every generations; "
                  "resume by running it")
      ->type_name("FILE.rle");
  run->add_option("--every", options->every, "Generations between --log rows and checkpoints")
      ->check(whole_number(1, kMaxGeneration))
      ->type_name("N");
  add_max_memory_option(*run);
  run->add_flag("--json", options->json, "Print the summary as one JSON object");
  run->add_flag("--quiet", options->quiet, "No progress line");
  run->footer(std::string(kPatternHelp) + kSignalHelp + kExitCodes);
  return {run, [options](const std::vector<std::string>&) { return run_command(*options); }};
}

Subcommand add_info_subcommand(CLI::App& gol) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* info = gol.add_subcommand("info", "Describe a pattern: format, rule, size, comments");
  info->add_option("PATTERN", options->pattern,
                   "A file, - (standard input), builtin:NAME or soup:WxH[:DENSITY[:SEED]]")
      ->required();
  info->add_option("--format", options->format,
                   "rle, cells or mc: read standard input as this format")
      ->check(CLI::IsMember({"rle", "cells", "mc"}));
  add_max_memory_option(*info);
  info->add_flag("--json", options->json, "Print one JSON object");
  info->footer(std::string(kPatternHelp) + kExitCodes);
  return {info, [options](const std::vector<std::string>&) { return info_command(*options); }};
}

Subcommand add_backends_subcommand(CLI::App& gol) {
  CLI::App* backends =
      gol.add_subcommand("backends", "List the backends and whether they run here");
  return {backends, [](const std::vector<std::string>&) { return backends_command(); }};
}

}  // namespace gol::cli
