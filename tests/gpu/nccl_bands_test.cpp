// A torus in bands on GPUs with NCCL halos (gpu/nccl_bands.h) against the
// gpu backend and the CPU reference: tori of several shapes, generation
// counts that are not multiples of a round, another rule, a glider across
// the band's wrap, runs stepped in pieces. One GPU is one band whose halos
// NCCL sends from the device to itself. Skips where bands cannot run; the
// refusal of more GPUs than devices is checked in every build.
#include "gpu/nccl_bands.h"

#include <gtest/gtest.h>

#include <random>

#include "cpu/reference/reference_backends.h"
#include "engine/backend_registry.h"
#include "engine/core/error.h"
#include "gpu/band_plan.h"
#include "gpu/gpu_backend.h"

namespace gol::gpu {
namespace {

#define SKIP_WITHOUT_BANDS() \
  if (const std::string why = nccl_bands_unavailable_reason(1); !why.empty()) GTEST_SKIP() << why

CellSet random_soup(int64_t width, int64_t height, double density, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::bernoulli_distribution alive(density);
  CellSet cells;
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) {
      if (alive(random)) cells.set(x, y);
    }
  }
  return cells;
}

// The single-GPU backend, by name: builds without CUDA know it but cannot
// make one, and these tests skip there before asking.
std::unique_ptr<Backend> gpu_backend() {
  return BackendRegistry::builtin().find("gpu")->create(BackendOptions{});
}

CellSet run_backend(Backend& backend, const CellSet& start, const Rule& rule, const Topology& torus,
                    uint64_t generations) {
  backend.load(start, rule, torus);
  backend.step(generations);
  return backend.cells();
}

CellSet run_bands(const CellSet& start, const Rule& rule, const Topology& torus,
                  uint64_t generations) {
  const auto bands = make_nccl_bands(start, rule, torus, 1);
  bands->step(generations);
  const CellSet cells = bands->cells();
  EXPECT_EQ(bands->population(), cells.population());
  return cells;
}

TEST(NcclBands, MoreGpusThanDevicesAreRefusedNamingTheCount) {
  const std::string reason = nccl_bands_unavailable_reason(1024);
  EXPECT_FALSE(reason.empty());
  if (device_available()) {
    EXPECT_NE(reason.find("CUDA device"), std::string::npos) << reason;
  }
  EXPECT_THROW(make_nccl_bands(CellSet(), Rule::conway(), Topology::torus(64, 64), 1024),
               RuntimeError);
  EXPECT_THROW(make_nccl_bands_soup(Rule::conway(), Topology::torus(64, 64), 1024, 1),
               RuntimeError);
}

// NCCL is loaded, not linked: where the build found it, loading it must
// work on any machine, GPU or not (CI has none).
TEST(NcclBands, TheLibraryLoadsWhereTheBuildFoundIt) {
#ifdef GOL_HAVE_NCCL
  EXPECT_EQ(nccl_library_unavailable_reason(), "");
#else
  EXPECT_NE(nccl_library_unavailable_reason().find("without NCCL"), std::string::npos);
#endif
}

struct TorusCase {
  int64_t width;
  int64_t height;
  uint64_t generations;
};

class NcclBandsTorus : public ::testing::TestWithParam<TorusCase> {};

TEST_P(NcclBandsTorus, MatchesTheGpuBackendAndTheReference) {
  SKIP_WITHOUT_BANDS();
  const TorusCase c = GetParam();
  const Topology torus = Topology::torus(c.width, c.height);
  const CellSet start = random_soup(c.width, c.height, 0.35, c.width * 31 + c.height);
  const CellSet bands = run_bands(start, Rule::conway(), torus, c.generations);
  auto gpu = gpu_backend();
  EXPECT_EQ(bands, run_backend(*gpu, start, Rule::conway(), torus, c.generations));
  auto reference = cpu::make_bit_backend();
  EXPECT_EQ(bands, run_backend(*reference, start, Rule::conway(), torus, c.generations));
}

INSTANTIATE_TEST_SUITE_P(Shapes, NcclBandsTorus,
                         ::testing::Values(TorusCase{256, 192, 1}, TorusCase{256, 192, 15},
                                           TorusCase{256, 192, 16}, TorusCase{256, 192, 17},
                                           TorusCase{1024, 512, 100}, TorusCase{640, 1280, 17},
                                           TorusCase{640, 1280, 100}, TorusCase{64, 64, 33}));

TEST(NcclBands, HighLifeMatchesTheReference) {
  SKIP_WITHOUT_BANDS();
  const Topology torus = Topology::torus(512, 256);
  const Rule highlife = parse_rule("B36/S23", "test").rule;
  const CellSet start = random_soup(512, 256, 0.3, 36);
  auto reference = cpu::make_bit_backend();
  EXPECT_EQ(run_bands(start, highlife, torus, 100),
            run_backend(*reference, start, highlife, torus, 100));
}

// A glider heading down and right from near the bottom right corner crosses
// the band's own halo exchange (the torus's top and bottom) and the wrap in
// x; every 4 generations it moves one cell each way.
TEST(NcclBands, GliderCrossesTheBandsWrap) {
  SKIP_WITHOUT_BANDS();
  const Topology torus = Topology::torus(128, 128);
  CellSet glider;
  for (auto [x, y] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    glider.set(120 + x, 120 + y);
  }
  const uint64_t generations = 4 * 20;
  CellSet moved;
  for (const Cell& c : glider.cells()) moved.set((c.x + 20) % 128, (c.y + 20) % 128);
  EXPECT_EQ(run_bands(glider, Rule::conway(), torus, generations), moved);
}

// Short rounds in the middle of a run, not only at its end.
TEST(NcclBands, StepsInPiecesEqualOneStep) {
  SKIP_WITHOUT_BANDS();
  const Topology torus = Topology::torus(256, 128);
  const CellSet start = random_soup(256, 128, 0.4, 7);
  const auto pieces = make_nccl_bands(start, Rule::conway(), torus, 1);
  for (uint64_t g : {7, 1, 16, 19}) pieces->step(g);
  EXPECT_EQ(pieces->cells(), run_bands(start, Rule::conway(), torus, 43));
  const std::vector<GpuBandFigures> figures = pieces->figures();
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].rows, 128);
  EXPECT_EQ(figures[0].exchanges, 1u + 1u + 1u + 2u);  // rounds of 7; 1; 16; 16 and 3
  EXPECT_EQ(figures[0].bytes_exchanged, figures[0].exchanges * 4 * kBandHaloRows * (256 / 8));
  EXPECT_GT(figures[0].step_seconds, 0);
}

// The soup made on the devices is the torus's, whatever the bands.
TEST(NcclBands, SoupStepsLikeTheGpuBackend) {
  SKIP_WITHOUT_BANDS();
  const Topology torus = Topology::torus(512, 320);
  const auto bands = make_nccl_bands_soup(Rule::conway(), torus, 1, 99);
  const CellSet start = bands->cells();
  EXPECT_GT(start.population(), 512u * 320u / 3);
  bands->step(50);
  auto gpu = gpu_backend();
  EXPECT_EQ(bands->cells(), run_backend(*gpu, start, Rule::conway(), torus, 50));
}

}  // namespace
}  // namespace gol::gpu
