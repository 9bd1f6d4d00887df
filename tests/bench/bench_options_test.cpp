// `gol bench` flag parsing: defaults, lists, and every kind of bad flag
// raising UsageError.
#include "bench/bench_options.h"

#include <gtest/gtest.h>

#include "engine/core/error.h"

namespace gol::bench {
namespace {

TEST(BenchOptions, DefaultsWithNoArguments) {
  const BenchOptions o = parse_bench_options({});
  EXPECT_TRUE(o.workloads.empty());
  EXPECT_FALSE(o.all_workloads);
  EXPECT_TRUE(o.backends.empty());
  EXPECT_EQ(o.repeats, 3);
  EXPECT_EQ(o.threads, 0);
  EXPECT_EQ(o.golly, GollyMode::kAuto);
  EXPECT_FALSE(o.json_path);
  EXPECT_FALSE(o.quick);
  EXPECT_FALSE(o.isolate);
}

TEST(BenchOptions, ParsesListsAndValues) {
  const BenchOptions o =
      parse_bench_options({"--workloads", "torus-1024,acorn", "--backends=serial,bit", "--repeats",
                           "5", "--threads=2", "--golly", "off", "--json", "out.json", "--csv", "-",
                           "--quick", "--isolate", "--warmup", "1"});
  EXPECT_EQ(o.workloads, (std::vector<std::string>{"torus-1024", "acorn"}));
  EXPECT_EQ(o.backends, (std::vector<std::string>{"serial", "bit"}));
  EXPECT_EQ(o.repeats, 5);
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.warmup, 1);
  EXPECT_EQ(o.golly, GollyMode::kOff);
  EXPECT_EQ(o.json_path, "out.json");
  EXPECT_EQ(o.csv_path, "-");
  EXPECT_TRUE(o.quick);
  EXPECT_TRUE(o.isolate);
}

TEST(BenchOptions, AllWorkloads) {
  const BenchOptions o = parse_bench_options({"--workloads", "all"});
  EXPECT_TRUE(o.all_workloads);
  EXPECT_TRUE(o.workloads.empty());
}

TEST(BenchOptions, BadCommandLinesAreUsageErrors) {
  const std::vector<std::vector<std::string>> bad = {
      {"--frobnicate"},
      {"--repeats"},
      {"--repeats", "0"},
      {"--repeats", "three"},
      {"--repeats", "3x"},
      {"--repeats", "-1"},
      {"--repeats", "99999999999999999999"},
      {"--threads", "-2"},
      {"--golly", "maybe"},
      {"--workloads", ""},
      {"--workloads", "acorn,,torus-1024"},
      {"--backends", "bit,"},
      {"--quick=yes"},
      {"--json", "-", "--csv", "-"},
      {"acorn"},
  };
  for (const std::vector<std::string>& args : bad) {
    std::string joined;
    for (const std::string& a : args) joined += a + " ";
    EXPECT_THROW(parse_bench_options(args), UsageError) << joined;
  }
}

TEST(BenchOptions, GpuKernelSides) {
  EXPECT_TRUE(parse_bench_options({}).gpu_kernel_sides.empty());
  const BenchOptions all = parse_bench_options({"--gpu-kernels", "all", "--kernel-gens", "64"});
  EXPECT_EQ(all.gpu_kernel_sides, (std::vector<int64_t>{4096, 8192, 16384, 32768, 65536}));
  EXPECT_EQ(all.kernel_generations, 64u);
  EXPECT_EQ(parse_bench_options({"--gpu-kernels=128,4096"}).gpu_kernel_sides,
            (std::vector<int64_t>{128, 4096}));
  EXPECT_THROW(parse_bench_options({"--gpu-kernels", "100"}), UsageError);
  EXPECT_THROW(parse_bench_options({"--gpu-kernels", "0"}), UsageError);
  EXPECT_THROW(parse_bench_options({"--gpu-kernels", "4096,"}), UsageError);
  EXPECT_THROW(parse_bench_options({"--kernel-gens", "0"}), UsageError);
}

TEST(BenchOptions, HelpAndList) {
  EXPECT_TRUE(parse_bench_options({"--help"}).help);
  EXPECT_TRUE(parse_bench_options({"--list"}).list);
  EXPECT_NE(bench_usage().find("--workloads"), std::string::npos);
}

}  // namespace
}  // namespace gol::bench
