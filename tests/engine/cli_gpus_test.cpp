// `gol run --gpus N` (a torus in bands on GPUs, NCCL halos) and `gol bench
// --gpu-scaling` from the command line: refusals in every build, and on a
// machine with a GPU the same result as one process on the CPU.
#include "gpu/nccl_bands.h"
#include "patterns/pattern_io.h"
#include "tests/engine/gol_process.h"

namespace {

using gol::testing::Outcome;
using CliGpusTest = gol::testing::GolProcessTest;

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// More GPUs than this machine has (none, or fewer than 1024): exit 4,
// naming what there is.
TEST_F(CliGpusTest, MoreGpusThanDevicesExitFour) {
  expect_failure({"run", "builtin:glider", "--torus", "65536x65536", "--gpus", "1024"}, 4,
                 "--gpus 1024: ");
  const Outcome outcome = gol({"run", "builtin:glider", "--torus", "256x256", "--gpus", "1024"});
  EXPECT_TRUE(contains(outcome.err, "CUDA device") || contains(outcome.err, "no usable GPU"))
      << outcome.err;
}

TEST_F(CliGpusTest, MistakesExitTwo) {
  expect_failure({"run", "builtin:glider", "--gpus", "0"}, 2, "--gpus");
  expect_failure(
      {"run", "builtin:glider", "--torus", "256x256", "--gpus", "1", "--backend", "simd"}, 2,
      "expected --backend auto or gpu");
  expect_failure({"run", "builtin:glider", "--torus", "256x256", "--gpus", "1", "--log", "x.csv",
                  "--every", "5"},
                 2, "--log is not available with --gpus");
  expect_failure({"bench", "--gpu-scaling", "weak", "--gpus-list", "2,4"}, 2,
                 "expected a list starting with 1");
  expect_failure({"bench", "--gpu-scaling", "strong", "--gpu-side", "100"}, 2,
                 "not a multiple of 64");
}

TEST_F(CliGpusTest, OneGpuMatchesOneCpuProcess) {
  if (const std::string why = gol::gpu::nccl_bands_unavailable_reason(1); !why.empty()) {
    GTEST_SKIP() << why;
  }
  expect_failure({"run", "builtin:glider", "--gpus", "1"}, 2, "expected --torus WxH");
  const std::string soup = "soup:640x1280:0.4:5";
  const Outcome bands = gol({"run", soup, "--torus", "640x1280", "--gens", "117", "--gpus", "1",
                             "--out", (dir_ / "bands.rle").string(), "--json", "--quiet"});
  ASSERT_EQ(bands.exit_code, 0) << bands.err;
  EXPECT_TRUE(contains(bands.out, "\"band_transport\":\"NCCL\"")) << bands.out;
  EXPECT_TRUE(contains(bands.out, "\"bytes_exchanged\":")) << bands.out;
  const Outcome cpu = gol({"run", soup, "--torus", "640x1280", "--gens", "117", "--backend", "simd",
                           "--out", (dir_ / "cpu.rle").string(), "--quiet"});
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  const gol::Pattern from_bands = gol::patterns::load_pattern((dir_ / "bands.rle").string());
  const gol::Pattern from_cpu = gol::patterns::load_pattern((dir_ / "cpu.rle").string());
  EXPECT_EQ(from_bands.cells, from_cpu.cells);
  EXPECT_EQ(from_bands.generation, from_cpu.generation);
  EXPECT_EQ(from_bands.topology, from_cpu.topology);
}

}  // namespace
