// Flag parsing for `gol run` and `gol info`.
#include "engine/cli/options.h"

#include <charconv>
#include <limits>
#include <utility>

#include "engine/core/error.h"

namespace gol::cli {
namespace {

// Walks the argument list; flags take their value from the next argument or
// from "--flag=value".
class ArgCursor {
 public:
  explicit ArgCursor(const std::vector<std::string>& args) : args_(args) {}

  bool done() const { return index_ >= args_.size(); }

  // The next argument's flag name (text before '='), consuming it.
  std::string next_flag() {
    const std::string& arg = args_[index_++];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value_ = arg.substr(eq + 1);
      return arg.substr(0, eq);
    }
    inline_value_.reset();
    return arg;
  }

  std::string value_for(const std::string& flag) {
    if (inline_value_) return *std::exchange(inline_value_, std::nullopt);
    if (done()) throw UsageError("option " + flag + " needs a value");
    return args_[index_++];
  }

  void reject_inline_value(const std::string& flag) const {
    if (inline_value_) throw UsageError("option " + flag + " takes no value");
  }

 private:
  const std::vector<std::string>& args_;
  size_t index_ = 0;
  std::optional<std::string> inline_value_;
};

bool is_flag(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

}  // namespace

uint64_t parse_count(const std::string& flag, const std::string& text, uint64_t max) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || text[0] == '-' || ec != std::errc() || ptr != end || value > max) {
    throw UsageError("option " + flag + " expects a whole number from 0 to " + std::to_string(max) +
                     ", got '" + text + "'");
  }
  return value;
}

RunOptions parse_run_options(const std::vector<std::string>& args) {
  RunOptions options;
  bool have_pattern = false;
  ArgCursor cursor(args);
  while (!cursor.done()) {
    const std::string flag = cursor.next_flag();
    if (flag == "--gens") {
      options.generations =
          parse_count(flag, cursor.value_for(flag), std::numeric_limits<int64_t>::max());
    } else if (flag == "--backend") {
      options.backend = cursor.value_for(flag);
    } else if (flag == "--rule") {
      options.rule = cursor.value_for(flag);
    } else if (flag == "--torus") {
      options.torus = cursor.value_for(flag);
    } else if (flag == "--threads") {
      options.threads = static_cast<int>(parse_count(flag, cursor.value_for(flag), 4096));
    } else if (flag == "--out") {
      options.out = cursor.value_for(flag);
    } else if (flag == "--json") {
      cursor.reject_inline_value(flag);
      options.json = true;
    } else if (flag == "--quiet") {
      cursor.reject_inline_value(flag);
      options.quiet = true;
    } else if (is_flag(flag)) {
      throw UsageError("unknown option '" + flag + "' for gol run (see gol --help)");
    } else if (have_pattern) {
      throw UsageError("gol run takes one pattern; got '" + options.pattern + "' and '" + flag +
                       "'");
    } else {
      options.pattern = flag;
      have_pattern = true;
    }
  }
  return options;
}

InfoOptions parse_info_options(const std::vector<std::string>& args) {
  InfoOptions options;
  bool have_pattern = false;
  ArgCursor cursor(args);
  while (!cursor.done()) {
    const std::string flag = cursor.next_flag();
    if (flag == "--json") {
      cursor.reject_inline_value(flag);
      options.json = true;
    } else if (is_flag(flag)) {
      throw UsageError("unknown option '" + flag + "' for gol info (see gol --help)");
    } else if (have_pattern) {
      throw UsageError("gol info takes one pattern; got '" + options.pattern + "' and '" + flag +
                       "'");
    } else {
      options.pattern = flag;
      have_pattern = true;
    }
  }
  if (!have_pattern)
    throw UsageError("gol info needs a PATTERN (a file, builtin:NAME or soup:...)");
  return options;
}

}  // namespace gol::cli
