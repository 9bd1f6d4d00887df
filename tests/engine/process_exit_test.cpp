// keep_until_exit: a world is kept only where the process ends with the
// command that ran it, and freed at once everywhere else.
#include "engine/process_exit.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

namespace gol {
namespace {

std::unique_ptr<Simulation> glider_world() {
  Pattern glider;
  for (const auto& [x, y] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) {
    glider.cells.set(x, y);
  }
  SimulationOptions options;
  options.backend = "simd";
  auto world = std::make_unique<Simulation>(glider, options);
  world->advance(8);
  return world;
}

// Restores the process-wide setting, whatever a test left it at.
class ProcessExit : public ::testing::Test {
 protected:
  void TearDown() override { set_process_ends_with_command(false); }
};

TEST_F(ProcessExit, OffUnlessSet) { EXPECT_FALSE(process_ends_with_command()); }

TEST_F(ProcessExit, AWorldIsFreedWhereTheProcessGoesOn) {
  const size_t kept = worlds_kept_until_exit();
  keep_until_exit(glider_world());
  EXPECT_EQ(worlds_kept_until_exit(), kept);
}

TEST_F(ProcessExit, AWorldIsKeptWhereTheProcessEndsWithTheCommand) {
  set_process_ends_with_command(true);
  const size_t kept = worlds_kept_until_exit();
  keep_until_exit(glider_world());
  keep_until_exit(nullptr);
  EXPECT_EQ(worlds_kept_until_exit(), kept + 1);
  set_process_ends_with_command(false);
  keep_until_exit(glider_world());
  EXPECT_EQ(worlds_kept_until_exit(), kept + 1);
}

}  // namespace
}  // namespace gol
