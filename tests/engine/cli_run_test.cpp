// `gol run` as a long-running tool: standard input and output, --until,
// --log, the progress line on a terminal, outputs checked before the run
// and written safely, signals that keep the work, checkpoints that resume,
// and errors writing stdout.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "tests/engine/gol_process.h"

namespace {

namespace fs = std::filesystem;
using gol::testing::Outcome;
using gol::testing::slurp;
using CliRunTest = gol::testing::GolProcessTest;

constexpr const char* kGliderRle = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";
// Long enough that a test stops it by signal, never by reaching the end.
constexpr const char* kEndless = "1000000000000";

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The RLE body and #CXRLE line without the name, to compare two outputs.
std::string cells_and_generation(const std::string& rle) {
  std::string kept;
  for (const std::string& line : lines_of(rle)) {
    if (!line.starts_with("#N")) kept += line + "\n";
  }
  return kept;
}

bool wait_for_file(const fs::path& path, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!fs::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::vector<std::string> temporary_files(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".gol-") != std::string::npos) {
      found.push_back(entry.path().filename().string());
    }
  }
  return found;
}

TEST_F(CliRunTest, DashReadsStandardInputAndWritesStandardOutput) {
  const fs::path glider = write_file("glider.rle", kGliderRle);
  const Outcome outcome = gol({"run", "-", "--gens", "4", "--out", "-", "--quiet"}, glider);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(outcome.out.starts_with("#CXRLE Pos=1,1 Gen=4")) << outcome.out;
  // The summary moves to stderr, out of the pattern's way.
  EXPECT_TRUE(contains(outcome.err, "population   5")) << outcome.err;

  const fs::path cells = write_file("glider.txt", ".O\n..O\nOOO\n");
  const Outcome as_cells = gol(
      {"run", "-", "--format", "cells", "--gens", "0", "--out", "-", "--format", "cells"}, cells);
  EXPECT_EQ(as_cells.exit_code, 2) << "--format given twice";
  const Outcome forced = gol({"info", "-", "--format", "cells", "--json"}, cells);
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_TRUE(contains(forced.out, "\"population\":5")) << forced.out;
  EXPECT_TRUE(contains(forced.out, "\"format\":\"cells\"")) << forced.out;

  const Outcome as_macrocell =
      gol({"run", "-", "--gens", "4", "--out", "-", "--format", "mc", "--quiet"}, glider);
  ASSERT_EQ(as_macrocell.exit_code, 0) << as_macrocell.err;
  EXPECT_TRUE(as_macrocell.out.starts_with("[M2]")) << as_macrocell.out;
  const fs::path macrocell = write_file("glider.mc", as_macrocell.out);
  const Outcome read_back = gol({"info", "-", "--format", "mc", "--json"}, macrocell);
  ASSERT_EQ(read_back.exit_code, 0) << read_back.err;
  EXPECT_TRUE(contains(read_back.out, "\"population\":5")) << read_back.out;
  EXPECT_TRUE(contains(read_back.out, "\"generation\":4")) << read_back.out;

  const Outcome as_text =
      gol({"run", "-", "--gens", "0", "--out", "-", "--format", "cells"}, glider);
  ASSERT_EQ(as_text.exit_code, 0) << as_text.err;
  EXPECT_TRUE(contains(as_text.out, ".O\n..O\nOOO\n")) << as_text.out;
}

TEST_F(CliRunTest, FormatsThatCannotBeToldAreRefusedBeforeTheRun) {
  expect_failure({"run", "builtin:glider", "--out", (dir_ / "x.txt").string()}, 2,
                 "cannot tell the format");
  expect_failure({"run", "builtin:glider", "--out", (dir_ / "x.rle").string(), "--format", "cells"},
                 2, "--format says cells");
  expect_failure({"run", "builtin:glider", "--format", "rle"}, 2, "--format applies");
  expect_failure({"run", "builtin:glider", "--out", "-", "--json"}, 2, "standard output");
  const Outcome explicit_format = gol({"run", "builtin:glider", "--gens", "1", "--quiet", "--out",
                                       (dir_ / "result").string(), "--format", "rle"});
  ASSERT_EQ(explicit_format.exit_code, 0) << explicit_format.err;
  EXPECT_TRUE(slurp(dir_ / "result").starts_with("#CXRLE")) << slurp(dir_ / "result");
}

