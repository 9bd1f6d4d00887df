// When `gol run`'s progress line shows: only on a terminal it was asked
// for, and not in the run's first second. The run loop asks before taking
// the state, which costs a pass over the world.
#include "engine/cli/progress_line.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace gol::cli {
namespace {

TEST(ProgressLine, ShowsOnlyWhenEnabledAndAfterTheFirstSecond) {
  std::FILE* terminal = std::tmpfile();
  ASSERT_NE(terminal, nullptr);
  {
    const ProgressLine quiet(false, 0, 100, terminal);
    EXPECT_FALSE(quiet.shows_at(0.5));
    EXPECT_FALSE(quiet.shows_at(30));
    const ProgressLine shown(true, 0, 100, terminal);
    EXPECT_FALSE(shown.shows_at(0));
    EXPECT_FALSE(shown.shows_at(0.99));
    EXPECT_TRUE(shown.shows_at(1));
    EXPECT_TRUE(shown.shows_at(30));
  }
  std::fclose(terminal);
}

}  // namespace
}  // namespace gol::cli
