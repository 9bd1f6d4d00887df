// In builds without CUDA the GPU suite has nothing to run: it says so, and
// checks that no GPU backend is registered.
#ifndef GOL_HAVE_CUDA
#include <gtest/gtest.h>

#include "engine/backend_registry.h"

namespace gol {
namespace {

TEST(GpuWithoutCuda, NoGpuBackendIsRegistered) {
  const BackendRegistry& registry = BackendRegistry::builtin();
  EXPECT_EQ(registry.find("gpu"), nullptr);
  EXPECT_EQ(registry.find("gpu-naive"), nullptr);
  EXPECT_EQ(registry.find("gpu-bitstep"), nullptr);
  GTEST_SKIP() << "built without CUDA: the GPU tests are not compiled";
}

}  // namespace
}  // namespace gol

#endif  // GOL_HAVE_CUDA
