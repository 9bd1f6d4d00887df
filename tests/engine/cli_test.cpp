// The gol command as a user meets it: exit codes, one-line errors naming
// the problem, the --json contract and --out files.
#include "tests/engine/gol_process.h"

namespace {

using gol::testing::Outcome;
namespace fs = std::filesystem;
using CliTest = gol::testing::GolProcessTest;

TEST_F(CliTest, GliderRunReportsJsonWithEveryDocumentedKey) {
  const Outcome outcome =
      gol({"run", "builtin:glider", "--gens", "8", "--backend", "bit", "--json", "--quiet"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* key :
       {"\"generation\":8", "\"population\":5", "\"bbox\":[", "\"rule\":\"B3/S23\"",
        "\"topology\":\"plane\"", "\"backend\":\"bit\"",
        "\"threads\":", "\"seconds\":", "\"cups_effective\":", "\"cups_computed\":",
        "\"tiles_active\":", "\"tiles_total\":", "\"strip_segments\":", "\"simd_target\":",
        "\"tiles_cpu\":", "\"tiles_gpu\":", "\"epochs\":"}) {
    EXPECT_NE(outcome.out.find(key), std::string::npos) << key << " missing in " << outcome.out;
  }
  EXPECT_EQ(outcome.out.front(), '{');
  EXPECT_EQ(outcome.out.find('\n'), outcome.out.size() - 1) << "exactly one line of JSON";
}

TEST_F(CliTest, EmptyWorldHasNullBoundingBox) {
  const Outcome outcome =
      gol({"run", "builtin:diehard", "--gens", "130", "--backend", "bit", "--json", "--quiet"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("\"population\":0"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("\"bbox\":null"), std::string::npos) << outcome.out;
}

TEST_F(CliTest, TorusAndRuleOptionsApply) {
  const Outcome outcome = gol({"run", "builtin:glider", "--gens", "256", "--torus", "64x64",
                               "--rule", "b3s23", "--backend", "serial", "--json", "--quiet"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("\"topology\":\"torus 64x64\""), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("\"population\":5"), std::string::npos) << outcome.out;
}

TEST_F(CliTest, OutWritesAPatternThatLoadsBack) {
  const fs::path out = dir_ / "after.rle";
  ASSERT_EQ(gol({"run", "builtin:r-pentomino", "--gens", "1103", "--backend", "bit", "--quiet",
                 "--out", out.string()})
                .exit_code,
            0);
  const Outcome info = gol({"info", out.string(), "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("\"population\":116"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"generation\":1103"), std::string::npos) << info.out;
}

TEST_F(CliTest, CommandLineMistakesExitTwo) {
  expect_failure({}, 2, "no command");
  expect_failure({"fly"}, 2, "unknown command 'fly'");
  expect_failure({"run", "--gens", "-5"}, 2, "--gens");
  expect_failure({"run", "--gens", "ten"}, 2, "--gens");
  expect_failure({"run", "--gens", "99999999999999999999999"}, 2, "--gens");
  expect_failure({"run", "--gens"}, 2, "needs a value");
  expect_failure({"run", "--frobnicate"}, 2, "unknown option '--frobnicate'");
  expect_failure({"run", "builtin:block", "--backend", "warp-drive"}, 2, "unknown backend");
  expect_failure({"run", "builtin:block", "builtin:glider"}, 2, "one pattern");
  expect_failure({"info"}, 2, "PATTERN is required");
  expect_failure({"run", "--gens=5", "--gens", "6"}, 2, "--gens");
  expect_failure({"backends", "extra"}, 2, "'extra'");
  expect_failure({"bench", "--repeats", "0"}, 2, "--repeats");
}

TEST_F(CliTest, EveryCommandHasHelp) {
  for (const char* command : {"run", "info", "bench", "render", "backends"}) {
    for (const char* flag : {"--help", "-h"}) {
      const Outcome outcome = gol({command, flag});
      EXPECT_EQ(outcome.exit_code, 0) << command << " " << flag << ": " << outcome.err;
      EXPECT_NE(outcome.out.find(std::string("gol ") + command), std::string::npos) << outcome.out;
      EXPECT_NE(outcome.out.find("--help"), std::string::npos) << outcome.out;
    }
  }
  const Outcome top = gol({"--help"});
  ASSERT_EQ(top.exit_code, 0) << top.err;
  for (const char* command : {"run", "info", "bench", "render", "backends"}) {
    EXPECT_NE(top.out.find(command), std::string::npos) << top.out;
  }
  // Help wins over a mistake elsewhere on the line.
  EXPECT_EQ(gol({"run", "--gens", "5", "--help"}).exit_code, 0);
}

TEST_F(CliTest, RunHelpListsItsOptions) {
  const Outcome outcome = gol({"run", "--help"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* option : {"--gens", "--backend", "--rule", "--torus", "--threads", "--out",
                             "--json", "--quiet", "PATTERN"}) {
    EXPECT_NE(outcome.out.find(option), std::string::npos) << option << " in " << outcome.out;
  }
}

TEST_F(CliTest, VersionNamesSimdTargetsAndCuda) {
  const Outcome outcome = gol({"--version"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(outcome.out.starts_with("gol ")) << outcome.out;
  EXPECT_NE(outcome.out.find("Highway"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("xsimd"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("sse2"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("CUDA"), std::string::npos) << outcome.out;
}

TEST_F(CliTest, MistypedNamesGetSuggestions) {
  expect_failure({"run", "builtin:glider", "--gen", "5"}, 2, "did you mean '--gens'?");
  expect_failure({"run", "--jsno"}, 2, "did you mean '--json'?");
  expect_failure({"run", "--output", "x.rle"}, 2, "did you mean '--out'?");
  expect_failure({"run", "--backnd=bit"}, 2, "did you mean '--backend'?");
  expect_failure({"bench", "--repeat", "3"}, 2, "did you mean '--repeats'?");
  expect_failure({"rnu"}, 2, "did you mean 'run'?");
  expect_failure({"--gens", "5", "run"}, 2, "option of 'gol run'");
  const Outcome far = gol({"run", "--zzzzzzzz"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST_F(CliTest, BadInputExitsThreeNamingTheProblem) {
  expect_failure({"run", (dir_ / "missing.rle").string()}, 3, "missing.rle");
  expect_failure({"run", "builtin:block", "--rule", "B9/S23"}, 3, "more than 8");
  expect_failure({"run", "builtin:block", "--torus", "100x64"}, 3, "multiples of 64");
  expect_failure({"run", "builtin:block", "--rule", "B0/S8"}, 3, "B0");
  expect_failure({"run", "builtin:no-such-thing"}, 3, "no-such-thing");
  expect_failure({"run", "soup:0x10"}, 3, "soup");
  const fs::path empty = write_file("empty.rle", "");
  expect_failure({"run", empty.string()}, 3, "empty.rle");
  const fs::path garbage = write_file("garbage.rle", std::string("\x7f"
                                                                 "ELF\x01\x00\x00\xff\xfe",
                                                                 9));
  expect_failure({"run", garbage.string()}, 3, "garbage.rle");
  const fs::path bad_char = write_file("bad.rle", "x = 3, y = 1\nbo?o!\n");
  expect_failure({"run", bad_char.string()}, 3, "bad.rle:2:");
  const fs::path overflow = write_file("overflow.rle", "x = 3, y = 1\n99999999999999999999999o!\n");
  expect_failure({"run", overflow.string()}, 3, "overflow.rle:2:");
  const fs::path torus = write_file("torus.rle", "x = 3, y = 1, rule = B3/S23:T100,64\n3o!\n");
  expect_failure({"run", torus.string()}, 3, "multiples of 64");
}

TEST_F(CliTest, InfoNamesUnsupportedFormatsPlainly) {
  const auto refused = [&](const std::string& name, const std::string& content,
                           const std::string& needle) {
    expect_failure({"info", write_file(name, content).string()}, 3, name + ":");
    expect_failure({"info", (dir_ / name).string()}, 3, needle);
  };
  refused("generations.rle", "x = 1, y = 1, rule = B3/S23/G3\no!\n",
          "Generations rules are not supported");
  refused("legacy.rle", "x = 1, y = 1, rule = 23/3/3\no!\n", "Generations rules are not supported");
  refused("hex.rle", "x = 1, y = 1, rule = B2/S34H\no!\n",
          "hexagonal-neighbourhood rules are not supported");
  refused("wireworld.rle", "x = 1, y = 1, rule = WireWorld\nA!\n",
          "named (rule-table) rules are not supported");
  refused("history.lif", "#Life 1.05\n#R 23/3/2\n#P 0 0\n*\n",
          "Generations rules are not supported");
  refused("wireworld.mc", "[M2] (golly 4.0)\n#R WireWorld\n1 0 3 3 0\n2 0 0 0 1\n1 0 2 0 0\n",
          "macrocell files with 4 states are not supported");
  refused("states.rle", "x = 2, y = 1\nAB!\n", "multi-state cell 'B' is not supported");
  expect_failure({"run", "builtin:glider", "--rule", "B3/S23V"}, 3,
                 "von Neumann-neighbourhood rules are not supported");
}

TEST_F(CliTest, UnwritableOutputExitsFour) {
  expect_failure({"run", "builtin:block", "--gens", "1", "--backend", "bit", "--quiet", "--out",
                  (dir_ / "no-such-dir" / "x.rle").string()},
                 4, "x.rle");
}

TEST_F(CliTest, InfoDescribesACatalogueEntry) {
  const Outcome outcome = gol({"info", "builtin:acorn"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("population   7"), std::string::npos) << outcome.out;
}

TEST_F(CliTest, BackendsListsTheReferencePaths) {
  const Outcome outcome = gol({"backends"});
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* name : {"serial", "nibble", "bit"}) {
    EXPECT_NE(outcome.out.find(name), std::string::npos) << outcome.out;
  }
}

}  // namespace
