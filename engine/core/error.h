// Errors raised at I/O and command-line boundaries; kernels never throw.
// Each error carries the process exit code it maps to.
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

// Always-on invariant check for internal logic errors (not user input).
[[noreturn]] void check_failed(const char* file, int line, const char* condition);
#define GOL_CHECK(condition) \
  ((condition) ? static_cast<void>(0) : ::gol::check_failed(__FILE__, __LINE__, #condition))
#ifdef NDEBUG
#define GOL_DCHECK(condition) static_cast<void>(0)
#else
#define GOL_DCHECK(condition) GOL_CHECK(condition)
#endif

}  // namespace gol
