// Runs a backend through gol::Simulation, in process or in a child, and folds the
// timed repeats into one RunResult.
#include "bench/backend_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <sstream>

#include "bench/agreement.h"
#include "bench/child_process.h"
#include "engine/core/error.h"
#include "engine/process_exit.h"
#include "engine/simulation.h"

namespace gol::bench {
namespace {

constexpr std::string_view kResultTag = "gol-bench-run";

std::vector<std::string> child_command(const Workload& workload, const std::string& backend,
                                       const RunSettings& settings) {
  std::vector<std::string> argv = {settings.gol_executable,
                                   "bench",
                                   "--run-one",
                                   workload.name,
                                   "--backends",
                                   backend,
                                   "--threads",
                                   std::to_string(settings.threads)};
  if (settings.quick) argv.push_back("--quick");
  if (settings.want_shape_hash) argv.push_back("--shape-hash");
  if (!settings.pattern_file.empty())
    argv.insert(argv.end(), {"--pattern-file", settings.pattern_file});
  return argv;
}

SingleRun run_isolated(const Workload& workload, const std::string& backend,
                       const RunSettings& settings, std::optional<uint64_t>& peak_rss,
                       double& process_seconds) {
  const ChildResult child = run_child(child_command(workload, backend, settings));
  if (child.signal == 0 && child.exit_code == static_cast<int>(ExitCode::kInput)) {
    throw InputError(child.output.substr(0, 2000));  // the backend refused this world
  }
  if (child.exit_code != 0) {
    throw RuntimeError(child.failure("isolated run of " + backend + " on " + workload.name));
  }
  process_seconds = child.wall_seconds;
  SingleRun run = parse_single_run(child.output);
  // The engine's peak, not the check's: the child's whole-process peak only
  // where it did not report one.
  fold_peak(peak_rss, run.run_peak_rss_bytes ? run.run_peak_rss_bytes : child.peak_rss_bytes);
  return run;
}

void check_repeat_agrees(const SingleRun& first, const SingleRun& run, const Workload& workload,
                         const std::string& backend) {
  if (run.population == first.population && run.cell_hash == first.cell_hash) return;
  throw RuntimeError("backend " + backend + " ended " + workload.name +
                     " differently on repeated runs (population " +
                     std::to_string(first.population) + " then " + std::to_string(run.population) +
                     ")");
}

template <typename Field>
double median_of(const std::vector<SingleRun>& runs, Field field) {
  std::vector<double> values;
  for (const SingleRun& run : runs) values.push_back(field(run));
  return median(std::move(values));
}

RunResult summarize(const Workload& workload, const Pattern& pattern, const std::string& backend,
                    const std::vector<SingleRun>& runs) {
  const SingleRun& last = runs.back();
  RunResult result;
  result.workload = workload.name;
  result.backend = backend;
  result.engine = Engine::kGol;
  result.topology = workload.torus ? workload.torus->to_string() : "plane";
  result.generations = workload.generations;
  for (const SingleRun& run : runs) result.seconds.push_back(run.seconds);
  result.median_seconds = median(result.seconds);
  result.area = std::max(initial_area(pattern), last.final_area);
  result.cells_computed = last.stats.cells_computed;
  result.device_seconds =
      median_of(runs, [](const SingleRun& r) { return r.stats.device_seconds; });
  result.transfer_seconds =
      median_of(runs, [](const SingleRun& r) { return r.stats.transfer_seconds; });
  result.tiles_active = last.stats.tiles_active;
  result.tiles_total = last.stats.tiles_total;
  result.simd_target = last.stats.simd_target;
  result.population = last.population;
  result.cell_hash = last.cell_hash;
  result.shape_hash = runs.front().shape_hash;
  return result;
}

SimulationOptions simulation_options(const std::string& backend, int threads) {
  SimulationOptions options;
  options.backend = backend;
  options.backend_options.threads = threads;
  return options;
}

// A Reader (add(coord, tile), merge(other)) of every tile of the world, made
// by make() for each of its parts and read on the backend's threads, then
// merged. Each part's reader sits on its own cache lines.
template <typename Reader, typename Make>
Reader read_in_parts(const Simulation& world, Make make) {
  struct alignas(64) PartReader {
    Reader reader;
  };
  std::vector<PartReader> parts;
  for (size_t part = 0; part < world.tile_parts(); ++part) parts.push_back({make()});
  world.visit_tiles_in_parts(
      [&](size_t part, TileCoord coord, const Tile& tile) { parts[part].reader.add(coord, tile); });
  Reader all = make();
  for (const PartReader& part : parts) all.merge(part.reader);
  return all;
}

// Times Simulation::advance alone, then reads the final state for the check.
SingleRun time_advance(Simulation& world, const Workload& workload, double initial_area,
                       bool want_shape_hash) {
  const auto start = std::chrono::steady_clock::now();
  world.advance(workload.generations);
  const auto end = std::chrono::steady_clock::now();

  SingleRun run;
  run.run_peak_rss_bytes = vm_hwm_bytes(::getpid());
  run.seconds = std::chrono::duration<double>(end - start).count();
  run.stats = world.stats();
  // Read where the backend holds the world: copying it out first took
  // most of the time outside the run on large worlds (about 0.15 s of the
  // spacefiller's 1.6 s process). And read in parts on the backend's
  // threads where it has several.
  const WorldDigest digest = read_in_parts<WorldDigest>(world, [] { return WorldDigest{}; });
  run.population = digest.population();
  run.cell_hash = digest.cell_hash();
  const bool torus = world.topology().is_torus();
  const std::optional<BBox>& box = digest.bbox();
  if (want_shape_hash) {
    // Hashed in place too, from the bounding box's corner.
    const ShapeHasher shape = read_in_parts<ShapeHasher>(
        world, [&] { return ShapeHasher(box ? box->xmin : 0, box ? box->ymin : 0); });
    run.shape_hash = shape.value();
  }
  run.final_area = torus ? initial_area : bbox_area(box);
  return run;
}

}  // namespace

double initial_area(const Pattern& pattern) {
  if (pattern.topology && pattern.topology->is_torus()) {
    return static_cast<double>(pattern.topology->width) *
           static_cast<double>(pattern.topology->height);
  }
  return bbox_area(pattern.cells.bbox());
}

SingleRun run_once(const Workload& workload, const Pattern& pattern, const std::string& backend,
                   int threads, bool want_shape_hash) {
  Simulation world(pattern, simulation_options(backend, threads));
  return time_advance(world, workload, initial_area(pattern), want_shape_hash);
}

SingleRun run_once_releasing(const Workload& workload, Pattern pattern, const std::string& backend,
                             int threads, bool want_shape_hash) {
  const double area = initial_area(pattern);
  auto world =
      std::make_unique<Simulation>(std::move(pattern), simulation_options(backend, threads));
  const std::optional<uint64_t> load_peak = vm_hwm_bytes(::getpid());
  SingleRun run = time_advance(*world, workload, area, want_shape_hash);
  run.load_peak_rss_bytes = load_peak;
  keep_until_exit(std::move(world));
  return run;
}

std::string format_single_run(const SingleRun& run) {
  std::ostringstream out;
  out.precision(17);
  out << kResultTag << " seconds=" << run.seconds << " population=" << run.population
      << " cell_hash=" << run.cell_hash << " final_area=" << run.final_area
      << " cells_computed=" << run.stats.cells_computed
      << " tiles_active=" << run.stats.tiles_active << " tiles_total=" << run.stats.tiles_total
      << " device_seconds=" << run.stats.device_seconds
      << " transfer_seconds=" << run.stats.transfer_seconds;
  if (run.shape_hash) out << " shape_hash=" << *run.shape_hash;
  if (run.load_peak_rss_bytes) out << " load_peak_rss_bytes=" << *run.load_peak_rss_bytes;
  if (run.run_peak_rss_bytes) out << " run_peak_rss_bytes=" << *run.run_peak_rss_bytes;
  if (!run.stats.simd_target.empty()) out << " simd_target=" << run.stats.simd_target;
  return out.str();
}

// How each key of the result line is read into a SingleRun.
using FieldReader = void (*)(std::istream&, SingleRun&);
const std::map<std::string, FieldReader>& field_readers() {
  static const std::map<std::string, FieldReader> readers = {
      {"seconds", [](std::istream& in, SingleRun& r) { in >> r.seconds; }},
      {"population", [](std::istream& in, SingleRun& r) { in >> r.population; }},
      {"cell_hash", [](std::istream& in, SingleRun& r) { in >> r.cell_hash; }},
      {"final_area", [](std::istream& in, SingleRun& r) { in >> r.final_area; }},
      {"cells_computed", [](std::istream& in, SingleRun& r) { in >> r.stats.cells_computed; }},
      {"tiles_active", [](std::istream& in, SingleRun& r) { in >> r.stats.tiles_active; }},
      {"tiles_total", [](std::istream& in, SingleRun& r) { in >> r.stats.tiles_total; }},
      {"device_seconds", [](std::istream& in, SingleRun& r) { in >> r.stats.device_seconds; }},
      {"transfer_seconds", [](std::istream& in, SingleRun& r) { in >> r.stats.transfer_seconds; }},
      {"shape_hash", [](std::istream& in, SingleRun& r) { in >> r.shape_hash.emplace(); }},
      {"load_peak_rss_bytes",
       [](std::istream& in, SingleRun& r) { in >> r.load_peak_rss_bytes.emplace(); }},
      {"run_peak_rss_bytes",
       [](std::istream& in, SingleRun& r) { in >> r.run_peak_rss_bytes.emplace(); }},
      {"simd_target", [](std::istream& in, SingleRun& r) { in >> r.stats.simd_target; }},
  };
  return readers;
}

SingleRun parse_single_run(const std::string& output) {
  const size_t tag = output.rfind(kResultTag);
  if (tag == std::string::npos) {
    throw RuntimeError("no result line in the child's output: " + output.substr(0, 2000));
  }
  std::istringstream line(output.substr(tag + kResultTag.size()));
  SingleRun run;
  int fields = 0;
  for (std::string item; line >> item;) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos) break;
    const auto reader = field_readers().find(item.substr(0, eq));
    if (reader == field_readers().end()) continue;
    std::istringstream value(item.substr(eq + 1));
    reader->second(value, run);
    if (value.fail()) throw RuntimeError("malformed '" + item + "' in the child's result line");
    ++fields;
  }
  // Every field format_single_run always writes.
  constexpr int kRequiredFields = 9;
  if (fields < kRequiredFields) {
    throw RuntimeError("incomplete result line from the child: " + output.substr(tag, 500));
  }
  return run;
}

