// The top-level gol app: subcommand dispatch, --version, and turning CLI11's
// parse errors into UsageErrors with suggestions.
#include "engine/cli/command_line.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <optional>

#include "cpu/simd/tile_step.h"
#include "engine/cli/subcommands.h"
#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::cli {
namespace {

constexpr const char* kFooter =
    "Run 'gol COMMAND --help' for a command's options.\n"
    "Exit codes: 0 success, 2 bad command line, 3 bad input, 4 runtime failure.";

// Optimal string alignment distance: edits, with a swap of two neighbours
// counting once, as typing mistakes usually are.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitution = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The candidate closest to `typed`, when close enough to be a slip: within
// a third of the length in edits, or one a prefix of the other ("--out"
// for "--output").
std::optional<std::string> closest(const std::string& typed,
                                   const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = std::max<size_t>(2, typed.size() / 3) + 1;
  for (const std::string& candidate : candidates) {
    size_t distance = edit_distance(typed, candidate);
    const size_t shorter = std::min(typed.size(), candidate.size());
    if (shorter >= 4 && (typed.starts_with(candidate) || candidate.starts_with(typed))) {
      distance = std::min<size_t>(distance, 1);
    }
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::optional<std::string> best = closest(typed, candidates);
  return best ? " (did you mean '" + *best + "'?)" : "";
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

std::string command_path(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  return parent == nullptr ? app.get_name() : command_path(*parent) + " " + app.get_name();
}

std::string help_hint(const CLI::App& app) { return "; see '" + command_path(app) + " --help'"; }

// An option the top level does not know may belong to a subcommand typed
// after it ("gol --gens 5 run").
std::string subcommand_owning(const CLI::App& gol, const std::string& option) {
  for (const CLI::App* sub : gol.get_subcommands({})) {
    const std::vector<std::string> names = option_names(*sub);
    if (std::find(names.begin(), names.end(), option) != names.end()) return sub->get_name();
  }
  return {};
}

[[noreturn]] void refuse_extra(const CLI::App& app, const std::string& extra) {
  const std::string path = command_path(app);
  if (extra.size() > 1 && extra[0] == '-') {
    const std::string option = extra.substr(0, extra.find('='));
    std::string message = "unknown option '" + option + "' for " + path;
    if (app.get_parent() == nullptr) {
      if (const std::string owner = subcommand_owning(app, option); !owner.empty()) {
        throw UsageError(message + ": it is an option of '" + path + " " + owner +
                         "' and goes after the command");
      }
    }
    throw UsageError(message + did_you_mean(option, option_names(app)) + help_hint(app));
  }
  if (!app.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty()) {
    throw UsageError(path + " takes one pattern; '" + extra + "' is one too many" + help_hint(app));
  }
  throw UsageError(path + " does not take the argument '" + extra + "'" + help_hint(app));
}

void refuse_extras(const CLI::App& app) {
  for (const std::string& extra : app.remaining()) {
    // CLI11 keeps the "--" that ends options among the extras.
    if (extra != "--") refuse_extra(app, extra);
  }
}

std::vector<std::string> subcommand_names(const CLI::App& gol) {
  std::vector<std::string> names;
  for (const CLI::App* sub : gol.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

std::string joined(const std::vector<std::string>& names, const std::string& separator) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : separator) + name;
  return text;
}

// CLI11 would call an unknown first word a missing subcommand; name it.
void check_command_word(const CLI::App& gol, const std::vector<std::string>& args) {
  const std::vector<std::string> names = subcommand_names(gol);
  if (args.empty()) {
    throw UsageError("no command given (expected " + joined(names, ", ") + "); see 'gol --help'");
  }
  const std::string& first = args.front();
  if (first.starts_with("-") || std::find(names.begin(), names.end(), first) != names.end()) {
    return;
  }
  throw UsageError("unknown command '" + first + "'" + did_you_mean(first, names) + " (expected " +
                   joined(names, ", ") + "); see 'gol --help'");
}

// The deepest subcommand CLI11 got to, for naming it in an error.
const CLI::App& deepest_parsed(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) return deepest_parsed(*sub);
  return app;
}

}  // namespace

CLI::Validator whole_number(uint64_t min, uint64_t max) {
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || ptr != end || value < min || value > max) {
          return "expected a whole number from " + range + ", got '" + text + "'";
        }
        return {};
      },
      "", "whole number");
}

