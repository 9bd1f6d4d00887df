// What a command does with its world when the process ends with it. The
// gol command's main() says so before running its one command, and the
// commands that step a world hand it to keep_until_exit() when they are
// done with it, rather than freeing it.
//
// Why: freeing a stepped world returns its tiles slab by slab, each an
// munmap whose TLB shootdown reaches every core that stepped it, where the
// kernel frees a process's whole address space at exit in one sweep. On
// the dev host that was 13 ms of munmap before a 3 ms exit against a 9 ms
// exit for the spacefiller (0.45 s in all), and about 2 ms of acorn-field's
// 0.63 s (bench/RESULTS.md).
#pragma once

#include <cstddef>
#include <memory>

#include "engine/simulation.h"

namespace gol {

// Whether the process ends when the command being run returns. Off unless
// set: tests, the Python module and the C++ API run many worlds in one
// process, and each is freed when its owner lets it go.
void set_process_ends_with_command(bool ends);
bool process_ends_with_command();

// Where the process ends with this command, keeps `world` until it exits
// (reachable, so leak checkers do not report it); elsewhere frees it now.
void keep_until_exit(std::unique_ptr<Simulation> world);

// The worlds kept so far.
size_t worlds_kept_until_exit();

}  // namespace gol
