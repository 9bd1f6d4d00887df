// The `gol` subcommands. Each returns the process exit code and throws
// gol::Error subclasses for the caller to report.
#pragma once

#include <string>
#include <vector>

namespace gol::cli {

int run_command(const std::vector<std::string>& args);
int info_command(const std::vector<std::string>& args);
int backends_command(const std::vector<std::string>& args);

}  // namespace gol::cli
