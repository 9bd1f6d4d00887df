// SIGINT and SIGTERM. While a run is stepping (a StopRequests exists), the
// first one asks it to stop and keep its work (write --out, the checkpoint,
// the log); any other time, or a second time a second or more later, gol
// ends at once, removing the temporary file of a write in progress first.
// A second signal within the second is the same request delivered twice
// (`timeout` signals its child and then its whole process group).
#pragma once

namespace gol::cli {

// Once, at the start of main. Also ignores SIGXFSZ, so a file-size limit
// turns into a write error with a message instead of a silent kill.
void install_signal_handlers();

class StopRequests {
 public:
  StopRequests();
  ~StopRequests();
  StopRequests(const StopRequests&) = delete;
  StopRequests& operator=(const StopRequests&) = delete;

  // The signal that asked to stop, or 0.
  int signal() const;
};

}  // namespace gol::cli
