// bgolly as a baseline: same pattern (written by our RLE writer), timed as a
// whole process, its output read back through our reader for the check.
#include "bench/golly_runner.h"

#include <algorithm>

#include "bench/agreement.h"
#include "bench/backend_runner.h"
#include "bench/child_process.h"
#include "engine/core/error.h"
#include "patterns/pattern_io.h"

namespace gol::bench {
namespace {

// `output` empty: no -o, so a timed run does not pay for writing a result
// our backends never write.
ChildResult run_bgolly(const GollySettings& settings, uint64_t generations,
                       const std::string& input, const std::string& output) {
  std::vector<std::string> argv = {
      settings.bgolly, "-a", settings.algorithm, "-m", std::to_string(generations), "-q", "-q"};
  if (!output.empty()) argv.insert(argv.end(), {"-o", output});
  argv.push_back(input);
  ChildResult child = run_child(argv);
  if (child.exit_code != 0) {
    throw RuntimeError(child.failure("bgolly -a " + settings.algorithm));
  }
  return child;
}

}  // namespace

std::optional<std::string> find_bgolly() { return find_on_path("bgolly"); }

std::string golly_backend_name(const std::string& algorithm) { return "bgolly-" + algorithm; }

GollyTimer::GollyTimer(const Workload& workload, const Pattern& pattern, GollySettings settings)
    : workload_(workload),
      pattern_(pattern),
      settings_(std::move(settings)),
      input_(dir_.file("in.rle")) {
  patterns::write_pattern_file(input_, pattern);
  result_.workload = workload.name;
  result_.backend = golly_backend_name(settings_.algorithm);
  result_.engine = Engine::kGolly;
  result_.topology = workload.torus ? workload.torus->to_string() : "plane";
  result_.generations = workload.generations;
  result_.load_seconds = run_bgolly(settings_, 0, input_, "").wall_seconds;
}

void GollyTimer::time_one() {
  const ChildResult child = run_bgolly(settings_, workload_.generations, input_, "");
  result_.seconds.push_back(child.wall_seconds);
  fold_peak(result_.peak_rss_bytes, child.peak_rss_bytes);
}

RunResult GollyTimer::result() const {
  GOL_CHECK(!result_.seconds.empty());
  RunResult result = result_;
  result.median_seconds = median(result.seconds);
  result.process_seconds = result.median_seconds;
  // One more, untimed run writes the result for the check.
  const std::string output = dir_.file("out.rle");
  run_bgolly(settings_, workload_.generations, input_, output);

  const Pattern final_pattern = patterns::read_pattern_file(output);
  result.population = final_pattern.cells.population();
  if (settings_.want_shape_hash) result.shape_hash = shape_hash(final_pattern.cells);
  double final_area = 0;
  if (const std::optional<BBox> box = final_pattern.cells.bbox()) {
    final_area = static_cast<double>(box->width()) * static_cast<double>(box->height());
  }
  result.area =
      workload_.torus ? initial_area(pattern_) : std::max(initial_area(pattern_), final_area);
  return result;
}

RunResult run_golly(const Workload& workload, const Pattern& pattern,
                    const GollySettings& settings) {
  GollyTimer timer(workload, pattern, settings);
  for (int i = 0; i < settings.repeats; ++i) timer.time_one();
  return timer.result();
}

}  // namespace gol::bench
