// `gol bench --cpu-kernels` (bench/cpu_kernel_bench.cpp): every form of the
// tile step on every instruction set this CPU runs, on a small torus.
#include "bench/cpu_kernel_bench.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "cpu/simd/tile_step.h"

namespace gol::bench {
namespace {

BenchOptions tiny_run() {
  BenchOptions options;
  options.kernel_generations = 3;
  options.repeats = 2;
  return options;
}

TEST(CpuKernelBench, TimesEveryPathOnEveryTargetAndTheWholeStepsAgree) {
  const std::vector<CpuKernelRow> rows = time_cpu_kernels({128, 192}, tiny_run());
  const size_t targets = cpu::simd_targets_supported(cpu::SimdLibrary::kHighway).size() +
                         cpu::simd_targets_supported(cpu::SimdLibrary::kXsimd).size();
  ASSERT_EQ(rows.size(), 2 * targets * 5);
  std::set<uint64_t> whole_hashes[2];
  for (const CpuKernelRow& row : rows) {
    SCOPED_TRACE(row.library + " " + row.target + " " + kernel_path_name(row.path));
    EXPECT_EQ(row.passes, 3u);
    ASSERT_EQ(row.seconds.size(), 2u);
    EXPECT_GT(row.nanoseconds_per_tile(), 0.0);
    if (row.path == KernelPath::kBands) {
      // Runs of 1 to 8 bands: neither always one nor always all.
      EXPECT_GT(row.bands_per_tile, 1.0);
      EXPECT_LT(row.bands_per_tile, 8.0);
    } else {
      EXPECT_EQ(row.bands_per_tile, 8.0);
      whole_hashes[row.side == 128 ? 0 : 1].insert(row.final_hash);
    }
  }
  // Every target and path that steps every band reaches the same cells;
  // the two tori differ.
  EXPECT_EQ(whole_hashes[0].size(), 1u);
  EXPECT_EQ(whole_hashes[1].size(), 1u);
  EXPECT_NE(*whole_hashes[0].begin(), *whole_hashes[1].begin());
}

TEST(CpuKernelBench, TheCellsDependOnTheGenerationsStepped) {
  BenchOptions more = tiny_run();
  more.kernel_generations = 4;
  const std::vector<CpuKernelRow> three = time_cpu_kernels({128}, tiny_run());
  const std::vector<CpuKernelRow> four = time_cpu_kernels({128}, more);
  EXPECT_NE(three.front().final_hash, four.front().final_hash);
}

TEST(CpuKernelBench, MedianAndRateFromTheRuns) {
  CpuKernelRow row;
  row.side = 128;  // 4 tiles
  row.passes = 10;
  row.seconds = {4e-6, 1e-6, 2e-6};
  EXPECT_DOUBLE_EQ(row.median_seconds(), 2e-6);
  EXPECT_DOUBLE_EQ(row.nanoseconds_per_tile(), 2e-6 / 40 * 1e9);
  row.seconds.push_back(3e-6);
  EXPECT_DOUBLE_EQ(row.median_seconds(), 2.5e-6);
}

TEST(CpuKernelBench, PrintsTheTable) {
  BenchOptions options = tiny_run();
  options.cpu_kernel_sides = {64};
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_cpu_kernel_bench(options), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("CPU kernel timing on"), std::string::npos);
  for (const char* path : {"whole", "edges", "changes", "bands", "twice"}) {
    EXPECT_NE(out.find(path), std::string::npos) << path;
  }
  EXPECT_EQ(out.find("CELLS DIFFER"), std::string::npos);
}

}  // namespace
}  // namespace gol::bench
