// lifealgo as a baseline: whole-process wall time from outside, the
// generation loop from its own timer, the population for the check.
#include "bench/ulifelib_runner.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "bench/backend_runner.h"
#include "bench/child_process.h"
#include "engine/core/error.h"

namespace gol::bench {

std::optional<std::string> find_ulifelib(const std::optional<std::string>& option) {
  std::optional<std::string> path = option;
  if (!path) {
    if (const char* variable = std::getenv(kUlifelibVariable); variable && *variable) {
      path = variable;
    }
  }
  if (!path) return std::nullopt;
  if (::access(path->c_str(), X_OK) != 0) {
    throw UsageError("ulifelib: '" + *path + "' is not an executable file (build it with " +
                     "bench/build_ulifelib.sh LIFEALG_CHECKOUT)");
  }
  return path;
}

std::string ulifelib_skip_reason(const Workload& workload) {
  if (workload.torus) return "ulifelib runs the unbounded plane only here";
  if (workload.generations % 2 != 0) {
    return "ulifelib steps two generations at a time; " + std::to_string(workload.generations) +
           " is odd";
  }
  return {};
}

std::optional<UlifelibOutput> parse_lifealgo_output(const std::string& output) {
  std::istringstream lines(output);
  std::optional<UlifelibOutput> result;
  for (std::string line; std::getline(lines, line);) {
    // lifealgo reports errors on lines starting "!" (and still exits 0).
    if (line.starts_with("!") || line.find("mismatch") != std::string::npos) return std::nullopt;
    if (!line.starts_with("Final pop is ")) continue;
    std::istringstream fields(line.substr(13));
    UlifelibOutput parsed;
    std::string time_word;
    if (!(fields >> parsed.population >> time_word >> parsed.seconds) || time_word != "time") {
      return std::nullopt;
    }
    result = parsed;
  }
  return result;
}

UlifelibTimer::UlifelibTimer(const Workload& workload, const Pattern& pattern,
                             const std::string& rle, const std::string& lifealgo)
    : workload_(workload) {
  const std::string generations = std::to_string(workload.generations);
  argv_ = {lifealgo, "-f", rle, "-m", generations, "-i", generations, "ulifelib"};
  result_.workload = workload.name;
  result_.backend = "ulifelib";
  result_.engine = Engine::kLifelib;
  result_.topology = "plane";
  result_.generations = workload.generations;
  result_.area = initial_area(pattern);
}

void UlifelibTimer::time_one() {
  const ChildResult child = run_child(argv_);
  const std::optional<UlifelibOutput> parsed = parse_lifealgo_output(child.output);
  if (child.exit_code != 0 || !parsed) {
    throw RuntimeError(child.failure("lifealgo ulifelib on " + workload_.name));
  }
  if (!result_.seconds.empty() && parsed->population != result_.population) {
    throw RuntimeError("lifealgo ulifelib ended " + workload_.name +
                       " differently on repeated runs");
  }
  result_.seconds.push_back(child.wall_seconds);
  engine_seconds_.push_back(parsed->seconds);
  fold_peak(result_.peak_rss_bytes, child.peak_rss_bytes);
  result_.population = parsed->population;
}

RunResult UlifelibTimer::result() const {
  GOL_CHECK(!result_.seconds.empty());
  RunResult result = result_;
  result.median_seconds = median(result.seconds);
  result.process_seconds = result.median_seconds;
  result.reported_engine_seconds = median(engine_seconds_);
  return result;
}

RunResult run_ulifelib(const Workload& workload, const Pattern& pattern, const std::string& rle,
                       const std::string& lifealgo, int repeats) {
  UlifelibTimer timer(workload, pattern, rle, lifealgo);
  for (int i = 0; i < repeats; ++i) timer.time_one();
  return timer.result();
}

}  // namespace gol::bench
