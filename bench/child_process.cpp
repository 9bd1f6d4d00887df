// posix_spawn + wait4: the child's wall time and peak memory, measured the
// same way for `gol` and for bgolly.
#include "bench/child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "engine/core/error.h"

extern char** environ;

namespace gol::bench {
namespace {

std::string read_capped(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(kMaxCapturedOutput, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

pid_t spawn_with_output(const std::vector<std::string>& argv, int output_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, output_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output_fd, STDERR_FILENO);
  std::vector<char*> raw;
  for (const std::string& arg : argv) raw.push_back(const_cast<char*>(arg.c_str()));
  raw.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw RuntimeError("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  return pid;
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv) {
  GOL_CHECK(!argv.empty());
  const TempDir dir;
  const std::string capture = dir.file("output");
  const int fd = ::open(capture.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw RuntimeError("cannot create " + capture + ": " + std::strerror(errno));

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  try {
    pid = spawn_with_output(argv, fd);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  int status = 0;
  rusage usage{};
  pid_t waited = 0;
  do {
    waited = ::wait4(pid, &status, 0, &usage);
  } while (waited < 0 && errno == EINTR);
  const auto end = std::chrono::steady_clock::now();
  if (waited < 0) throw RuntimeError("waiting for " + argv[0] + ": " + std::strerror(errno));

  ChildResult result;
  result.wall_seconds = std::chrono::duration<double>(end - start).count();
  // Linux reports ru_maxrss in kilobytes.
  result.peak_rss_bytes = static_cast<uint64_t>(usage.ru_maxrss) * 1024;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.output = read_capped(capture);
  return result;
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