void add_max_memory_option(CLI::App& command) {
  command
      .add_option_function<std::string>(
          "--max-memory",
          [](const std::string& text) { set_memory_budget(parse_memory_size(text)); },
          "The most memory a pattern, soup, torus or run may take, as 512M, 4G, 1.5GiB "
          "(default: " +
              format_bytes(default_memory_budget()) + ", half of what this machine allows)")
      ->type_name("SIZE");
}

void configure_defaults(CLI::App& gol) {
  // "--quick=yes" is a mistake, not a way to spell --quick.
  gol.option_defaults()->disable_flag_override();
}

void parse_arguments(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::Success&) {
    throw;  // --help, --version
  } catch (const CLI::ArgumentMismatch& e) {
    const CLI::App& where = deepest_parsed(app);
    // CLI11 says "--gens: 1 required N missing"; say it plainly.
    const std::string what = e.what();
    if (what.ends_with(" missing")) {
      throw UsageError(what.substr(0, what.find(':')) + " needs a value" + help_hint(where));
    }
    if (what.ends_with(" was given a disallowed flag override")) {
      throw UsageError("--" + what.substr(0, what.find(' ')) + " takes no value" +
                       help_hint(where));
    }
    throw UsageError(what + help_hint(where));
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what() + help_hint(deepest_parsed(app)));
  }
  refuse_extras(app);
  for (const CLI::App* sub : app.get_subcommands()) refuse_extras(*sub);
}

std::string version_text() {
  const auto line = [](cpu::SimdLibrary library) {
    return joined(cpu::simd_targets_compiled(library), " ") +
           " (this CPU: " + cpu::simd_target_name(library) + ")";
  };
  std::string text = "gol " GOL_VERSION "\n";
  text += "SIMD     Highway " + line(cpu::SimdLibrary::kHighway) + "\n";
  text += "         xsimd " + line(cpu::SimdLibrary::kXsimd) + "\n";
#ifdef GOL_HAVE_CUDA
  text += "CUDA     built, for CUDA architectures " GOL_CUDA_ARCHITECTURES "\n";
#else
  text += "CUDA     not built (CPU backends only)\n";
#endif
  return text;
}

int run_command_line(const std::vector<std::string>& args) {
  CLI::App gol("gol: Conway's Game of Life (and Life-like rules) on CPU and GPU", "gol");
  gol.footer(kFooter);
  gol.set_version_flag(
      "--version", [] { return version_text(); },
      "Print the version, the SIMD "
      "targets and CUDA support");
  gol.require_subcommand(1);
  gol.allow_extras();
  configure_defaults(gol);
  const std::vector<Subcommand> subcommands = {
      add_run_subcommand(gol),    add_info_subcommand(gol),     add_bench_subcommand(gol),
      add_render_subcommand(gol), add_backends_subcommand(gol),
  };
  for (const Subcommand& sub : subcommands) sub.app->allow_extras();
  try {
    check_command_word(gol, args);
    parse_arguments(gol, args);
  } catch (const CLI::Success& e) {
    // CLI11 prints the help or version text of the subcommand asked.
    return gol.exit(e, std::cout, std::cerr);
  }
  for (const Subcommand& sub : subcommands) {
    if (sub.app->parsed()) return sub.run(args);
  }
  GOL_CHECK(false);  // require_subcommand(1) guarantees one was parsed
}

}  // namespace gol::cli
