// Kernel-only GPU timing: each kernel runs the same seeded soup, timed by
// CUDA events after a warm-up; the final populations must agree.
#include "bench/gpu_kernel_bench.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/json_writer.h"
#ifdef GOL_HAVE_CUDA
#include "gpu/gpu_backend.h"
#endif

namespace gol::bench {

#ifdef GOL_HAVE_CUDA
namespace {

// The integer-ALU bound for Life on an H100 quoted by issue 4.
constexpr double kAluBoundCups = 38e12;
constexpr uint64_t kSeed = 20261123;
// The naive kernel is ~150x slower; it runs this fraction of the
// generations so a 65536^2 row takes seconds, not minutes.
constexpr uint64_t kNaiveGenerationDivisor = 64;

struct KernelRow {
  gpu::GpuKernelTiming timing;
  uint64_t reference_population = 0;  // multi-step on the same soup and generations
  double public_cups = 0;             // the public kernel's on the same side
};

const char* kernel_label(gpu::TorusKernel kernel) {
  switch (kernel) {
    case gpu::TorusKernel::kMultiStep:
      return "multi-step";
    case gpu::TorusKernel::kPublicBaseline:
      return "public";
    case gpu::TorusKernel::kBitStep:
      return "bit-step";
    case gpu::TorusKernel::kNaive:
      return "naive";
  }
  return "?";
}

// Ours, the public kernel, then the one-generation baselines on one side;
// ours and the public kernel back to back, so that they see the same GPU.
std::vector<KernelRow> measure_side(int64_t side, const BenchOptions& options) {
  const uint64_t gens = options.kernel_generations;
  const int repeats = options.repeats;
  std::vector<KernelRow> rows;
  const gpu::GpuKernelTiming multistep =
      gpu::time_torus_kernel(side, side, gens, repeats, kSeed, gpu::TorusKernel::kMultiStep);
  rows.push_back({multistep, multistep.final_population});
  const gpu::GpuKernelTiming public_kernel =
      gpu::time_torus_kernel(side, side, gens, repeats, kSeed, gpu::TorusKernel::kPublicBaseline);
  rows.push_back({public_kernel, multistep.final_population});
  const gpu::GpuKernelTiming bitstep =
      gpu::time_torus_kernel(side, side, gens, repeats, kSeed, gpu::TorusKernel::kBitStep);
  rows.push_back({bitstep, multistep.final_population});
  const uint64_t naive_gens = std::max<uint64_t>(1, gens / kNaiveGenerationDivisor);
  const gpu::GpuKernelTiming naive =
      gpu::time_torus_kernel(side, side, naive_gens, repeats, kSeed, gpu::TorusKernel::kNaive);
  const uint64_t naive_reference =
      gpu::time_torus_kernel(side, side, naive_gens, repeats, kSeed, gpu::TorusKernel::kMultiStep)
          .final_population;
  rows.push_back({naive, naive_reference});
  const double public_cups = public_kernel.cell_updates_per_second();
  for (KernelRow& row : rows) row.public_cups = public_cups;
  return rows;
}

void write_table(std::ostream& out,
                 const std::vector<std::pair<gpu::TorusKernel, KernelRow>>& rows) {
  char line[256];
  std::snprintf(line, sizeof line, "%-8s %-11s %6s %7s %11s %10s %10s %9s %10s  %s\n", "side",
                "kernel", "gens", "repeats", "median ms", "CUpS", "computed", "of 38 T",
                "vs public", "check");
  out << line;
  for (const auto& [kernel, row] : rows) {
    const gpu::GpuKernelTiming& t = row.timing;
    const double median = t.median_seconds();
    const bool agrees = t.final_population == row.reference_population;
    std::snprintf(
        line, sizeof line, "%-8lld %-11s %6llu %7zu %11.3f %9.2fT %9.2fT %8.1f%% %9.2fx  %s\n",
        static_cast<long long>(t.width), kernel_label(kernel),
        static_cast<unsigned long long>(t.generations), t.seconds.size(), median * 1e3,
        t.cell_updates_per_second() / 1e12, median > 0 ? t.cells_computed / median / 1e12 : 0.0,
        100.0 * t.cell_updates_per_second() / kAluBoundCups,
        row.public_cups > 0 ? t.cell_updates_per_second() / row.public_cups : 0.0,
        agrees ? "ok" : "POPULATION MISMATCH");
    out << line;
  }
}

std::string rows_json(const std::vector<std::pair<gpu::TorusKernel, KernelRow>>& rows) {
  JsonWriter json;
  json.begin_array();
  for (const auto& [kernel, row] : rows) {
    const gpu::GpuKernelTiming& t = row.timing;
    json.begin_object();
    json.key("device").value(t.device);
    json.key("kernel").value(kernel_label(kernel));
    json.key("configuration").value(t.kernel);
    json.key("width").value(t.width);
    json.key("height").value(t.height);
    json.key("generations").value(t.generations);
    json.key("seconds").begin_array();
    for (double s : t.seconds) json.value(s);
    json.end_array();
    json.key("median_seconds").value(t.median_seconds());
    json.key("cups_effective").value(t.cell_updates_per_second());
    json.key("cells_computed").value(t.cells_computed);
    json.key("final_population").value(t.final_population);
    json.key("reference_population").value(row.reference_population);
    json.end_object();
  }
  json.end_array();
  return json.str();
}

}  // namespace

int run_gpu_kernel_bench(const BenchOptions& options) {
  if (!gpu::device_available()) {
    throw RuntimeError("--gpu-kernels needs a GPU: " + gpu::device_unavailable_reason());
  }
  std::vector<std::pair<gpu::TorusKernel, KernelRow>> rows;
  const gpu::TorusKernel order[] = {gpu::TorusKernel::kMultiStep, gpu::TorusKernel::kPublicBaseline,
                                    gpu::TorusKernel::kBitStep, gpu::TorusKernel::kNaive};
  std::string device;
  for (const int64_t side : options.gpu_kernel_sides) {
    std::cerr << "gol bench: GPU kernels on a " << side << "^2 torus\n";
    const std::vector<KernelRow> measured = measure_side(side, options);
    for (size_t i = 0; i < measured.size(); ++i) rows.emplace_back(order[i], measured[i]);
    device = measured.front().timing.device;
  }
  std::cout << "GPU kernel timing on " << device << ": random 50% torus soup, seed " << kSeed
            << ", CUDA events around each run after one warm-up run, median of " << options.repeats
            << "\n";
  write_table(std::cout, rows);
  std::cout << "configurations:\n";
  for (const auto& [kernel, row] : rows) {
    if (kernel == gpu::TorusKernel::kMultiStep || kernel == gpu::TorusKernel::kPublicBaseline) {
      std::cout << "  " << row.timing.width << ": " << row.timing.kernel << "\n";
    }
  }
  if (options.json_path == "-") {
    std::cout << rows_json(rows) << "\n";
  } else if (options.json_path) {
    write_file_atomically(*options.json_path, rows_json(rows) + "\n");
  }
  for (const auto& [kernel, row] : rows) {
    if (row.timing.final_population != row.reference_population) {
      throw RuntimeError(std::string("GPU ") + kernel_label(kernel) +
                         " kernel disagrees with the multi-step kernel on the final population");
    }
  }
  return 0;
}

#else

int run_gpu_kernel_bench(const BenchOptions&) {
  throw RuntimeError("--gpu-kernels: this gol was built without CUDA (GOL_CUDA=OFF or no nvcc)");
}

#endif

}  // namespace gol::bench
