// The gol command: dispatches to run, info, bench and backends, and turns
// errors into one stderr line and the documented exit code.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "bench/bench_command.h"
#include "engine/cli/commands.h"
#include "engine/core/error.h"

namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  gol run [PATTERN] [--gens N] [--backend NAME] [--rule RULE] [--torus WxH]\n"
    "          [--threads N] [--out FILE] [--json] [--quiet]\n"
    "  gol info PATTERN [--json]\n"
    "  gol bench [--list] [--workloads A,B|all] [--backends X,Y] [--repeats N] ...\n"
    "  gol backends\n"
    "\n"
    "PATTERN is a file (.rle, .cells, Life 1.05/1.06, optionally gzipped),\n"
    "builtin:NAME or soup:WxH[:DENSITY[:SEED]]; none runs a 2048x2048 soup.\n"
    "Exit codes: 0 success, 2 bad command line, 3 bad input, 4 runtime failure.\n";

int dispatch(const std::string& command, const std::vector<std::string>& rest) {
  if (command == "run") return gol::cli::run_command(rest);
  if (command == "info") return gol::cli::info_command(rest);
  if (command == "bench") return gol::bench::run_bench_command(rest);
  if (command == "backends") return gol::cli::backends_command(rest);
  if (command == "help" || command == "--help" || command == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  throw gol::UsageError("unknown command '" + command +
                        "' (expected run, info, bench or backends)");
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) throw gol::UsageError("no command given");
    return dispatch(args[0], std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const gol::UsageError& e) {
    std::fprintf(stderr, "gol: %s\n%s", e.what(), kUsage);
    return static_cast<int>(e.code());
  } catch (const gol::Error& e) {
    std::fprintf(stderr, "gol: %s\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "gol: out of memory\n");
    return static_cast<int>(gol::ExitCode::kRuntime);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gol: %s\n", e.what());
    return static_cast<int>(gol::ExitCode::kRuntime);
  }
}
