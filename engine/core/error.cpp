// Formatting for the error types and the invariant-check failure path.
#include "engine/core/error.h"

#include <cstdio>
#include <cstdlib>

namespace gol {
namespace {

std::string format_location(std::string_view source, int64_t line, int64_t column,
                            std::string_view what) {
  std::string message(source);
  if (!source.empty()) {
    if (line > 0) {
      message.append(":").append(std::to_string(line));
      if (column > 0) message.append(":").append(std::to_string(column));
    }
    message.append(": ");
  }
  message.append(what);
  return message;
}

}  // namespace

InputError::InputError(std::string_view source, int64_t line, int64_t column,
                       std::string_view what)
    : Error(ExitCode::kInput, format_location(source, line, column, what)),
      source_(source),
      line_(line),
      column_(column) {}

void check_failed(const char* file, int line, const char* condition) {
  std::fprintf(stderr, "%s:%d: internal check failed: %s\n", file, line, condition);
  std::abort();
}

}  // namespace gol
