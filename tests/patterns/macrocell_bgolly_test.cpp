// Macrocell against Golly's batch program bgolly, where it is installed.
// Golly's Patterns/HashLife folder is the test set: gol must read each file
// as Golly does, and Golly's HashLife must load what gol writes as the same
// cells and generation. bgolly's RLE has no position, so absolute places
// are checked through files that carry them: our RLE's "#CXRLE Pos=" and
// Golly's own macrocell output.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <regex>

#include "engine/core/error.h"
#include "patterns/macrocell.h"
#include "patterns/pattern_io.h"
#include "patterns/soup.h"
#include "tests/patterns/test_util.h"

namespace gol::patterns {
namespace {

using testing::have_bgolly;
using testing::normalized;
using testing::ScratchDir;

const std::string kHashLifeFolder = "/usr/share/golly/Patterns/HashLife";

// Above this many cells bgolly's RLE runs to hundreds of MB (the metapixel
// patterns): those files are compared by population and through Golly's
// macrocell output instead of cell by cell through RLE.
constexpr uint64_t kMaxRleCompared = 1'000'000;

struct GollyRun {
  std::string output;
  int status = 0;
};

// Runs bgolly's HashLife on `in` for `generations` and writes `out`.
GollyRun bgolly(const std::string& in, const std::string& out, uint64_t generations = 0) {
  const std::string command = "bgolly -a HashLife -m " + std::to_string(generations) + " -o '" +
                              out + "' '" + in + "' 2>&1";
  GollyRun run;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) run.output += buffer.data();
  run.status = pclose(pipe.release());
  return run;
}

// bgolly prints "GENERATION: POPULATION" once the pattern is loaded, with
// thousands separated by commas.
uint64_t population_printed(const std::string& output) {
  std::smatch match;
  if (!std::regex_search(output, match, std::regex(R"((^|\n)[\d,]+: ([\d,]+))"))) {
    return UINT64_MAX;
  }
  std::string digits = match[2];
  std::erase(digits, ',');
  return std::stoull(digits);
}

class MacrocellBgolly : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_bgolly()) GTEST_SKIP() << "bgolly (Debian package golly) is not installed";
  }

  // Our macrocell of `p`, loaded by Golly's HashLife and written by Golly
  // as macrocell, read back.
  Pattern through_golly(const Pattern& p, const std::string& name) {
    const std::string ours = dir_.file(name);
    const std::string theirs = dir_.file("golly-" + name);
    write_pattern_file(ours, p);
    const GollyRun run = bgolly(ours, theirs);
    EXPECT_EQ(run.status, 0) << run.output;
    EXPECT_EQ(population_printed(run.output), p.cells.population()) << run.output;
    return read_pattern_file(theirs);
  }

  ScratchDir dir_;
};

// Our RLE carries absolute positions and bgolly reads them; the macrocell
// bgolly writes must then put every cell back where it was. (Golly reads
// "#CXRLE Pos=" into 32-bit integers, so the far cells stay within them.)
TEST_F(MacrocellBgolly, ReaderPlacesCellsWhereGollyDoes) {
  Pattern p;
  p.cells = make_soup({200, 130, 0.4, 21}).translated(-777, 333);
  p.cells.set(-2'000'000'000, -17);
  p.cells.set(40'000, 2'000'000'001);
  p.generation = 1'000'000'000'000;
  const std::string rle = dir_.file("in.rle");
  const std::string mc = dir_.file("golly.mc");
  write_pattern_file(rle, p);
  const GollyRun run = bgolly(rle, mc);
  ASSERT_EQ(run.status, 0) << run.output;
  const Pattern back = read_pattern_file(mc);
  EXPECT_EQ(back.cells, p.cells);
  EXPECT_EQ(back.generation, p.generation);
}

TEST_F(MacrocellBgolly, GollyLoadsWhatWeWrite) {
  Pattern p;
  p.cells = make_soup({300, 300, 0.3, 8}).translated(-150, -2000);
  p.cells.set(987'654'321, -123'456'789);
  p.rule = parse_rule("B36/S23").rule;
  p.generation = 4321;
  for (const char* name : {"ours.mc", "ours.mc.gz"}) {
    const Pattern back = through_golly(p, name);
    EXPECT_EQ(back.cells, p.cells) << name;
    EXPECT_EQ(back.rule, p.rule) << name;
    EXPECT_EQ(back.generation, p.generation) << name;
  }
}

TEST_F(MacrocellBgolly, TorusKeepsItsPlace) {
  Pattern p;
  p.topology = Topology::torus(256, 128);
  p.cells = make_soup({256, 128, 0.25, 6});
  const Pattern back = through_golly(p, "torus.mc");
  EXPECT_EQ(back.topology, p.topology);
  EXPECT_EQ(back.cells, p.cells);
}

// Every file gol can run (all but the one-dimensional Wolfram rule): the
// same population as Golly, the same cells as Golly's RLE where that is
// small enough to compare, and the same cells and generation after a trip
// through Golly's HashLife as our macrocell.
TEST_F(MacrocellBgolly, HashLifeFolderReadsAsGollyReadsIt) {
  if (!std::filesystem::is_directory(kHashLifeFolder)) GTEST_SKIP() << kHashLifeFolder;
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kHashLifeFolder)) {
    const std::string path = entry.path().string();
    const std::string name = entry.path().filename().string();
    if (name.find(".mc") == std::string::npos) continue;
    SCOPED_TRACE(name);
    if (name == "wolfram22.mc") {
      EXPECT_THROW(read_pattern_file(path), InputError);
      continue;
    }
    const Pattern p = read_pattern_file(path);
    const GollyRun loaded = bgolly(path, dir_.file("golly.mc"));
    ASSERT_EQ(loaded.status, 0) << loaded.output;
    EXPECT_EQ(population_printed(loaded.output), p.cells.population());
    if (p.cells.population() <= kMaxRleCompared) {
      const GollyRun as_rle = bgolly(path, dir_.file("golly.rle"));
      ASSERT_EQ(as_rle.status, 0) << as_rle.output;
      EXPECT_EQ(read_pattern_file(dir_.file("golly.rle")).cells, normalized(p.cells));
    }
    const Pattern back = through_golly(p, "ours.mc");
    EXPECT_EQ(back.cells, p.cells);
    EXPECT_EQ(back.generation, p.generation);
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace gol::patterns
