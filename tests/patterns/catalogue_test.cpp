// The built-in catalogue: every entry parses, has the expected cell count,
// and unknown names are refused with the list of known ones.
#include "patterns/catalogue.h"

#include <gtest/gtest.h>

#include <map>

#include "engine/core/error.h"

namespace gol::patterns {
namespace {

TEST(Catalogue, HasTheRequiredNames) {
  const auto& names = builtin_names();
  for (const char* required : {"block", "blinker", "glider", "lwss", "r-pentomino", "acorn",
                               "diehard", "gosper-gun", "spacefiller", "switch-engine"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
  }
}

// Starting populations, counted from the standard drawings of each pattern.
TEST(Catalogue, InitialPopulations) {
  const std::map<std::string, uint64_t> expected = {
      {"block", 4},       {"beehive", 6},         {"blinker", 3},       {"toad", 6},
      {"pulsar", 48},     {"pentadecathlon", 12}, {"glider", 5},        {"lwss", 9},
      {"mwss", 11},       {"hwss", 13},           {"r-pentomino", 5},   {"diehard", 7},
      {"acorn", 7},       {"rabbits", 9},         {"bunnies", 9},       {"lidka-predecessor", 13},
      {"gosper-gun", 36}, {"switch-engine", 10},  {"spacefiller", 200}, {"puffer-train", 22},
      {"breeder", 4060},
  };
  ASSERT_EQ(expected.size(), builtin_names().size());
  for (const std::string& name : builtin_names()) {
    const Pattern p = builtin_pattern(name);
    ASSERT_TRUE(expected.count(name)) << name;
    EXPECT_EQ(p.cells.population(), expected.at(name)) << name;
    EXPECT_EQ(p.name, name);
    EXPECT_EQ(p.format, "builtin");
    EXPECT_FALSE(builtin_description(name).empty());
    const auto box = p.cells.bbox();
    ASSERT_TRUE(box.has_value());
    EXPECT_EQ(box->xmin, 0) << name;
    EXPECT_EQ(box->ymin, 0) << name;
  }
}

TEST(Catalogue, GliderShape) {
  const Pattern p = builtin_pattern("glider");
  const std::vector<Cell> cells = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  EXPECT_EQ(p.cells.cells(), cells);
}

TEST(Catalogue, UnknownNameListsKnownOnes) {
  try {
    builtin_pattern("no-such-thing");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("builtin:no-such-thing"), std::string::npos) << message;
    EXPECT_NE(message.find("gosper-gun"), std::string::npos) << message;
    EXPECT_EQ(e.code(), ExitCode::kInput);
  }
}

}  // namespace
}  // namespace gol::patterns
