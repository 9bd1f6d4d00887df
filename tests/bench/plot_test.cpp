// gol bench --plot: a PNG drawn from a real --quick run where python3 with
// matplotlib is installed, a clear refusal up front where it is not, and
// the script's own checks of its input.
#include "bench/plot.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bench/bench_command.h"
#include "bench/bench_options.h"
#include "bench/child_process.h"
#include "engine/core/error.h"

namespace gol::bench {
namespace {

// Sets an environment variable for one test.
class EnvScope {
 public:
  EnvScope(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    ::setenv(name, value, 1);
  }
  ~EnvScope() {
    if (saved_) {
      ::setenv(name_, saved_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  EnvScope(const EnvScope&) = delete;
  EnvScope& operator=(const EnvScope&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

BenchOptions quick_plot(const std::string& path) {
  BenchOptions options;
  options.workloads = {"r-pentomino", "torus-1024"};
  options.backends = {"bit"};
  options.repeats = 1;
  options.golly = GollyMode::kOff;
  options.quick = true;
  options.plot_path = path;
  return options;
}

std::string first_bytes(const std::string& path, size_t count) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(count, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(count));
  return bytes.substr(0, static_cast<size_t>(in.gcount()));
}

TEST(Plot, QuickRunDrawsAPng) {
  std::string python;
  try {
    python = find_plotting_python();
  } catch (const RuntimeError& e) {
    GTEST_SKIP() << e.what();
  }
  const TempDir dir;
  const std::string path = dir.file("bench.png");
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int code = run_bench_command(quick_plot(path));
  ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 0);
  EXPECT_EQ(first_bytes(path, 8), "\x89PNG\r\n\x1a\n");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp.png"));
}

// Without matplotlib the bench refuses before running anything.
TEST(Plot, MissingMatplotlibIsRefusedUpFront) {
  const EnvScope python("GOL_PYTHON", "/bin/false");
  const TempDir dir;
  try {
    run_bench_command(quick_plot(dir.file("bench.png")));
    ADD_FAILURE() << "ran without matplotlib";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gol bench --plot needs python3 with matplotlib (Debian: apt install "
              "python3-matplotlib); tried /bin/false (no matplotlib)");
  }
}

TEST(Plot, ScriptRefusesWhatIsNotBenchJson) {
  std::string python;
  try {
    python = find_plotting_python();
  } catch (const RuntimeError& e) {
    GTEST_SKIP() << e.what();
  }
  const TempDir dir;
  std::ofstream(dir.file("bad.json")) << "{\"results\": 5";
  const ChildResult child =
      run_child({python, std::string(GOL_TEST_DATA_DIR) + "/../../bench/plot_bench.py",
                 dir.file("bad.json"), dir.file("out.png")});
  EXPECT_EQ(child.exit_code, 2);
  EXPECT_NE(child.output.find("cannot read gol bench JSON from"), std::string::npos)
      << child.output;
}

}  // namespace
}  // namespace gol::bench
