// Runs the gol binary as a child process, as a user would: arguments,
// optional standard input, captured stdout and stderr, the exit code, and
// for signal tests a child left running to be signalled.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/scratch_dir_test.h"

extern char** environ;

namespace gol::testing {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A scratch folder per test, and gol run with stdout and stderr captured.
class GolProcessTest : public ScratchDirTest {
 protected:
  fs::path write_file(const std::string& name, const std::string& content) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  // Starts gol with `args`; stdin from `stdin_path` (else /dev/null),
  // stdout to `stdout_path` (else dir_/stdout.txt). Returns the pid.
  pid_t start(const std::vector<std::string>& args, const std::optional<fs::path>& stdin_path = {},
              const std::optional<fs::path>& stdout_path = {}) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, stdin_path ? stdin_path->c_str() : "/dev/null",
                                     O_RDONLY, 0);
    const fs::path out = stdout_path.value_or(dir_ / "stdout.txt");
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, (dir_ / "stderr.txt").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> argv_text{GOL_EXE_PATH};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : argv_text) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (posix_spawn(&pid, GOL_EXE_PATH, &actions, nullptr, argv.data(), environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    return pid;
  }

  // Waits for a child from start(); the exit code, or 128 + the signal.
  Outcome finish(pid_t pid, bool read_stdout = true) {
    Outcome outcome;
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid) {
      outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (read_stdout) outcome.out = slurp(dir_ / "stdout.txt");
    outcome.err = slurp(dir_ / "stderr.txt");
    return outcome;
  }

  Outcome gol(const std::vector<std::string>& args,
              const std::optional<fs::path>& stdin_path = {}) {
    return finish(start(args, stdin_path));
  }

  // Runs gol and expects `code` with `needle` in the first stderr line.
  void expect_failure(const std::vector<std::string>& args, int code, const std::string& needle) {
    const Outcome outcome = gol(args);
    EXPECT_EQ(outcome.exit_code, code) << outcome.err;
    const std::string first_line = outcome.err.substr(0, outcome.err.find('\n'));
    EXPECT_NE(first_line.find(needle), std::string::npos)
        << "stderr: " << outcome.err << "\nexpected to mention: " << needle;
  }
};

}  // namespace gol::testing
