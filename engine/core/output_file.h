// Writing output files so that nothing is lost or half-written: paths are
// checked before any work, data goes through a temporary file and a rename,
// and a signal arriving mid-write removes the temporary file. Every file gol
// writes whole (patterns, checkpoints, bench JSON/CSV) goes through here.
#pragma once

#include <string>
#include <string_view>

namespace gol {

// Checks, before a long run, that `path` can be written: its folder exists
// and is writable, it is not a directory, and its name (and the temporary
// name beside it) fit the system's limits. `role` names the option in the
// message ("--out"). Symlinks are followed. Throws RuntimeError (exit 4).
void check_output_path(const std::string& path, std::string_view role);

// Writes all of `data` to `path`, or nothing. A symlink is followed: its
// target is replaced and the link kept. A regular file is replaced through
// a temporary file in the target's folder, flushed to disk, then renamed
// over it, keeping the existing file's permission bits (a new file gets
// 0666 less the umask). A device or FIFO (/dev/null, /dev/stdout) is written
// in place. Throws RuntimeError naming `path` and the system's reason; the
// temporary file is removed on failure.
void write_file_atomically(const std::string& path, std::string_view data);

// Removes the temporary file of a write_file_atomically in progress, if
// any. Async-signal-safe: for signal handlers that end the process.
void remove_pending_temporary_file() noexcept;

}  // namespace gol
