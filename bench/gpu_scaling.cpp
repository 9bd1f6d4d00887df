#include "bench/gpu_scaling.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_result.h"
#include "engine/core/error.h"
#include "gpu/nccl_bands.h"

namespace gol::bench {
namespace {

// The soup every GPU count starts from: the same cells of one torus, made
// on the devices, so strong scaling ends with one population.
constexpr uint64_t kSeed = 20261123;

struct ScalingPoint {
  int gpus = 1;
  int64_t width = 0;
  int64_t height = 0;
  std::string skipped;  // why this count did not run, or ""
  std::string device;
  double seconds = 0;            // median of the repeats
  double exchange_seconds = 0;   // the most a band spent in NCCL, all runs
  uint64_t bytes_exchanged = 0;  // every band, all runs
  uint64_t population = 0;       // after the warm-up and every repeat
};

bool weak(const BenchOptions& options) { return options.gpu_scaling == "weak"; }

double seconds_of(gpu::GpuBands& bands, uint64_t generations) {
  const auto start = std::chrono::steady_clock::now();
  bands.step(generations);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One untimed run, then the timed repeats, each a whole step() (which
// returns once every device is done).
void measure(const BenchOptions& options, ScalingPoint& point) {
  const auto bands = gpu::make_nccl_bands_soup(
      Rule::conway(), Topology::torus(point.width, point.height), point.gpus, kSeed);
  bands->step(options.kernel_generations);
  std::vector<double> seconds;
  for (int i = 0; i < options.repeats; ++i) {
    seconds.push_back(seconds_of(*bands, options.kernel_generations));
  }
  point.seconds = median(seconds);
  point.device = bands->device_name();
  point.population = bands->population();
  for (const gpu::GpuBandFigures& band : bands->figures()) {
    point.exchange_seconds = std::max(point.exchange_seconds, band.exchange_seconds);
    point.bytes_exchanged += band.bytes_exchanged;
  }
}

ScalingPoint point_for(const BenchOptions& options, int gpus) {
  ScalingPoint point;
  point.gpus = gpus;
  point.width = options.gpu_side;
  point.height = weak(options) ? options.gpu_side * gpus : options.gpu_side;
  point.skipped = gpu::nccl_bands_unavailable_reason(gpus);
  if (point.skipped.empty()) measure(options, point);
  return point;
}

double efficiency(const BenchOptions& options, const ScalingPoint& one, const ScalingPoint& p) {
  if (p.seconds <= 0) return 0;
  const double ideal = weak(options) ? one.seconds : one.seconds / p.gpus;
  return ideal / p.seconds;
}

void print_table(const BenchOptions& options, const std::string& device,
                 const std::vector<ScalingPoint>& points) {
  const std::string side = std::to_string(options.gpu_side);
  const std::string shape = weak(options) ? "a " + side + "x" + side + " band per GPU"
                                          : "one " + side + "x" + side + " torus";
  std::printf(
      "GPU %s scaling (%s) on %s: random soup of density 1/2, %llu generations, halos through "
      "NCCL every 16, median of %d after one warm-up run\n",
      options.gpu_scaling.c_str(), shape.c_str(), device.c_str(),
      static_cast<unsigned long long>(options.kernel_generations), options.repeats);
  std::printf("%-5s %-15s %10s %12s %11s %12s %12s\n", "gpus", "torus", "seconds", "CUpS",
              "efficiency", "exchange s", "exchanged");
  for (const ScalingPoint& p : points) {
    const std::string torus = std::to_string(p.width) + "x" + std::to_string(p.height);
    if (!p.skipped.empty()) {
      std::printf("%-5d %-15s skipped: %s\n", p.gpus, torus.c_str(), p.skipped.c_str());
      continue;
    }
    const double cups = static_cast<double>(p.width) * static_cast<double>(p.height) *
                        static_cast<double>(options.kernel_generations) / p.seconds;
    std::printf("%-5d %-15s %10.4f %11.2fT %10.1f%% %12.4f %11.1fM\n", p.gpus, torus.c_str(),
                p.seconds, cups / 1e12, 100 * efficiency(options, points.front(), p),
                p.exchange_seconds, static_cast<double>(p.bytes_exchanged) / 1e6);
  }
  std::printf("command: %s\n", options.command_line.c_str());
}

// On one torus every GPU count must end where one GPU does.
void check_populations_agree(const std::vector<ScalingPoint>& points) {
  for (const ScalingPoint& p : points) {
    if (p.skipped.empty() && p.population != points.front().population) {
      throw RuntimeError("gol bench --gpu-scaling strong: " + std::to_string(p.gpus) +
                         " GPUs ended with population " + std::to_string(p.population) +
                         ", expected " + std::to_string(points.front().population) +
                         " as on one GPU");
    }
  }
}

}  // namespace

int run_gpu_scaling(const BenchOptions& options) {
  const std::string reason = gpu::nccl_bands_unavailable_reason(1);
  if (!reason.empty()) throw RuntimeError("--gpu-scaling needs a GPU: " + reason);
  std::vector<ScalingPoint> points;
  for (int gpus : options.gpu_counts) {
    std::fprintf(stderr, "gol bench: %d GPU%s\n", gpus, gpus == 1 ? "" : "s");
    points.push_back(point_for(options, gpus));
  }
  print_table(options, points.front().device, points);
  if (!weak(options)) check_populations_agree(points);
  return 0;
}

}  // namespace gol::bench
