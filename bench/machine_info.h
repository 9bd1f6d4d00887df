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
  // Nanoseconds for a cache line to go to another core and back (the
  // median of a few batches of hand-offs between two threads), or 0 where
  // there is one hardware thread or the hand-offs stalled. Threads sharing
  // a generation pay it at every barrier and for every line one writes and
  // another reads: about 100-200 ns on one socket of bare metal, and what
  // makes sharing generations pay little or nothing where it is more.
  double core_round_trip_ns = 0;
};

// The round trip above, measured now (a few milliseconds where it works).
double core_round_trip_ns();

// `threads`: the --threads value (0 means every hardware thread).
MachineInfo current_machine(int threads);

}  // namespace gol::bench
