// Rule and topology parsing: the accepted notations and the refusals.
#include "engine/core/rule.h"

#include <gtest/gtest.h>

#include "engine/core/error.h"

namespace gol {
namespace {

TEST(RuleParse, AcceptsTheCommonNotations) {
  EXPECT_TRUE(parse_rule("B3/S23").rule.is_conway());
  EXPECT_TRUE(parse_rule("b3s23").rule.is_conway());
  EXPECT_TRUE(parse_rule("23/3").rule.is_conway());
  EXPECT_TRUE(parse_rule("S23/B3").rule.is_conway());
  EXPECT_TRUE(parse_rule("Life").rule.is_conway());
  EXPECT_TRUE(parse_rule("life:T64,64").topology.has_value());
  const Rule highlife = parse_rule("B36/S23").rule;
  EXPECT_TRUE(highlife.born(6));
  EXPECT_FALSE(highlife.survives(6));
  EXPECT_EQ(highlife.to_string(), "B36/S23");
}

TEST(RuleParse, EmptyDigitListsAreAllowed) {
  const Rule seeds = parse_rule("B2/S").rule;
  EXPECT_EQ(seeds.birth, 1u << 2);
  EXPECT_EQ(seeds.survival, 0u);
  EXPECT_EQ(seeds.to_string(), "B2/S");
}

TEST(RuleParse, ReadsGollyTorusSuffix) {
  const RuleSpec spec = parse_rule("B3/S23:T128,64");
  ASSERT_TRUE(spec.topology.has_value());
  EXPECT_EQ(spec.topology->width, 128);
  EXPECT_EQ(spec.topology->height, 64);
  EXPECT_EQ(spec.to_string(), "B3/S23:T128,64");
}

TEST(RuleParse, RefusesJunkWithItsColumn) {
  const auto message_of = [](const char* text) {
    try {
      parse_rule(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message_of("B39/S23").find("more than 8"), std::string::npos);
  EXPECT_NE(message_of("B3/S23x").find("column 7"), std::string::npos);
  EXPECT_NE(message_of("hello").find("rule 'hello'"), std::string::npos);
  EXPECT_NE(message_of("").find("empty rule"), std::string::npos);
  EXPECT_NE(message_of("B3/S23:T100,64").find("multiples of 64"), std::string::npos);
  EXPECT_NE(message_of("B3/S23:P64,64").find(":Tw,h"), std::string::npos);
}

TEST(RuleParse, NamesTheFamilyOfRulesItCannotRun) {
  const auto refusal = [](const char* text) {
    try {
      parse_rule(text, "x.rle");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const auto expect_family = [&](const char* text, const std::string& family) {
    const std::string message = refusal(text);
    EXPECT_NE(message.find(family + " rules are not supported"), std::string::npos)
        << text << ": " << message;
    EXPECT_NE(message.find(std::string("rule '") + text + "'"), std::string::npos) << message;
  };
  expect_family("23/3/3", "Generations");
  expect_family("B3/S23/G3", "Generations");
  expect_family("B2/S/C3", "Generations");
  expect_family("B2/S34H", "hexagonal-neighbourhood");
  expect_family("B3/S23V", "von Neumann-neighbourhood");
  expect_family("B2a/S12", "isotropic non-totalistic");
  expect_family("B3-q/S23", "isotropic non-totalistic");
  expect_family("R2,C0,M1,S2..3,B3..3,NM", "Larger than Life");
  expect_family("W22", "one-dimensional Wolfram");
  expect_family("WireWorld", "named (rule-table)");
  expect_family("LifeHistory", "named (rule-table)");
  expect_family("BriansBrain", "named (rule-table)");
  expect_family("B3/S23/G3:T64,64", "Generations");
  // Near misses of valid rules keep the column of the mistake.
  EXPECT_NE(refusal("B3/S23x").find("column 7"), std::string::npos);
  EXPECT_NE(refusal("B3S2x3").find("column 5"), std::string::npos);
  // Every letter a valid rule may use is still accepted.
  EXPECT_TRUE(parse_rule("BS23").rule.survives(3));
  EXPECT_TRUE(parse_rule("sb3").rule.born(3));
  EXPECT_TRUE(parse_rule("s23/b3").rule.is_conway());
}

TEST(Topology, TorusSidesMustBeMultiplesOf64) {
  EXPECT_NO_THROW(Topology::torus(64, 192));
  EXPECT_THROW(Topology::torus(100, 64), InputError);
  EXPECT_THROW(Topology::torus(0, 64), InputError);
  EXPECT_THROW(Topology::torus(-64, 64), InputError);
  EXPECT_THROW(Topology::torus(int64_t{1} << 40, int64_t{1} << 40), InputError);
  EXPECT_EQ(parse_torus_size("1024x512").to_string(), "torus 1024x512");
  EXPECT_THROW(parse_torus_size("1024"), InputError);
  EXPECT_THROW(parse_torus_size("12x-64"), InputError);
}

TEST(Topology, BirthOnZeroIsRefusedOnThePlaneOnly) {
  const Rule b0 = parse_rule("B0/S8").rule;
  EXPECT_THROW(check_rule_fits(b0, Topology::plane()), InputError);
  EXPECT_NO_THROW(check_rule_fits(b0, Topology::torus(64, 64)));
  EXPECT_NO_THROW(check_rule_fits(Rule::conway(), Topology::plane()));
}

}  // namespace
}  // namespace gol
