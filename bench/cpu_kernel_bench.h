// `gol bench --cpu-kernels`: kernel-only timing, on one thread, of the SIMD
// tile step in each form the engine calls it, for every instruction set of
// both SIMD libraries that this CPU runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_options.h"

namespace gol::bench {

// How the engine calls the kernel (cpu/simd/tile_step.h).
enum class KernelPath {
  kWhole,    // step_tiles: every band, nothing noted (a torus block's inner levels)
  kEdges,    // step_tiles_noting_edges: every band, the edges noted (plane blocks)
  kChanges,  // step_tiles_over: every band, changes noted (a sparse tile stepped whole)
  kBands,    // step_tiles_over with band masks: runs of 1 to 8 bands (sparse tiles in part)
  kTwice,    // step_tiles_twice: two generations a call (not the engine's), timed per generation
};

const char* kernel_path_name(KernelPath path);

struct CpuKernelRow {
  std::string library;  // "highway" or "xsimd"
  std::string target;   // simd_targets_supported()'s name
  int64_t side = 0;     // of the torus, in cells
  KernelPath path = KernelPath::kWhole;
  uint64_t passes = 0;  // over every tile, a timed run
  std::vector<double> seconds;
  double bands_per_tile = 0;  // stepped, on average
  // The torus's cells after the timed runs, hashed; the rows that step
  // every band must all agree.
  uint64_t final_hash = 0;

  double median_seconds() const;
  double nanoseconds_per_tile() const;
};

// Times every path on every target of both libraries for each torus side
// (a multiple of 64): a seeded 50% soup stepped options.kernel_generations
// passes a run, after one warm-up run, options.repeats runs.
std::vector<CpuKernelRow> time_cpu_kernels(const std::vector<int64_t>& sides,
                                           const BenchOptions& options);

// Prints the table (and --json when asked); returns the exit code. Throws
// RuntimeError when two rows that step every band disagree on the cells.
int run_cpu_kernel_bench(const BenchOptions& options);

}  // namespace gol::bench
