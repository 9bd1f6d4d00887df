// Output paths checked up front, and atomic writes through a temporary file
// whose name a signal handler can find and remove.
#include "engine/core/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/core/error.h"

namespace gol {
namespace {

// Symlink chains longer than this are refused, as the kernel does (ELOOP).
constexpr int kMaxSymlinkHops = 40;
// ".NAME.gol-XXXXXX": the temporary name adds this many bytes to NAME.
constexpr size_t kTemporaryNameExtra = 11;

// The temporary file being written, for remove_pending_temporary_file. A
// fixed buffer, because a signal handler can neither allocate nor lock.
char pending_temporary[PATH_MAX + 1];
volatile sig_atomic_t pending_temporary_set = 0;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw RuntimeError("cannot write '" + path + "': " + what);
}

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file `path` finally names: symlinks followed (their targets need not
// exist yet, so realpath cannot be used).
std::string resolve_symlinks(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop < kMaxSymlinkHops; ++hop) {
    struct stat info {};
    if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
    std::string target(PATH_MAX, '\0');
    const ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
    if (length < 0) fail(path, std::strerror(errno));
    target.resize(static_cast<size_t>(length));
    current = target.starts_with('/') ? target : folder_of(current) + "/" + target;
  }
  fail(path, "too many levels of symbolic links");
}

mode_t new_file_mode() {
  // umask can only be read by setting it; gol creates no files elsewhere
  // while this runs.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// Empty when all of `data` was written; otherwise the system's reason.
std::string write_all(int fd, std::string_view data) {
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::strerror(errno);
    if (n == 0) return "nothing was written";
    written += static_cast<size_t>(n);
  }
  return {};
}

// Devices and FIFOs cannot be replaced by a rename (and must not be: a
// rename over /dev/null as root would replace the device).
void write_in_place(const std::string& path, const std::string& target, std::string_view data) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) fail(path, std::strerror(errno));
  const std::string why = write_all(fd, data);
  if (::close(fd) != 0 && why.empty()) fail(path, std::strerror(errno));
  if (!why.empty()) fail(path, why);
}

std::string temporary_template(const std::string& target) {
  const std::string name = name_of(target);
  const size_t keep = std::min(name.size(), static_cast<size_t>(NAME_MAX) - kTemporaryNameExtra);
  return folder_of(target) + "/." + name.substr(0, keep) + ".gol-XXXXXX";
}

}  // namespace

void check_output_path(const std::string& path, std::string_view role) {
  const std::string where = std::string(role) + " '" + path + "'";
  if (path.empty()) throw RuntimeError(std::string(role) + ": empty file name");
  const std::string target = resolve_symlinks(path);
  const std::string name = name_of(target);
  if (name.empty()) throw RuntimeError(where + ": names a folder, not a file");
  if (name.size() > NAME_MAX) {
    throw RuntimeError(where + ": the file name is " + std::to_string(name.size()) +
                       " bytes, over the limit of " + std::to_string(NAME_MAX));
  }
  if (target.size() + kTemporaryNameExtra > PATH_MAX) {
    throw RuntimeError(where + ": the path is longer than the limit of " +
                       std::to_string(PATH_MAX) + " bytes");
  }
  struct stat info {};
  if (::stat(target.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    throw RuntimeError(where + " is a folder");
  }
  const std::string folder = folder_of(target);
  if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    throw RuntimeError(where + ": the folder '" + folder + "' does not exist");
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw RuntimeError(where + ": the folder '" + folder + "' is not writable (" +
                       std::strerror(errno) + ")");
  }
}

void write_file_atomically(const std::string& path, std::string_view data) {
  const std::string target = resolve_symlinks(path);
  struct stat existing {};
  const bool exists = ::stat(target.c_str(), &existing) == 0;
  if (exists && !S_ISREG(existing.st_mode)) {
    if (S_ISDIR(existing.st_mode)) fail(path, "it is a folder");
    write_in_place(path, target, data);
    return;
  }
  const std::string pattern = temporary_template(target);
  if (pattern.size() > PATH_MAX) fail(path, "the path is too long");
  std::memcpy(pending_temporary, pattern.c_str(), pattern.size() + 1);
  const int fd = ::mkostemp(pending_temporary, O_CLOEXEC);
  if (fd < 0) fail(path, std::strerror(errno));
  pending_temporary_set = 1;
  const std::string temporary = pending_temporary;
  const auto abandon = [&](const std::string& why) {
    ::unlink(temporary.c_str());
    pending_temporary_set = 0;
    fail(path, why);
  };
  std::string why = write_all(fd, data);
  const mode_t mode = exists ? existing.st_mode & 07777 : new_file_mode();
  if (why.empty() && (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0)) why = std::strerror(errno);
  if (::close(fd) != 0 && why.empty()) why = std::strerror(errno);
  if (!why.empty()) abandon(why);
  if (::rename(temporary.c_str(), target.c_str()) != 0) abandon(std::strerror(errno));
  pending_temporary_set = 0;
}

void remove_pending_temporary_file() noexcept {
  if (pending_temporary_set) ::unlink(pending_temporary);
}

}  // namespace gol
