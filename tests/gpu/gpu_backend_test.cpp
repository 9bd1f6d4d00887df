// The GPU backends against the CPU references: tori of several shapes,
// generation counts around the per-launch count, rules other than Life
// and growing plane patterns. Skips without a GPU.
#ifdef GOL_HAVE_CUDA
#include "gpu/gpu_backend.h"

#include <gtest/gtest.h>

#include <random>

#include "cpu/reference/reference_backends.h"
#include "engine/backend_registry.h"
#include "engine/core/error.h"

namespace gol::gpu {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!device_available()) GTEST_SKIP() << "no GPU: " << device_unavailable_reason()

CellSet random_soup(BBox box, double density, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::bernoulli_distribution alive(density);
  CellSet cells;
  for (int64_t y = box.ymin; y <= box.ymax; ++y) {
    for (int64_t x = box.xmin; x <= box.xmax; ++x) {
      if (alive(random)) cells.set(x, y);
    }
  }
  return cells;
}

CellSet run(Backend& backend, const CellSet& start, const Rule& rule, const Topology& topology,
            uint64_t generations) {
  backend.load(start, rule, topology);
  backend.step(generations);
  return backend.cells();
}

CellSet reference(const CellSet& start, const Rule& rule, const Topology& topology,
                  uint64_t generations) {
  auto backend = cpu::make_bit_backend();
  return run(*backend, start, rule, topology, generations);
}

using Factory = std::unique_ptr<Backend> (*)();

struct TorusCase {
  int64_t width;
  int64_t height;
  uint64_t generations;
};

class GpuTorus : public ::testing::TestWithParam<TorusCase> {};

TEST_P(GpuTorus, MatchesReferenceForEveryKernel) {
  SKIP_WITHOUT_GPU();
  const TorusCase c = GetParam();
  const Topology torus = Topology::torus(c.width, c.height);
  const CellSet start = random_soup({0, 0, c.width - 1, c.height - 1}, 0.4, c.width * 7 + c.height);
  const CellSet expected = reference(start, Rule::conway(), torus, c.generations);
  for (Factory make : {&make_gpu_backend, &make_gpu_bitstep_backend, &make_gpu_naive_backend}) {
    auto backend = make();
    EXPECT_EQ(run(*backend, start, Rule::conway(), torus, c.generations), expected)
        << backend->name();
    EXPECT_EQ(backend->population(), expected.population()) << backend->name();
  }
}

// 16 generations a launch: counts below, at and around multiples of it.
INSTANTIATE_TEST_SUITE_P(Shapes, GpuTorus,
                         ::testing::Values(TorusCase{64, 64, 1}, TorusCase{64, 64, 37},
                                           TorusCase{128, 64, 16}, TorusCase{128, 64, 17},
                                           TorusCase{64, 256, 33}, TorusCase{64, 256, 15},
                                           TorusCase{1024, 512, 1}, TorusCase{1024, 512, 48},
                                           TorusCase{2048, 1024, 31}, TorusCase{4160, 576, 20}));

// The multi-step launcher picks its block shape per field size: on the
// H100 (132 SMs) these sizes get 8, 12, 16 and 24 rows a thread (every
// torus above gets 4). Checked against the bit-step kernel, which the tests
// above tie to the CPU reference; the soup fills a band, keeping the CPU
// side short.
TEST(GpuTorus, EveryBlockShapeMatchesBitStep) {
  SKIP_WITHOUT_GPU();
  for (const TorusCase c : {TorusCase{4096, 4096, 37}, TorusCase{8192, 4096, 37},
                            TorusCase{8192, 8192, 37}, TorusCase{32768, 8192, 37}}) {
    const Topology torus = Topology::torus(c.width, c.height);
    const CellSet start = random_soup({0, 0, c.width - 1, 1279}, 0.5, c.width + c.height);
    auto multi = make_gpu_backend();
    auto single = make_gpu_bitstep_backend();
    const CellSet got = run(*multi, start, Rule::conway(), torus, c.generations);
    EXPECT_EQ(got, run(*single, start, Rule::conway(), torus, c.generations))
        << c.width << "x" << c.height;
    EXPECT_GT(got.population(), 0u);
  }
}

TEST(GpuTorus, SteppingInPiecesEqualsOneStep) {
  SKIP_WITHOUT_GPU();
  const Topology torus = Topology::torus(256, 192);
  const CellSet start = random_soup({0, 0, 255, 191}, 0.5, 11);
  auto backend = make_gpu_backend();
  backend->load(start, Rule::conway(), torus);
  for (uint64_t g : {1, 5, 16, 0, 3, 40}) backend->step(g);
  EXPECT_EQ(backend->cells(), reference(start, Rule::conway(), torus, 65));
}

TEST(GpuTorus, OtherRulesIncludingBirthOnZero) {
  SKIP_WITHOUT_GPU();
  const Topology torus = Topology::torus(128, 128);
  const CellSet start = random_soup({0, 0, 127, 127}, 0.3, 5);
  for (const char* text : {"B36/S23", "B3678/S34678", "B0/S8", "B2/S"}) {
    const Rule rule = parse_rule(text).rule;
    const CellSet expected = reference(start, rule, torus, 21);
    for (Factory make : {&make_gpu_backend, &make_gpu_bitstep_backend, &make_gpu_naive_backend}) {
      auto backend = make();
      EXPECT_EQ(run(*backend, start, rule, torus, 21), expected) << text << " " << backend->name();
    }
  }
}

