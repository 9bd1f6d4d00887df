// In builds without CUDA the GPU backends are still known by name but never
// available: asking for one is a runtime failure (exit 4) that says why, and
// "auto" never picks one.
#ifndef GOL_HAVE_CUDA
#include <gtest/gtest.h>

#include "engine/backend_registry.h"
#include "engine/core/error.h"

namespace gol {
namespace {

TEST(GpuWithoutCuda, GpuBackendsAreKnownButUnavailable) {
  const BackendRegistry& registry = BackendRegistry::builtin();
  for (const char* name : {"gpu", "gpu-naive", "gpu-bitstep"}) {
    const BackendInfo* info = registry.find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_FALSE(info->available()) << name;
    EXPECT_NE(info->unavailable_reason().find("without CUDA"), std::string::npos) << name;
    EXPECT_THROW(registry.resolve(name, WorkloadHint{}), RuntimeError) << name;
  }
  WorkloadHint dense{Topology::torus(64, 64), 4096, BBox{0, 0, 63, 63}};
  EXPECT_TRUE(registry.resolve("auto", dense).is_cpu);
}

}  // namespace
}  // namespace gol

#endif  // GOL_HAVE_CUDA
