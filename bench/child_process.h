// Runs a program as a child process and measures it from outside: wall
// time around start and wait, and the child's own peak resident memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gol::bench {

struct ChildResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  double wall_seconds = 0;
  // VmHWM of the child's own address space, read as it exits; nullopt where
  // the system does not let us stop it there (ptrace refused).
  std::optional<uint64_t> peak_rss_bytes;
  std::string output;  // stdout and stderr, as written to the capture file

  // "WHAT failed (exit N): OUTPUT" (or "signal N"), the output cut to its
  // first 2000 bytes: the message for a child that did not succeed.
  std::string failure(const std::string& what) const;
};

// Runs `argv` (argv[0] looked up on PATH) with stdout and stderr written to
// a temporary file that is read back into `output` (at most
// kMaxCapturedOutput bytes). Throws RuntimeError if it cannot start.
//
// Why not wait4's ru_maxrss: Linux folds the address space a process had
// before execve into ru_maxrss, so a child of a large bench process would
// report the bench's own peak. The child is instead traced (PTRACE_TRACEME,
// PTRACE_O_TRACEEXIT) and its VmHWM read from /proc at its exit stop, when
// it still holds its memory; nothing is traced while it runs.
ChildResult run_child(const std::vector<std::string>& argv);

inline constexpr size_t kMaxCapturedOutput = size_t{1} << 20;

// Keeps the largest peak seen over several runs.
inline void fold_peak(std::optional<uint64_t>& peak, const std::optional<uint64_t>& reading) {
  if (reading && (!peak || *reading > *peak)) peak = reading;
}

// VmHWM (peak resident memory) of a live process, from /proc/PID/status.
std::optional<uint64_t> vm_hwm_bytes(int pid);

// The full path of `program` found on PATH; nullopt if not there.
std::optional<std::string> find_on_path(const std::string& program);

// The running executable (/proc/self/exe).
std::string self_executable();

// A fresh private directory under $TMPDIR (or /tmp), removed with its
// contents when the object goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace gol::bench
