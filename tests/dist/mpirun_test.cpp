// gol run under mpirun with 2 and 4 CPU ranks against one process: the same
// cells and population on tori of several shapes, with bands of unequal
// height and generation counts that are not multiples of the halo.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "engine/core/pattern.h"
#include "patterns/pattern_io.h"
#include "tests/scratch_dir_test.h"

namespace gol {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string out;  // stdout and stderr
};

Outcome shell(const std::string& command) {
  Outcome outcome;
  FILE* pipe = popen(("{ " + command + "; } 2>&1").c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) outcome.out.append(buffer, n);
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

// Under AddressSanitizer, the ranks skip leak checking: Open MPI leaves its
// own allocations at exit, in plugins it has unloaded by then, so they
// cannot even be named in a suppression. gol's own code is leak-checked by
// the single-process runs here and the other suites.
const std::string kNoLeakCheck = "ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" ";

// `wrapper`: a command mpirun runs under, such as timeout.
std::string mpirun(int ranks, const std::string& wrapper = "") {
  return kNoLeakCheck + wrapper + GOL_MPIEXEC + " --allow-run-as-root --oversubscribe -np " +
         std::to_string(ranks) + " ";
}

uint64_t json_number(const std::string& json, const std::string& key) {
  std::smatch match;
  const std::regex pattern("\"" + key + "\": *([0-9]+)");
  EXPECT_TRUE(std::regex_search(json, match, pattern)) << key << " not in " << json;
  return match.empty() ? 0 : std::stoull(match[1]);
}

class MpiRun : public testing::ScratchDirTest {
 protected:
  // Runs `args` on `ranks` ranks (1: without mpirun); the result and JSON.
  Pattern run(int ranks, const std::string& args, std::string& json) {
    const fs::path out = dir_ / ("ranks" + std::to_string(ranks) + ".rle");
    const std::string gol =
        std::string(GOL_EXE_PATH) + " run " + args + " --json --out " + out.string();
    const Outcome outcome = shell(ranks == 1 ? gol : mpirun(ranks) + gol);
    EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
    json = outcome.out;
    return patterns::load_pattern(out.string());
  }

  // `args` on 2 and 4 ranks give what one process gives.
  void expect_ranks_agree(const std::string& args, std::vector<int> rank_counts = {2, 4}) {
    std::string single_json;
    const Pattern single = run(1, args, single_json);
    for (int ranks : rank_counts) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks: " + args);
      std::string json;
      const Pattern banded = run(ranks, args, json);
      EXPECT_EQ(banded.cells, single.cells);
      EXPECT_EQ(banded.generation, single.generation);
      EXPECT_EQ(banded.topology, single.topology);
      EXPECT_EQ(json_number(json, "population"), json_number(single_json, "population"));
      expect_rank_figures_add_up(json, ranks, single.topology->height,
                                 json_number(single_json, "population"));
    }
  }

  // One entry per rank in "ranks", the bands covering the torus, their
  // populations adding up to the whole.
  void expect_rank_figures_add_up(const std::string& json, int ranks, int64_t height,
                                  uint64_t population) {
    const std::regex entry(
        "\"first_row\": *([0-9]+),\\s*\"rows\": *([0-9]+),\\s*"
        "\"population\": *([0-9]+)");
    int count = 0;
    uint64_t rows = 0;
    uint64_t cells = 0;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), entry);
         it != std::sregex_iterator(); ++it) {
      EXPECT_EQ(std::stoull((*it)[1]), rows);
      rows += std::stoull((*it)[2]);
      cells += std::stoull((*it)[3]);
      ++count;
    }
    EXPECT_EQ(count, ranks) << json;
    EXPECT_EQ(rows, static_cast<uint64_t>(height));
    EXPECT_EQ(cells, population);
  }
};

TEST_F(MpiRun, SoupOnUnequalBandsAndAnOddGenerationCount) {
  // 5 tile rows: 3 + 2 on two ranks, 2 + 1 + 1 + 1 on four.
  expect_ranks_agree("soup:256x320:0.4:7 --torus 256x320 --gens 101");
}

TEST_F(MpiRun, TallNarrowTorusWithSevenTileRows) {
  expect_ranks_agree("soup:192x448:0.5:3 --torus 192x448 --gens 77");
}