BackendTimer::BackendTimer(const Workload& workload, const Pattern& pattern, std::string backend,
                           RunSettings settings)
    : workload_(workload),
      pattern_(pattern),
      backend_(std::move(backend)),
      settings_(std::move(settings)) {}

SingleRun BackendTimer::run_one() {
  if (!settings_.isolate) {
    return run_once(workload_, pattern_, backend_, settings_.threads, settings_.want_shape_hash);
  }
  // The check against Golly needs the cells' shape once: every timed run
  // must end in the first one's cells (time_one), and hashing them again
  // would add a second pass over the world to each timed process (about
  // 3 ms of the spacefiller's 0.4 s on the dev host).
  RunSettings settings = settings_;
  settings.want_shape_hash = settings_.want_shape_hash && runs_.empty();
  return run_isolated(workload_, backend_, settings, peak_rss_, process_seconds_);
}

void BackendTimer::warm_up() {
  for (int i = 0; i < settings_.warmup; ++i) run_one();
}

void BackendTimer::time_one() {
  runs_.push_back(run_one());
  process_times_.push_back(process_seconds_);
  check_repeat_agrees(runs_.front(), runs_.back(), workload_, backend_);
}

RunResult BackendTimer::result() const {
  GOL_CHECK(!runs_.empty());
  RunResult result = summarize(workload_, pattern_, backend_, runs_);
  if (settings_.isolate) {
    for (const SingleRun& run : runs_)
      fold_peak(result.load_peak_rss_bytes, run.load_peak_rss_bytes);
    result.peak_rss_bytes = peak_rss_;
    result.process_seconds = median(process_times_);
  }
  return result;
}

RunResult run_backend(const Workload& workload, const Pattern& pattern, const std::string& backend,
                      const RunSettings& settings) {
  BackendTimer timer(workload, pattern, backend, settings);
  timer.warm_up();
  for (int i = 0; i < settings.repeats; ++i) timer.time_one();
  return timer.result();
}

}  // namespace gol::bench
