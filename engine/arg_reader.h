// Walks a subcommand's arguments: flags take their value from the next
// argument or from "--flag=value". Shared by gol run/info and gol bench so
// every subcommand reads flags, and refuses bad numbers, the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gol {

class ArgReader {
 public:
  explicit ArgReader(const std::vector<std::string>& args) : args_(args) {}

  bool done() const { return index_ >= args_.size(); }
  // The next argument, with any "=VALUE" split off for value().
  std::string next_flag();
  // The value of `flag`; UsageError when there is none.
  std::string value(const std::string& flag);
  // UsageError when `flag` was given as "--flag=value".
  void expect_no_value(const std::string& flag) const;

 private:
  const std::vector<std::string>& args_;
  size_t index_ = 0;
  std::optional<std::string> inline_value_;
};

bool is_flag(const std::string& arg);

// A decimal whole number in [min, max]; UsageError naming `flag` otherwise
// (signs, junk, overflow).
uint64_t parse_whole_number(const std::string& flag, const std::string& text, uint64_t min,
                            uint64_t max);

}  // namespace gol
