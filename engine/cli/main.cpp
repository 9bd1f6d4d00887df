// The gol command: runs the command line and turns errors into one stderr
// line and the documented exit code. Output lost on the way to stdout (a
// full disk, /dev/full) is an error too, not a silent exit 0.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "engine/cli/command_line.h"
#include "engine/cli/signals.h"
#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "engine/process_exit.h"

namespace {

int run(const std::vector<std::string>& args) {
  try {
    return gol::cli::run_command_line(args);
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

// std::cout shares stdout's buffer (sync_with_stdio), so one flush and one
// error flag cover both.
bool stdout_written() {
  std::cout.flush();
  return std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good();
}

}  // namespace

int main(int argc, char** argv) {
  gol::release_heap_in_large_steps();
  gol::set_process_ends_with_command(true);
  gol::cli::install_signal_handlers();
  const int code = run(std::vector<std::string>(argv + 1, argv + argc));
  if (!stdout_written()) {
    std::fprintf(stderr, "gol: cannot write to standard output: %s\n",
                 errno != 0 ? std::strerror(errno) : "write error");
    return code != 0 ? code : static_cast<int>(gol::ExitCode::kRuntime);
  }
  return code;
}
