// The gol command: runs the command line and turns errors into one stderr
// line and the documented exit code.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "engine/cli/command_line.h"
#include "engine/core/error.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
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