TEST(GpuTorus, StatsAreReported) {
  SKIP_WITHOUT_GPU();
  auto backend = make_gpu_backend();
  backend->load(random_soup({0, 0, 511, 511}, 0.5, 3), Rule::conway(), Topology::torus(512, 512));
  backend->step(40);
  const BackendStats stats = backend->stats();
  EXPECT_GT(stats.device_seconds, 0);
  EXPECT_GT(stats.transfer_seconds, 0);
  EXPECT_GE(stats.cells_computed, uint64_t{512} * 512 * 40);
}

class GpuPlane : public ::testing::TestWithParam<Factory> {};

TEST_P(GpuPlane, GrowingSoupMatchesReference) {
  SKIP_WITHOUT_GPU();
  const CellSet start = random_soup({-40, -30, 60, 50}, 0.45, 9);
  auto backend = GetParam()();
  for (uint64_t generations : {1u, 70u, 300u}) {
    EXPECT_EQ(run(*backend, start, Rule::conway(), Topology::plane(), generations),
              reference(start, Rule::conway(), Topology::plane(), generations))
        << backend->name() << " after " << generations;
  }
}

TEST_P(GpuPlane, GliderTravelsFarThroughRegrowth) {
  SKIP_WITHOUT_GPU();
  CellSet glider;
  for (const Cell c : {Cell{1, 0}, Cell{2, 1}, Cell{0, 2}, Cell{1, 2}, Cell{2, 2}}) glider.set(c);
  auto backend = GetParam()();
  backend->load(glider, Rule::conway(), Topology::plane());
  backend->step(4000);
  EXPECT_EQ(backend->cells(), glider.translated(1000, 1000));
}

INSTANTIATE_TEST_SUITE_P(Kernels, GpuPlane,
                         ::testing::Values(&make_gpu_backend, &make_gpu_bitstep_backend));

TEST(GpuPlane, RPentominoKnownResult) {
  SKIP_WITHOUT_GPU();
  CellSet r;
  for (const Cell c : {Cell{1, 0}, Cell{2, 0}, Cell{0, 1}, Cell{1, 1}, Cell{1, 2}}) r.set(c);
  auto backend = make_gpu_backend();
  backend->load(r, Rule::conway(), Topology::plane());
  backend->step(1103);
  EXPECT_EQ(backend->population(), 116u);
}

TEST(GpuNaive, RefusesThePlane) {
  SKIP_WITHOUT_GPU();
  auto backend = make_gpu_naive_backend();
  EXPECT_THROW(backend->load(CellSet{}, Rule::conway(), Topology::plane()), InputError);
}

// "auto" picks hybrid (at any density) where a device is usable and never
// a GPU backend elsewhere.
TEST(GpuRegistry, GpuBackendsAreChosenOnlyWhenAvailable) {
  const BackendRegistry& registry = BackendRegistry::builtin();
  ASSERT_NE(registry.find("gpu"), nullptr);
  ASSERT_NE(registry.find("gpu-naive"), nullptr);
  ASSERT_NE(registry.find("gpu-bitstep"), nullptr);
  WorkloadHint dense{Topology::torus(64, 64), 2048, BBox{0, 0, 63, 63}};
  if (device_available()) {
    EXPECT_EQ(registry.resolve("auto", dense).name, "hybrid");
    EXPECT_EQ(registry.resolve("auto", WorkloadHint{Topology::torus(64, 64), 1, std::nullopt}).name,
              "hybrid");
  } else {
    EXPECT_TRUE(registry.resolve("auto", dense).is_cpu);
    try {
      registry.create("gpu", {}, dense);
      FAIL() << "gpu created without a device";
    } catch (const RuntimeError& error) {
      EXPECT_EQ(error.code(), ExitCode::kRuntime);
      EXPECT_NE(std::string(error.what()).find("gpu"), std::string::npos);
    }
    EXPECT_THROW(make_gpu_backend(), RuntimeError);
    EXPECT_THROW(time_torus_kernel(64, 64, 1, 1, 1), RuntimeError);
  }
}

TEST(GpuKernelTiming, TimesEveryKernel) {
  SKIP_WITHOUT_GPU();
  for (TorusKernel kernel : {TorusKernel::kMultiStep, TorusKernel::kPublicBaseline,
                             TorusKernel::kBitStep, TorusKernel::kNaive}) {
    const GpuKernelTiming timing = time_torus_kernel(1024, 512, 32, 3, 1, kernel);
    ASSERT_EQ(timing.seconds.size(), 3u);
    EXPECT_GT(timing.median_seconds(), 0);
    EXPECT_GT(timing.cell_updates_per_second(), 0);
    EXPECT_GE(timing.cells_computed, uint64_t{1024} * 512 * 32);
    EXPECT_FALSE(timing.kernel.empty());
  }
}

// The bench's public baseline runs the same soup in its own layout: its
// final population must be the multi-step kernel's, on fields narrower than
// a block, not a multiple of its 480 rows, and odd generation counts.
TEST(GpuKernelTiming, PublicBaselineAgreesWithMultiStep) {
  SKIP_WITHOUT_GPU();
  for (const TorusCase c : {TorusCase{64, 64, 37}, TorusCase{128, 1024, 16},
                            TorusCase{2048, 576, 33}, TorusCase{4096, 4096, 100}}) {
    const GpuKernelTiming ours =
        time_torus_kernel(c.width, c.height, c.generations, 1, 5, TorusKernel::kMultiStep);
    const GpuKernelTiming public_kernel =
        time_torus_kernel(c.width, c.height, c.generations, 1, 5, TorusKernel::kPublicBaseline);
    EXPECT_EQ(public_kernel.final_population, ours.final_population)
        << c.width << "x" << c.height << ", " << c.generations << " generations";
    EXPECT_GT(ours.final_population, 0u);
  }
}

}  // namespace
}  // namespace gol::gpu

#endif  // GOL_HAVE_CUDA
