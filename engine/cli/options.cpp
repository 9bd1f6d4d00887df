// Flag parsing for `gol run` and `gol info`.
#include "engine/cli/options.h"

#include <limits>

#include "engine/arg_reader.h"
#include "engine/core/error.h"

namespace gol::cli {

RunOptions parse_run_options(const std::vector<std::string>& args) {
  RunOptions options;
  bool have_pattern = false;
  ArgReader reader(args);
  while (!reader.done()) {
    const std::string flag = reader.next_flag();
    if (flag == "--gens") {
      options.generations =
          parse_whole_number(flag, reader.value(flag), 0, std::numeric_limits<int64_t>::max());
    } else if (flag == "--backend") {
      options.backend = reader.value(flag);
    } else if (flag == "--rule") {
      options.rule = reader.value(flag);
    } else if (flag == "--torus") {
      options.torus = reader.value(flag);
    } else if (flag == "--threads") {
      options.threads = static_cast<int>(parse_whole_number(flag, reader.value(flag), 0, 4096));
    } else if (flag == "--out") {
      options.out = reader.value(flag);
    } else if (flag == "--json") {
      reader.expect_no_value(flag);
      options.json = true;
    } else if (flag == "--quiet") {
      reader.expect_no_value(flag);
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
  ArgReader reader(args);
  while (!reader.done()) {
    const std::string flag = reader.next_flag();
    if (flag == "--json") {
      reader.expect_no_value(flag);
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
