// The `gol` subcommands. Each returns the process exit code and throws
// gol::Error subclasses for the caller to report.
#pragma once

#include "engine/cli/options.h"

namespace gol::cli {

int run_command(const RunOptions& options);
int info_command(const InfoOptions& options);
int backends_command();

}  // namespace gol::cli
