// The exceptions gol throws, each carrying the process exit code the gol
// command maps it to. Public: the C++ API throws exactly these.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gol {

enum class ExitCode : int {
  kOk = 0,
  kUsage = 2,    // bad command line
  kInput = 3,    // bad pattern, rule or torus size
  kRuntime = 4,  // a backend or device failed, or an output could not be written
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(ExitCode::kUsage, message) {}
};

// Bad user input. Formats as "SOURCE:LINE:COLUMN: WHAT"; line and column 0
// mean "not applicable" and are left out.
class InputError : public Error {
 public:
  InputError(std::string_view source, int64_t line, int64_t column, std::string_view what);
  explicit InputError(std::string_view what) : InputError("", 0, 0, what) {}
  const std::string& source() const { return source_; }
  int64_t line() const { return line_; }
  int64_t column() const { return column_; }

 private:
  std::string source_;
  int64_t line_;
  int64_t column_;
};

class RuntimeError : public Error {
 public:
  explicit RuntimeError(const std::string& message) : Error(ExitCode::kRuntime, message) {}
};

}  // namespace gol
