// Runs a program as a child process and measures it from outside: wall
// time around spawn and wait, and peak resident memory from wait4's rusage.
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
  uint64_t peak_rss_bytes = 0;
  std::string output;  // stdout and stderr, as written to the capture file
};

// Runs `argv` (argv[0] looked up on PATH) with stdout and stderr written to
// a temporary file that is read back into `output` (at most
// kMaxCapturedOutput bytes). Throws RuntimeError if it cannot start.
ChildResult run_child(const std::vector<std::string>& argv);

inline constexpr size_t kMaxCapturedOutput = size_t{1} << 20;

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
