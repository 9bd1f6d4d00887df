// ArgReader and number parsing for the command line.
#include "engine/arg_reader.h"

#include <charconv>
#include <utility>

#include "engine/core/error.h"

namespace gol {

std::string ArgReader::next_flag() {
  std::string arg = args_[index_++];
  inline_value_.reset();
  if (const size_t eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
    inline_value_ = arg.substr(eq + 1);
    arg.resize(eq);
  }
  return arg;
}

std::string ArgReader::value(const std::string& flag) {
  if (inline_value_) return *std::exchange(inline_value_, std::nullopt);
  if (done()) throw UsageError("option " + flag + " needs a value");
  return args_[index_++];
}

void ArgReader::expect_no_value(const std::string& flag) const {
  if (inline_value_) throw UsageError("option " + flag + " takes no value");
}

bool is_flag(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

uint64_t parse_whole_number(const std::string& flag, const std::string& text, uint64_t min,
                            uint64_t max) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || text[0] == '-' || ec != std::errc() || ptr != end || value < min ||
      value > max) {
    throw UsageError("option " + flag + " expects a whole number from " + std::to_string(min) +
                     " to " + std::to_string(max) + ", got '" + text + "'");
  }
  return value;
}

}  // namespace gol
