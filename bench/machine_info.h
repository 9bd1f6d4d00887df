// What the bench header says about where it ran: CPU model, hardware
// threads, threads used, load, and the date.
#pragma once

#include <string>

namespace gol::bench {

struct MachineInfo {
  std::string cpu_model;  // "model name" from /proc/cpuinfo, or "unknown"
  int hardware_threads = 0;
  int threads_used = 0;
  std::string date_utc;  // ISO 8601, e.g. "2026-11-23T03:40:00Z"
  // The 1, 5 and 15 minute load averages when the bench started, from
  // /proc/loadavg ("" if unreadable): on a shared machine, how busy it was.
  std::string load_average;
};

// `threads`: the --threads value (0 means every hardware thread).
MachineInfo current_machine(int threads);

}  // namespace gol::bench
