// Signal handlers: record a stop request during a run, otherwise clean up
// and end the process with the signal's default action.
#include "engine/cli/signals.h"

#include <signal.h>
#include <time.h>

#include "engine/core/output_file.h"

namespace gol::cli {
namespace {

volatile sig_atomic_t stop_requests_active = 0;
volatile sig_atomic_t stop_signal = 0;
// When the stop was asked for (CLOCK_MONOTONIC), written only by the handler.
timespec stop_time{};

// clock_gettime is async-signal-safe.
bool within_a_second_of_the_stop() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  const long long elapsed_ns =
      (now.tv_sec - stop_time.tv_sec) * 1000000000LL + (now.tv_nsec - stop_time.tv_nsec);
  return elapsed_ns < 1000000000LL;
}

void on_signal(int number) {
  if (stop_requests_active && stop_signal == 0) {
    clock_gettime(CLOCK_MONOTONIC, &stop_time);
    stop_signal = number;
    return;
  }
  if (stop_requests_active && within_a_second_of_the_stop()) return;
  remove_pending_temporary_file();
  // Dying by the signal itself tells the parent how gol ended.
  ::signal(number, SIG_DFL);
  ::raise(number);
}

}  // namespace

void install_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  // Restarted system calls: a signal only sets a flag the run loop reads.
  action.sa_flags = SA_RESTART;
  // Installed even where the parent ignored SIGINT (a background job of a
  // script): `kill -INT` must still stop a run with its work kept.
  for (const int number : {SIGINT, SIGTERM}) ::sigaction(number, &action, nullptr);
  ::signal(SIGXFSZ, SIG_IGN);
}

StopRequests::StopRequests() {
  stop_signal = 0;
  stop_requests_active = 1;
}

StopRequests::~StopRequests() { stop_requests_active = 0; }

int StopRequests::signal() const { return stop_signal; }

}  // namespace gol::cli