TEST_F(MpiRun, WideTorusWithOneTileRowPerRank) {
  // Bands of 64 rows, each exactly its two halos: the tightest fit.
  expect_ranks_agree("soup:640x256:0.35:11 --torus 640x256 --gens 96", {4});
}

TEST_F(MpiRun, GlidersCrossEveryBandEdgeAndWrap) {
  // A glider moves a row every 4 generations: 700 take it across all
  // bands and around the torus twice, through many exchanges.
  expect_ranks_agree("builtin:glider --torus 128x256 --gens 700");
}

TEST_F(MpiRun, ASettledTorusPassesTheRestWithoutExchanges) {
  // Blocks and blinkers on a 128x256 torus, across every band edge of two
  // and four ranks and across the wrap: asleep after the first rounds, the
  // ranks pass the rest of 10^12 + 1 generations at once.
  Pattern settled;
  CellSet odd;  // the blinkers in their other phase
  for (int64_t edge : {0, 64, 128, 192}) {
    for (int64_t d = -1; d <= 1; ++d) {
      settled.cells.set(20, (edge + d + 256) % 256);
      odd.set(20 + d, edge);
    }
    for (int64_t y : {edge - 1, edge}) {
      for (int64_t x : {60, 61}) {
        settled.cells.set(x, (y + 256) % 256);
        odd.set(x, (y + 256) % 256);
      }
    }
  }
  const fs::path file = dir_ / "settled.rle";
  patterns::write_pattern_file(file.string(), settled);
  const std::string args = file.string() + " --torus 128x256 --gens 1000000000001";
  expect_ranks_agree(args);
  std::string json;
  const Pattern banded = run(2, args, json);
  EXPECT_EQ(banded.cells, odd);
  EXPECT_LE(json_number(json, "exchanges"), 4u) << json;
}

TEST_F(MpiRun, OtherRulesIncludingBirthOnZero) {
  expect_ranks_agree("soup:256x256:0.3:5 --torus 256x256 --rule B36/S23 --gens 45");
  expect_ranks_agree("soup:128x256:0.5:9 --torus 128x256 --rule B0123478/S34678 --gens 33");
}

TEST_F(MpiRun, LongRunsIntoAshWhereTilesSleepBesideTheHalos) {
  // Each rank's grid keeps its sleeping tiles across exchanges and takes
  // only the halo tiles in: still lifes and blinkers on band edges, and
  // debris crossing them long after the interior went to sleep.
  for (const char* seed : {"13", "14", "15"}) {
    expect_ranks_agree(std::string("soup:256x320:0.5:") + seed + " --torus 256x320 --gens 1500");
  }
}

TEST_F(MpiRun, TheXsimdKernelAndThreadsPerRank) {
  expect_ranks_agree("soup:256x256:0.5:21 --torus 256x256 --gens 200 --backend simd-xsimd", {2});
  expect_ranks_agree("soup:256x256:0.5:21 --torus 256x256 --gens 200 --threads 2", {2});
}

TEST_F(MpiRun, ABackendOtherThanTheSparseEngineIsRefused) {
  const Outcome outcome = shell(mpirun(2) + GOL_EXE_PATH +
                                " run soup:128x128 --torus 128x128 --gens 5 --backend serial");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("expected --backend auto, cpu, simd or simd-xsimd"), std::string::npos)
      << outcome.out;
}

TEST_F(MpiRun, NoGenerationsAndOne) {
  expect_ranks_agree("soup:128x256:0.5:1 --torus 128x256 --gens 0", {2});
  expect_ranks_agree("soup:128x256:0.5:1 --torus 128x256 --gens 1", {2});
}

TEST_F(MpiRun, ASignalToTheRanksStopsEveryRankAndKeepsTheStateReached) {
  // SIGTERM to every rank (mpirun's own children here) after 8 s: they stop
  // after the same round and rank 0 writes what they reached. (A signal
  // while the ranks still load ends them with nothing kept; under the
  // sanitizers on two busy cores, starting and loading take seconds.)
  const fs::path out = dir_ / "stopped.rle";
  const std::string args = "soup:2048x2048:0.5:4 --torus 2048x2048 --threads 1";
  const Outcome outcome =
      shell(mpirun(2) + GOL_EXE_PATH + " run " + args + " --gens 100000000 --out " + out.string() +
            " & launcher=$!; sleep 8; kill -TERM $(pgrep -P $launcher); "
            "wait $launcher");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(outcome.out, match,
                                std::regex("stopped by SIGTERM at generation ([0-9]+)")))
      << outcome.out;
  const uint64_t generation = std::stoull(match[1]);
  EXPECT_EQ(generation % 32, 0u) << "a stop falls between rounds of 32 generations";
  const Pattern stopped = patterns::load_pattern(out.string());
  EXPECT_EQ(stopped.generation, generation);
  std::string json;
  const Pattern single = run(1, args + " --gens " + std::to_string(generation), json);
  EXPECT_EQ(stopped.cells, single.cells);
}