TEST_F(CliRunTest, UntilCountsTheLoadedGeneration) {
  const fs::path at100 = dir_ / "at100.rle";
  ASSERT_EQ(gol({"run", "builtin:r-pentomino", "--gens", "100", "--quiet", "--out", at100.string()})
                .exit_code,
            0);
  const Outcome outcome = gol({"run", at100.string(), "--until", "150", "--json", "--quiet"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(contains(outcome.out, "\"generation\":150")) << outcome.out;
  EXPECT_TRUE(contains(outcome.out, "\"generations_run\":50")) << outcome.out;
  expect_failure({"run", at100.string(), "--until", "50"}, 2,
                 "before the pattern's generation 100");
  expect_failure({"run", at100.string(), "--until", "200", "--gens", "5"}, 2, "--until");
}

TEST_F(CliRunTest, LogHasARowEveryNGenerationsFromTheStart) {
  const fs::path log = dir_ / "run.csv";
  const Outcome outcome = gol({"run", "builtin:r-pentomino", "--gens", "250", "--log", log.string(),
                               "--every", "100", "--json", "--quiet"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::vector<std::string> rows = lines_of(slurp(log));
  ASSERT_EQ(rows.size(), 5u) << slurp(log);
  EXPECT_EQ(rows[0], "generation,population,xmin,ymin,xmax,ymax,tiles_active,seconds");
  EXPECT_TRUE(rows[1].starts_with("0,5,0,0,2,2,")) << rows[1];
  EXPECT_TRUE(rows[2].starts_with("100,")) << rows[2];
  EXPECT_TRUE(rows[3].starts_with("200,")) << rows[3];
  EXPECT_TRUE(rows[4].starts_with("250,144,")) << rows[4];
  EXPECT_TRUE(contains(outcome.out, "\"population\":144")) << outcome.out;
  for (const std::string& row : rows) EXPECT_EQ(std::count(row.begin(), row.end(), ','), 7) << row;

  // An empty world leaves the box columns empty.
  ASSERT_EQ(gol({"run", "builtin:diehard", "--gens", "130", "--log", log.string(), "--every", "130",
                 "--quiet"})
                .exit_code,
            0);
  const std::vector<std::string> died = lines_of(slurp(log));
  ASSERT_EQ(died.size(), 3u);
  EXPECT_TRUE(died[2].starts_with("130,0,,,,,")) << died[2];

  expect_failure({"run", "builtin:glider", "--log", log.string()}, 2, "--every");
  expect_failure({"run", "builtin:glider", "--every", "5"}, 2, "--log");
  expect_failure({"run", "builtin:glider", "--log", log.string(), "--every", "0"}, 2, "--every");
  // A pattern written over the log would lose it.
  const std::string same = (dir_ / "same.rle").string();
  expect_failure({"run", "builtin:glider", "--log", same, "--every", "5", "--out",
                  (dir_ / "." / "same.rle").string()},
                 2, "would replace the log");
  expect_failure({"run", "builtin:glider", "--log", same, "--every", "5", "--checkpoint", same}, 2,
                 "--log and --checkpoint both name");
}

TEST_F(CliRunTest, ProgressLineOnATerminalIsClearedBeforeTheSummary) {
  if (std::system("command -v script > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "script (util-linux) is not installed";
  }
  const fs::path transcript = dir_ / "terminal.txt";
  // An endless run, stopped by one SIGINT sent to gol itself once its line
  // is on the terminal: gol is then in its run loop, whose handler keeps
  // the state and prints the summary however slow the machine. (Stopping
  // it by a timer raced with loading, and a signal there ends gol with no
  // summary.) `script -f` writes the transcript as the output comes.
  const auto run_on_terminal = [&](const std::string& extra, bool wait_for_line) {
    const std::string gol_command =
        std::string(GOL_EXE_PATH) + " run soup:512x512 --backend bit --gens " + kEndless + extra;
    const std::string wait = wait_for_line ? "for i in $(seq 1200); do grep -q generation " +
                                                 transcript.string() +
                                                 " 2>/dev/null && break; sleep 0.05; done; "
                                           : "sleep 2; ";
    const std::string command = "script -qfec '" + gol_command + "' " + transcript.string() +
                                " > /dev/null & s=$!; " + wait + "pkill -INT -f '^" + gol_command +
                                "'; wait $s";
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << command;
    return slurp(transcript);
  };
  const std::string text = run_on_terminal("", true);
  const size_t summary = text.find("pattern      soup:512x512");
  ASSERT_NE(summary, std::string::npos) << text;
  const std::string before = text.substr(0, summary);
  EXPECT_TRUE(contains(before, "\rgeneration ")) << before;
  EXPECT_TRUE(contains(before, std::string(" of ") + kEndless + " (")) << before;
  EXPECT_TRUE(contains(before, "%)")) << before;
  EXPECT_TRUE(contains(before, " left")) << before;
  EXPECT_TRUE(contains(before, " effective, ")) << before;
  EXPECT_TRUE(contains(before, " computed")) << before;
  // Cleared: blanks over the line, then back to its start.
  ASSERT_GE(before.size(), 2u);
  EXPECT_EQ(before.back(), '\r');
  EXPECT_EQ(before[before.size() - 2], ' ');
  EXPECT_TRUE(contains(text, "CUpS         ")) << text;

  EXPECT_FALSE(contains(run_on_terminal(" --quiet", false), "\rgeneration "))
      << "--quiet shows no progress";
}

TEST_F(CliRunTest, OutputsAreCheckedBeforeTheRun) {
  const auto quickly_refused = [&](const std::vector<std::string>& extra, int code,
                                   const std::string& needle) {
    std::vector<std::string> args = {"run", "soup:256x256", "--gens", kEndless, "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto start = std::chrono::steady_clock::now();
    expect_failure(args, code, needle);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << needle;
  };
  quickly_refused({"--out", (dir_ / "no-such-folder" / "x.rle").string()}, 4, "does not exist");
  fs::create_directories(dir_ / "folder.rle");
  quickly_refused({"--out", (dir_ / "folder.rle").string()}, 4, "is a folder");
  quickly_refused({"--out", (dir_ / (std::string(300, 'a') + ".rle")).string()}, 4, "limit");
  quickly_refused({"--log", (dir_ / "no-such-folder" / "x.csv").string(), "--every", "1"}, 4,
                  "--log");
  quickly_refused({"--checkpoint", (dir_ / "x.cells").string(), "--every", "1"}, 2, ".rle");
  if (geteuid() != 0) {  // root may write anywhere
    fs::create_directories(dir_ / "read-only");
    fs::permissions(dir_ / "read-only", fs::perms::owner_read | fs::perms::owner_exec);
    quickly_refused({"--out", (dir_ / "read-only" / "x.rle").string()}, 4, "not writable");
  }
  const auto start = std::chrono::steady_clock::now();
  expect_failure({"bench", "--workloads", "plane-8192", "--golly", "off", "--json",
                  (dir_ / "no-such-folder" / "b.json").string()},
                 4, "b.json");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST_F(CliRunTest, SymlinksAreFollowedAndPermissionsKept) {
  const fs::path target = write_file("target.rle", "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink("target.rle", dir_ / "link.rle");
  ASSERT_EQ(gol({"run", "builtin:glider", "--gens", "4", "--quiet", "--out",
                 (dir_ / "link.rle").string()})
                .exit_code,
            0);
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.rle"));
  EXPECT_TRUE(slurp(target).starts_with("#CXRLE")) << slurp(target);
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);

  // A new file follows the umask.
  const mode_t saved = umask(027);
  const Outcome fresh = gol(
      {"run", "builtin:glider", "--gens", "1", "--quiet", "--out", (dir_ / "fresh.rle").string()});
  umask(saved);
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_EQ(fs::status(dir_ / "fresh.rle").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_TRUE(temporary_files(dir_).empty());
}

TEST_F(CliRunTest, AFailedWriteLeavesNoTemporaryFileNorHalfAFile) {
  // A file-size limit makes the write fail part way (SIGXFSZ is ignored,
  // so it is an error with a message, not a kill).
  rlimit saved{};
  getrlimit(RLIMIT_FSIZE, &saved);
  rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const pid_t pid = start(
      {"run", "soup:256x256", "--gens", "0", "--quiet", "--out", (dir_ / "big.rle").string()});
  setrlimit(RLIMIT_FSIZE, &saved);
  const Outcome outcome = finish(pid);
  EXPECT_EQ(outcome.exit_code, 4) << outcome.err;
  EXPECT_TRUE(contains(outcome.err, "big.rle")) << outcome.err;
  EXPECT_FALSE(fs::exists(dir_ / "big.rle"));
  EXPECT_TRUE(temporary_files(dir_).empty());
}

class CliSignalTest : public CliRunTest {
 protected:
  // Starts an endless run of `soup`, waits for its first checkpoint,
  // signals it; with `again`, once more that long after.
  Outcome interrupt(int signal_number, const fs::path& out, const fs::path& checkpoint,
                    const std::string& soup = "soup:256x256",
                    std::optional<std::chrono::milliseconds> again = {}) {
    const pid_t pid =
        start({"run", soup, "--gens", kEndless, "--backend", "bit", "--quiet", "--out",
               out.string(), "--checkpoint", checkpoint.string(), "--every", "50"});
    EXPECT_TRUE(wait_for_file(checkpoint, std::chrono::seconds(60)));
    kill(pid, signal_number);
    if (again) {
      std::this_thread::sleep_for(*again);
      kill(pid, signal_number);
    }
    return finish(pid);
  }
};

TEST_F(CliSignalTest, SigintWritesTheStateReachedAndExits130) {
  const fs::path out = dir_ / "stopped.rle";
  const Outcome outcome = interrupt(SIGINT, out, dir_ / "ck.rle");
  EXPECT_EQ(outcome.exit_code, 130) << outcome.err;
  EXPECT_TRUE(contains(outcome.err, "stopped by SIGINT at generation")) << outcome.err;
  const std::string written = slurp(out);
  ASSERT_TRUE(written.starts_with("#CXRLE Pos=")) << written;
  EXPECT_TRUE(contains(written, " Gen=")) << written;
  const Outcome info = gol({"info", out.string(), "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_FALSE(contains(info.out, "\"generation\":0,")) << info.out;
  // The summary still reports where the run got to.
  EXPECT_TRUE(contains(outcome.out, "generation   ")) << outcome.out;
  EXPECT_TRUE(temporary_files(dir_).empty());
}

TEST_F(CliSignalTest, SigtermWritesTheStateReachedAndExits143) {
  const fs::path out = dir_ / "stopped.rle.gz";
  const Outcome outcome = interrupt(SIGTERM, out, dir_ / "ck.rle");
  EXPECT_EQ(outcome.exit_code, 143) << outcome.err;
  const Outcome info = gol({"info", out.string(), "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_TRUE(contains(info.out, "\"generation\":")) << info.out;
  // The checkpoint was brought up to the same generation.
  const Outcome checkpoint = gol({"info", (dir_ / "ck.rle").string(), "--json"});
  const auto generation_of = [](const std::string& json) {
    const size_t at = json.find("\"generation\":");
    return json.substr(at, json.find(',', at) - at);
  };
  EXPECT_EQ(generation_of(info.out), generation_of(checkpoint.out));
}

// `timeout -s INT` signals gol and then its process group: the same
// request twice within a moment, which must not end gol before it has
// kept its work (a second signal a second or more later still does).
TEST_F(CliSignalTest, ASignalDeliveredTwiceAtOnceIsOneRequest) {
  // A soup whose state takes a while to write, the second signal 10 ms
  // into the stop.
  const fs::path out = dir_ / "stopped.rle.gz";
  const Outcome outcome =
      interrupt(SIGINT, out, dir_ / "ck.rle.gz", "soup:2048x2048", std::chrono::milliseconds(10));
  EXPECT_EQ(outcome.exit_code, 130) << outcome.err;
  EXPECT_TRUE(contains(outcome.err, "stopped by SIGINT at generation")) << outcome.err;
  const Outcome info = gol({"info", out.string(), "--json"});
  EXPECT_EQ(info.exit_code, 0) << info.err;
  EXPECT_TRUE(contains(outcome.out, "generation   ")) << outcome.out;
}

TEST_F(CliRunTest, ResumingACheckpointEqualsAnUninterruptedRun) {
  const fs::path checkpoint = dir_ / "ck.rle";
  ASSERT_EQ(gol({"run", "builtin:acorn", "--until", "3000", "--checkpoint", checkpoint.string(),
                 "--every", "1000", "--quiet"})
                .exit_code,
            0);
  const fs::path resumed = dir_ / "resumed.rle";
  const fs::path straight = dir_ / "straight.rle";
  ASSERT_EQ(
      gol({"run", checkpoint.string(), "--until", "5206", "--quiet", "--out", resumed.string()})
          .exit_code,
      0);
  ASSERT_EQ(gol({"run", "builtin:acorn", "--until", "5206", "--quiet", "--out", straight.string()})
                .exit_code,
            0);
  EXPECT_TRUE(contains(slurp(resumed), "Gen=5206")) << slurp(resumed);
  EXPECT_EQ(cells_and_generation(slurp(resumed)), cells_and_generation(slurp(straight)));

  // On a torus with another rule, the checkpoint keeps both.
  ASSERT_EQ(gol({"run", "builtin:r-pentomino", "--gens", "300", "--rule", "B36/S23:T128,128",
                 "--checkpoint", checkpoint.string(), "--every", "100", "--quiet"})
                .exit_code,
            0);
  const Outcome info = gol({"info", checkpoint.string(), "--json"});
  EXPECT_TRUE(contains(info.out, "\"rule\":\"B36/S23\"")) << info.out;
  EXPECT_TRUE(contains(info.out, "\"topology\":\"torus 128x128\"")) << info.out;
  EXPECT_TRUE(contains(info.out, "\"generation\":300")) << info.out;
}

TEST_F(CliRunTest, ErrorsWritingStandardOutputAreNotSilent) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "builtin:glider", "--gens", "4", "--json", "--quiet"},
        std::vector<std::string>{"run", "builtin:glider", "--quiet", "--out", "-"},
        std::vector<std::string>{"info", "builtin:glider"}, std::vector<std::string>{"backends"},
        std::vector<std::string>{"--help"}}) {
    const Outcome outcome = finish(start(args, {}, fs::path("/dev/full")), false);
    EXPECT_EQ(outcome.exit_code, 4) << args.front() << " (" << args.size() << " arguments)";
    EXPECT_TRUE(contains(outcome.err, "standard output")) << outcome.err;
  }
  // --out to a device writes in place, and its failure is an error too.
  expect_failure({"run", "builtin:glider", "--quiet", "--out", "/dev/full", "--format", "rle"}, 4,
                 "/dev/full");
}

TEST_F(CliRunTest, CellsOutputSaysWhatItDrops) {
  const Outcome outcome = gol({"run", "builtin:glider", "--gens", "5", "--rule", "B36/S23",
                               "--quiet", "--out", (dir_ / "g.cells").string()});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(contains(outcome.err, "the rule B36/S23")) << outcome.err;
  EXPECT_TRUE(contains(outcome.err, "generation 5")) << outcome.err;
  const Outcome plain = gol({"run", "builtin:glider", "--gens", "0", "--quiet", "--out",
                             (dir_ / "plain.cells").string()});
  EXPECT_EQ(plain.err, "") << "nothing dropped, nothing said";
}

TEST_F(CliRunTest, BoxesWiderThanInt64PrintExactly) {
  const fs::path wide =
      write_file("wide.lif", "#Life 1.06\n-4611686018427387904 0\n4611686018427387903 0\n");
  const Outcome info = gol({"info", wide.string()});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_TRUE(contains(info.out, "(9223372036854775808 x 1)")) << info.out;
  const Outcome run = gol({"run", wide.string(), "--gens", "1", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string cups = run.out.substr(run.out.find("CUpS "));
  EXPECT_FALSE(contains(cups.substr(0, cups.find('\n')), "-")) << cups;
  EXPECT_FALSE(contains(cups.substr(0, cups.find('\n')), "e+")) << cups;
}

}  // namespace
