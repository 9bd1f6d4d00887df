// Child processes: exit codes, captured output, peak memory, and a clear
// error for a program that does not exist.
#include "bench/child_process.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <vector>

#include "engine/core/error.h"

namespace gol::bench {
namespace {

TEST(ChildProcess, ReportsExitCodeOutputAndMemory) {
  const ChildResult r = run_child({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_NE(r.output.find("out"), std::string::npos);
  EXPECT_NE(r.output.find("err"), std::string::npos);
  ASSERT_TRUE(r.peak_rss_bytes);
  EXPECT_GT(*r.peak_rss_bytes, 0u);
  EXPECT_GT(r.wall_seconds, 0.0);
}

// The reason run_child traces its children: wait4's ru_maxrss would report
// this (large) parent's memory for a tiny child.
TEST(ChildProcess, PeakMemoryIsTheChildsOwn) {
  constexpr size_t kParentBytes = size_t{128} << 20;
  std::vector<char> ballast(kParentBytes, 1);
  const ChildResult small = run_child({"sh", "-c", "true"});
  ASSERT_TRUE(small.peak_rss_bytes);
  EXPECT_LT(*small.peak_rss_bytes, kParentBytes / 4);
  // A child that holds about 16 MB reports at least that.
  const ChildResult big =
      run_child({"awk",
                 "BEGIN { x = \"aaaaaaaaaaaaaaaa\"; while (length(x) < 16000000) x = x x; "
                 "print length(x) }"});
  ASSERT_TRUE(big.peak_rss_bytes);
  EXPECT_GT(*big.peak_rss_bytes, uint64_t{16000000});
  EXPECT_NE(big.output.find("16777216"), std::string::npos) << big.output;
  EXPECT_EQ(ballast[kParentBytes / 2], 1);
}

TEST(ChildProcess, PassesSignalsThrough) {
  const ChildResult r = run_child({"sh", "-c", "kill -TERM $$; sleep 5"});
  EXPECT_EQ(r.signal, SIGTERM);
  EXPECT_LT(r.wall_seconds, 4.0);
}

TEST(ChildProcess, ReportsASignal) {
  const ChildResult r = run_child({"sh", "-c", "kill -9 $$"});
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_EQ(r.signal, 9);
}

TEST(ChildProcess, MissingProgramIsARuntimeError) {
  EXPECT_THROW(run_child({"/nonexistent/gol-bench-no-such-program"}), RuntimeError);
}

TEST(ChildProcess, FindsProgramsOnPath) {
  const std::optional<std::string> sh = find_on_path("sh");
  ASSERT_TRUE(sh);
  EXPECT_TRUE(std::filesystem::exists(*sh));
  EXPECT_FALSE(find_on_path("gol-bench-no-such-program"));
}

TEST(TempDir, IsRemovedWithItsFiles) {
  std::string path;
  {
    const TempDir dir;
    path = dir.path();
    ASSERT_TRUE(std::filesystem::is_directory(path));
    std::ofstream(dir.file("x")) << "data";
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace gol::bench
