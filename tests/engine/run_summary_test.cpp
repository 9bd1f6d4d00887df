// The summary's numbers with SI prefixes: three significant digits, never
// negative zero or NaN, and a plain exponent beyond the last prefix.
#include "engine/cli/run_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gol::cli {
namespace {

TEST(SiNumber, ThreeDigitsWithThePrefix) {
  EXPECT_EQ(si_number(0), "0 ");
  EXPECT_EQ(si_number(999), "999 ");
  EXPECT_EQ(si_number(1234), "1.23 k");
  EXPECT_EQ(si_number(4.51e6), "4.51 M");
  EXPECT_EQ(si_number(2.06e24), "2.06 Y");
}

TEST(SiNumber, NothingNegativeOrUndefined) {
  EXPECT_EQ(si_number(-0.0), "0 ");
  EXPECT_EQ(si_number(-5), "0 ");
  EXPECT_EQ(si_number(std::nan("")), "0 ");
  EXPECT_EQ(si_number(std::numeric_limits<double>::infinity()), "0 ");
}

TEST(SiNumber, BeyondYottaAPlainExponent) {
  EXPECT_EQ(si_number(2.06e43), "2.06e+43 ");
  EXPECT_EQ(si_number(999.7e24), "1e+27 ");
}

}  // namespace
}  // namespace gol::cli
