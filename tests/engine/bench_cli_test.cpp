// `gol bench` option parsing (engine/cli/bench_cli.cpp): defaults, lists,
// and every kind of bad option raising UsageError.
#include "engine/cli/bench_cli.h"

#include <gtest/gtest.h>

#include "engine/core/error.h"

namespace gol::cli {
namespace {

TEST(BenchOptions, DefaultsWithNoArguments) {
  const bench::BenchOptions o = parse_bench_arguments({});
  EXPECT_TRUE(o.workloads.empty());
  EXPECT_FALSE(o.all_workloads);
  EXPECT_TRUE(o.backends.empty());
  EXPECT_EQ(o.repeats, 3);
  EXPECT_EQ(o.threads, 0);
  EXPECT_EQ(o.golly, bench::GollyMode::kAuto);
  EXPECT_FALSE(o.json_path);
  EXPECT_FALSE(o.quick);
  EXPECT_FALSE(o.isolate);
}

TEST(BenchOptions, ParsesListsAndValues) {
  const bench::BenchOptions o =
      parse_bench_arguments({"--workloads", "torus-1024,acorn", "--backends=serial,bit",
                             "--repeats", "5", "--threads=2", "--golly", "off", "--json",
                             "out.json", "--csv", "-", "--quick", "--isolate", "--warmup", "1"});
  EXPECT_EQ(o.workloads, (std::vector<std::string>{"torus-1024", "acorn"}));
  EXPECT_EQ(o.backends, (std::vector<std::string>{"serial", "bit"}));
  EXPECT_EQ(o.repeats, 5);
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.warmup, 1);
  EXPECT_EQ(o.golly, bench::GollyMode::kOff);
  EXPECT_EQ(o.json_path, "out.json");
  EXPECT_EQ(o.csv_path, "-");
  EXPECT_TRUE(o.quick);
  EXPECT_TRUE(o.isolate);
}

TEST(BenchOptions, AllWorkloads) {
  const bench::BenchOptions o = parse_bench_arguments({"--workloads", "all"});
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
    EXPECT_THROW(parse_bench_arguments(args), UsageError) << joined;
  }
}

TEST(BenchOptions, GpuKernelSides) {
  EXPECT_TRUE(parse_bench_arguments({}).gpu_kernel_sides.empty());
  const bench::BenchOptions all =
      parse_bench_arguments({"--gpu-kernels", "all", "--kernel-gens", "64"});
  EXPECT_EQ(all.gpu_kernel_sides, (std::vector<int64_t>{4096, 8192, 16384, 32768, 65536}));
  EXPECT_EQ(all.kernel_generations, 64u);
  EXPECT_EQ(parse_bench_arguments({"--gpu-kernels=128,4096"}).gpu_kernel_sides,
            (std::vector<int64_t>{128, 4096}));
  EXPECT_THROW(parse_bench_arguments({"--gpu-kernels", "100"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--gpu-kernels", "0"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--gpu-kernels", "4096,"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--kernel-gens", "0"}), UsageError);
}

TEST(BenchOptions, CpuKernelSides) {
  EXPECT_TRUE(parse_bench_arguments({}).cpu_kernel_sides.empty());
  EXPECT_EQ(parse_bench_arguments({"--cpu-kernels", "all"}).cpu_kernel_sides,
            (std::vector<int64_t>{512, 4096}));
  EXPECT_EQ(parse_bench_arguments({"--cpu-kernels=64,1024"}).cpu_kernel_sides,
            (std::vector<int64_t>{64, 1024}));
  EXPECT_THROW(parse_bench_arguments({"--cpu-kernels", "100"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--cpu-kernels", "32768"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--cpu-kernels", ",512"}), UsageError);
  try {
    parse_bench_arguments({"--cpu-kernels", "96"});
    ADD_FAILURE() << "96 is not a multiple of 64";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("--cpu-kernels"), std::string::npos) << error.what();
  }
}

TEST(BenchOptions, OutputsAModeDoesNotWriteAreRefused) {
  EXPECT_NO_THROW(parse_bench_arguments({"--cpu-kernels", "512", "--json", "k.json"}));
  EXPECT_NO_THROW(parse_bench_arguments({"--gpu-kernels", "4096", "--json", "-"}));
  EXPECT_NO_THROW(parse_bench_arguments({"--workloads", "acorn", "--csv", "-", "--plot", "a.png"}));
  const auto refused = [](std::vector<std::string> args, const std::string& named) {
    try {
      parse_bench_arguments(args);
      ADD_FAILURE() << "accepted " << named;
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(named), std::string::npos) << error.what();
    }
  };
  refused({"--cpu-kernels", "512", "--csv", "k.csv"}, "--csv: --cpu-kernels");
  refused({"--gpu-kernels", "4096", "--plot", "k.png"}, "--plot: --gpu-kernels");
  refused({"--tile-pool", "4096", "--json", "p.json"}, "--json: --tile-pool");
  refused({"--mpi-scaling", "weak", "--csv", "-"}, "--csv: --mpi-scaling");
  refused({"--gpu-scaling", "strong", "--gpu-side", "4096", "--json", "-"},
          "--json: --gpu-scaling");
}

TEST(BenchOptions, GpuScaling) {
  const bench::BenchOptions none = parse_bench_arguments({});
  EXPECT_TRUE(none.gpu_scaling.empty());
  EXPECT_EQ(none.gpu_counts, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(none.gpu_side, 65536);
  const bench::BenchOptions weak = parse_bench_arguments(
      {"--gpu-scaling", "weak", "--gpus-list", "1,2", "--gpu-side", "4096", "--kernel-gens", "64"});
  EXPECT_EQ(weak.gpu_scaling, "weak");
  EXPECT_EQ(weak.gpu_counts, (std::vector<int>{1, 2}));
  EXPECT_EQ(weak.gpu_side, 4096);
  EXPECT_EQ(weak.kernel_generations, 64u);
  EXPECT_THROW(parse_bench_arguments({"--gpu-scaling", "sideways"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--gpu-scaling", "weak", "--gpus-list", "2,4"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--gpus-list", "1,0"}), UsageError);
  EXPECT_THROW(parse_bench_arguments({"--gpu-side", "100"}), UsageError);
  // 128 rows are two bands of 64, not four.
  EXPECT_THROW(parse_bench_arguments({"--gpu-scaling", "strong", "--gpu-side", "128"}), UsageError);
  // Four 262144^2 bands would be 2^38 cells.
  EXPECT_THROW(parse_bench_arguments({"--gpu-scaling", "weak", "--gpu-side", "262144"}),
               UsageError);
}

TEST(BenchOptions, ListAndCommandLine) {
  EXPECT_TRUE(parse_bench_arguments({"--list"}).list);
  EXPECT_EQ(parse_bench_arguments({"--quick", "--repeats=2"}).command_line,
            "gol bench --quick --repeats=2");
}

}  // namespace
}  // namespace gol::cli
