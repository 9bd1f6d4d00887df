// fork + exec with an exit stop: the child's wall time and peak memory,
// measured the same way for `gol` and for bgolly.
#include "bench/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/core/error.h"

namespace gol::bench {
namespace {

std::string read_capped(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(kMaxCapturedOutput, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

// In the child between fork and exec only async-signal-safe calls are made.
[[noreturn]] void exec_child(const std::string& program, char* const* argv, int output_fd,
                             int error_pipe) {
  ::dup2(output_fd, STDOUT_FILENO);
  ::dup2(output_fd, STDERR_FILENO);
  // If tracing is refused the child still runs, just without a peak reading.
  ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
  ::execv(program.c_str(), argv);
  const int error = errno;
  [[maybe_unused]] const ssize_t written = ::write(error_pipe, &error, sizeof error);
  ::_exit(127);
}

// Reads the exec error the child reports through a close-on-exec pipe; 0
// when the exec succeeded (the pipe closed with nothing written).
int exec_error(int error_pipe) {
  int error = 0;
  ssize_t n = 0;
  do {
    n = ::read(error_pipe, &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  return n == sizeof error ? error : 0;
}

pid_t wait_for(pid_t pid, int& status) {
  pid_t waited = 0;
  do {
    waited = ::waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  if (waited < 0) throw RuntimeError(std::string("waitpid: ") + std::strerror(errno));
  return waited;
}

bool is_exit_event(int status) {
  return WIFSTOPPED(status) && (status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXIT << 8));
}

// Lets the traced child run to its end, reading VmHWM at the exit stop and
// passing every other signal through unchanged.
void follow_traced_child(pid_t pid, int& status, ChildResult& result) {
  ::ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL);
  ::ptrace(PTRACE_CONT, pid, nullptr, nullptr);
  while (true) {
    wait_for(pid, status);
    if (!WIFSTOPPED(status)) return;
    long signal = 0;
    if (is_exit_event(status)) {
      result.peak_rss_bytes = vm_hwm_bytes(pid);
    } else if (WSTOPSIG(status) != SIGTRAP) {
      signal = WSTOPSIG(status);
    }
    ::ptrace(PTRACE_CONT, pid, nullptr, reinterpret_cast<void*>(signal));
  }
}

}  // namespace

std::string ChildResult::failure(const std::string& what) const {
  return what + " failed (" +
         (signal ? "signal " + std::to_string(signal) : "exit " + std::to_string(exit_code)) +
         "): " + output.substr(0, 2000);
}

ChildResult run_child(const std::vector<std::string>& argv) {
  GOL_CHECK(!argv.empty());
  const std::optional<std::string> program =
      argv[0].find('/') == std::string::npos ? find_on_path(argv[0]) : argv[0];
  if (!program) throw RuntimeError("cannot start " + argv[0] + ": not found on PATH");
  std::vector<char*> raw;
  for (const std::string& arg : argv) raw.push_back(const_cast<char*>(arg.c_str()));
  raw.push_back(nullptr);

  const TempDir dir;
  const std::string capture = dir.file("output");
  const int fd = ::open(capture.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw RuntimeError("cannot create " + capture + ": " + std::strerror(errno));
  int error_pipe[2];
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
    ::close(fd);
    throw RuntimeError(std::string("pipe: ") + std::strerror(errno));
  }

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) exec_child(*program, raw.data(), fd, error_pipe[1]);
  ::close(fd);
  ::close(error_pipe[1]);
  if (pid < 0) {
    ::close(error_pipe[0]);
    throw RuntimeError(std::string("fork: ") + std::strerror(errno));
  }
  const int error = exec_error(error_pipe[0]);
  ::close(error_pipe[0]);

  ChildResult result;
  int status = 0;
  wait_for(pid, status);
  if (error != 0) throw RuntimeError("cannot start " + *program + ": " + std::strerror(error));
  // Traced: stopped at the exec. Untraced (tracing refused): already ended.
  if (WIFSTOPPED(status)) follow_traced_child(pid, status, result);
  const auto end = std::chrono::steady_clock::now();

  result.wall_seconds = std::chrono::duration<double>(end - start).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.output = read_capped(capture);
  return result;
}

// "VmHWM:   25000 kB".
std::optional<uint64_t> vm_hwm_bytes(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!line.starts_with("VmHWM:")) continue;
    return std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
  }
  return std::nullopt;
}

std::optional<std::string> find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  const std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t colon = dirs.find(':', start);
    const size_t end = colon == std::string::npos ? dirs.size() : colon;
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return std::nullopt;
}

std::string self_executable() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw RuntimeError("cannot find the running executable: " + ec.message());
  return exe.string();
}

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/gol-bench-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw RuntimeError("cannot create a temporary directory " + pattern + ": " +
                       std::strerror(errno));
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace gol::bench
