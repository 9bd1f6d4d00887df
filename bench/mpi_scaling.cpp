#include "bench/mpi_scaling.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "bench/child_process.h"
#include "engine/core/error.h"

namespace gol::bench {
namespace {

struct ScalingPoint {
  int ranks = 1;
  int64_t width = 0;
  int64_t height = 0;
  double seconds = 0;  // median of the repeats
  uint64_t population = 0;
};

// The soup every run steps: half alive, one seed, as `gol run` would.
std::string soup_spec(int64_t width, int64_t height) {
  return "soup:" + std::to_string(width) + "x" + std::to_string(height) + ":0.5:2026";
}

std::vector<std::string> rank_command(const BenchOptions& options, const std::string& mpirun,
                                      int ranks, int64_t width, int64_t height) {
  std::vector<std::string> argv;
  if (ranks > 1) {
    argv = {mpirun, "--oversubscribe", "-np", std::to_string(ranks)};
    // Open MPI refuses root without it; containers and CI often run as root.
    if (geteuid() == 0) argv.insert(argv.begin() + 1, "--allow-run-as-root");
  }
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const std::vector<std::string> run = {self_executable(),
                                        "run",
                                        soup_spec(width, height),
                                        "--torus",
                                        size,
                                        "--gens",
                                        std::to_string(options.mpi_generations),
                                        "--threads",
                                        std::to_string(std::max(1, options.threads)),
                                        "--json",
                                        "--quiet"};
  argv.insert(argv.end(), run.begin(), run.end());
  return argv;
}

std::optional<std::string> json_field(const std::string& json, const std::string& key) {
  std::smatch match;
  if (!std::regex_search(json, match, std::regex("\"" + key + "\":([-+0-9.eE]+)"))) {
    return std::nullopt;
  }
  return match[1].str();
}

// One run's wall seconds (as the run reports them) and population.
std::pair<double, uint64_t> run_once(const std::vector<std::string>& argv, int ranks) {
  const ChildResult child = run_child(argv);
  const std::optional<std::string> seconds = json_field(child.output, "seconds");
  const std::optional<std::string> population = json_field(child.output, "population");
  if (child.exit_code != 0 || !seconds || !population) {
    throw RuntimeError("gol bench --mpi-scaling: expected a JSON summary from '" + argv.front() +
                       " ...' on " + std::to_string(ranks) + " ranks, got exit code " +
                       std::to_string(child.exit_code) + " and: " + child.output.substr(0, 2000));
  }
  if (ranks > 1 && child.output.find("\"ranks\":") == std::string::npos) {
    throw RuntimeError(
        "gol bench --mpi-scaling: gol ran without splitting the torus across ranks; this gol "
        "was built without MPI (install libopenmpi-dev and rebuild)");
  }
  return {std::stod(*seconds), std::stoull(*population)};
}

ScalingPoint measure(const BenchOptions& options, const std::string& mpirun, int ranks) {
  ScalingPoint point;
  point.ranks = ranks;
  point.width = options.mpi_side;
  point.height = options.mpi_scaling == "weak" ? options.mpi_side * ranks : options.mpi_side;
  const std::vector<std::string> argv =
      rank_command(options, mpirun, ranks, point.width, point.height);
  std::vector<double> seconds;
  for (int i = 0; i < options.repeats; ++i) {
    const auto [run_seconds, population] = run_once(argv, ranks);
    seconds.push_back(run_seconds);
    point.population = population;
  }
  std::sort(seconds.begin(), seconds.end());
  point.seconds = seconds[seconds.size() / 2];
  return point;
}

double efficiency(const BenchOptions& options, const ScalingPoint& one, const ScalingPoint& p) {
  if (p.seconds <= 0) return 0;
  const double ideal = options.mpi_scaling == "weak" ? one.seconds : one.seconds / p.ranks;
  return ideal / p.seconds;
}

void print_table(const BenchOptions& options, const std::vector<ScalingPoint>& points) {
  const std::string side = std::to_string(options.mpi_side);
  const std::string shape = options.mpi_scaling == "weak"
                                ? "a " + side + "x" + side + " band per rank"
                                : "one " + side + "x" + side + " torus";
  std::printf(
      "MPI %s scaling (%s): random soups of density 0.5, %llu generations, %d thread%s per "
      "rank, median of %d\n",
      options.mpi_scaling.c_str(), shape.c_str(),
      static_cast<unsigned long long>(options.mpi_generations), std::max(1, options.threads),
      options.threads > 1 ? "s" : "", options.repeats);
  std::printf("%-6s %-14s %10s %14s %11s\n", "ranks", "torus", "seconds", "CUpS", "efficiency");
  for (const ScalingPoint& p : points) {
    const double cups = static_cast<double>(p.width) * static_cast<double>(p.height) *
                        static_cast<double>(options.mpi_generations) / p.seconds;
    const std::string torus = std::to_string(p.width) + "x" + std::to_string(p.height);
    std::printf("%-6d %-14s %10.3f %14.3g %10.1f%%\n", p.ranks, torus.c_str(), p.seconds, cups,
                100 * efficiency(options, points.front(), p));
  }
  std::printf("command: %s\n", options.command_line.c_str());
}

// On one torus every rank count must end where one rank does.
void check_populations_agree(const std::vector<ScalingPoint>& points) {
  for (const ScalingPoint& p : points) {
    if (p.population != points.front().population) {
      throw RuntimeError("gol bench --mpi-scaling strong: " + std::to_string(p.ranks) +
                         " ranks ended with population " + std::to_string(p.population) +
                         ", expected " + std::to_string(points.front().population) +
                         " as on one rank");
    }
  }
}

}  // namespace

int run_mpi_scaling(const BenchOptions& options) {
  const std::optional<std::string> mpirun = find_on_path("mpirun");
  const bool needs_mpirun = std::any_of(options.mpi_ranks.begin(), options.mpi_ranks.end(),
                                        [](int ranks) { return ranks > 1; });
  if (needs_mpirun && !mpirun) {
    throw RuntimeError("gol bench --mpi-scaling: mpirun is not on PATH (Debian: openmpi-bin)");
  }
  std::vector<ScalingPoint> points;
  for (int ranks : options.mpi_ranks)
    points.push_back(measure(options, mpirun.value_or(""), ranks));
  print_table(options, points);
  if (options.mpi_scaling == "strong") check_populations_agree(points);
  return 0;
}

}  // namespace gol::bench