TEST_F(MpiRun, MoreRanksThanBandsIsRefusedWithTheLimit) {
  const Outcome outcome =
      shell(mpirun(4) + GOL_EXE_PATH + " run soup:128x192 --torus 128x192 --gens 5");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("cannot be split into 4 bands"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("-np 3 or fewer"), std::string::npos) << outcome.out;
}

TEST_F(MpiRun, ThePlaneIsRefusedAskingForATorus) {
  const Outcome outcome = shell(mpirun(2) + GOL_EXE_PATH + " run builtin:glider --gens 5");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("expected --torus WxH"), std::string::npos) << outcome.out;
}

TEST_F(MpiRun, OneRankUnderMpirunRunsAsOneProcess) {
  const Outcome outcome = shell(mpirun(1) + GOL_EXE_PATH + " run builtin:glider --gens 8 --json");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_EQ(outcome.out.find("\"ranks\""), std::string::npos) << outcome.out;
  EXPECT_EQ(json_number(outcome.out, "population"), 5u);
}

TEST_F(MpiRun, OneProcessLoadsNoMpiLibrary) {
  // MPI is loaded only for a run across ranks (dist/mpi_calls.h says why).
  const Outcome outcome =
      shell("LD_DEBUG=libs " + std::string(GOL_EXE_PATH) + " run builtin:glider --gens 8");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("libtbb"), std::string::npos) << "expected the loader's log";
  EXPECT_EQ(outcome.out.find("libmpi"), std::string::npos) << outcome.out;
}

TEST_F(MpiRun, GolWithoutItsMpiModuleNamesTheFileItLookedFor) {
  // A gol copied away from the build tree finds no module beside it.
  const fs::path gol = dir_ / "bin" / "gol";
  fs::create_directories(gol.parent_path());
  fs::copy_file(GOL_EXE_PATH, gol);
  const Outcome outcome =
      shell(mpirun(2) + gol.string() + " run soup:128x128 --torus 128x128 --gens 5");
  EXPECT_NE(outcome.exit_code, 0) << outcome.out;
  EXPECT_NE(outcome.out.find("gol: cannot load the MPI module " + dir_.string() + "/"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("libgol_mpi.so: cannot open shared object file"), std::string::npos)
      << outcome.out;
}

// Each row: ranks, torus, seconds, CUpS, efficiency.
TEST_F(MpiRun, BenchScalingReportsEveryRankCountAgainstOne) {
  for (const std::string mode : {"strong", "weak"}) {
    const Outcome outcome = shell(kNoLeakCheck + GOL_EXE_PATH + " bench --mpi-scaling " + mode +
                                  " --mpi-side 256 --mpi-gens 40 --repeats 1 --ranks 1,2");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
    EXPECT_NE(outcome.out.find("MPI " + mode + " scaling"), std::string::npos) << outcome.out;
    const std::string two_ranks_torus = mode == "weak" ? "256x512" : "256x256";
    EXPECT_TRUE(
        std::regex_search(outcome.out, std::regex("\\n1 +256x256 +[0-9.]+ +\\S+ +100\\.0%")))
        << outcome.out;
    EXPECT_TRUE(std::regex_search(
        outcome.out, std::regex("\\n2 +" + two_ranks_torus + " +[0-9.]+ +\\S+ +[0-9.]+%")))
        << outcome.out;
  }
}

TEST_F(MpiRun, BenchScalingNeedsRanksFromOne) {
  const Outcome outcome =
      shell(std::string(GOL_EXE_PATH) + " bench --mpi-scaling strong --ranks 2,4");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.out.find("expected a list starting with 1"), std::string::npos) << outcome.out;
}

}  // namespace
}  // namespace gol
