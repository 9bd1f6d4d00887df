// What `gol bench` is asked to do. The command line (engine/cli) fills it
// in; the bench reads only this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gol::bench {

enum class GollyMode { kAuto, kOff };

struct BenchOptions {
  // Empty: the default set (every workload the chosen backends can run).
  std::vector<std::string> workloads;
  bool all_workloads = false;
  // Empty: every available backend among kDefaultBackends.
  std::vector<std::string> backends;
  int repeats = 3;
  int warmup = 0;
  int threads = 0;  // 0: every hardware thread
  GollyMode golly = GollyMode::kAuto;
  // lifealgo (ulifelib): "auto" ($GOL_ULIFELIB if set), "off", or its path.
  std::string ulifelib = "auto";
  std::optional<std::string> json_path;  // "-" is stdout
  std::optional<std::string> csv_path;   // "-" is stdout
  // --plot: effective CUpS drawn by bench/plot_bench.py into this file.
  std::optional<std::string> plot_path;
  bool list = false;
  bool quick = false;
  // Each run in a child process, so its peak memory can be measured.
  bool isolate = false;
  // --gpu-kernels: kernel-only GPU timing of dense tori of these sides
  // instead of the workloads.
  std::vector<int64_t> gpu_kernel_sides;
  // --cpu-kernels: kernel-only timing, on one thread, of the SIMD tile step
  // on tori of these sides instead of the workloads.
  std::vector<int64_t> cpu_kernel_sides;
  uint64_t kernel_generations = 1024;
  // --tile-pool: the device tile pool on a torus of this side (0: off).
  int64_t tile_pool_side = 0;
  // --mpi-scaling: "strong" (one SIDE x SIDE torus on every rank count) or
  // "weak" (a SIDE x SIDE band per rank) instead of the workloads; empty:
  // off. Rank counts start with 1, the baseline.
  std::string mpi_scaling;
  std::vector<int> mpi_ranks = {1, 2};
  int64_t mpi_side = 2048;
  uint64_t mpi_generations = 1000;
  // --gpu-scaling: "strong" (one SIDE x SIDE torus on every GPU count) or
  // "weak" (a SIDE x SIDE band per GPU), in bands with NCCL halos, for
  // kernel_generations; empty: off. GPU counts start with 1, the baseline.
  std::string gpu_scaling;
  std::vector<int> gpu_counts = {1, 2, 4};
  int64_t gpu_side = 65536;
  // Internal: run this one workload once and print a result line (the
  // child side of --isolate).
  std::optional<std::string> run_one;
  // Internal: with --run-one, also print the shape hash.
  bool shape_hash = false;
  // Internal: with --run-one, read the pattern from this RLE (the file the
  // baselines read) instead of building it.
  std::optional<std::string> pattern_file;
  // The command as typed, recorded in the report.
  std::string command_line;
};

// The backends run when --backends is not given (those compiled in and
// available here), in table order.
inline const std::vector<std::string> kDefaultBackends = {"serial",     "bit", "simd",
                                                          "simd-xsimd", "gpu", "hybrid"};

}  // namespace gol::bench
