// The summary's numbers with SI prefixes: three significant digits, never
// negative zero or NaN, and a plain exponent beyond the last prefix; the
// bands of a run on several GPUs.
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
  EXPECT_EQ(si_number(999.7), "1 k");
  EXPECT_EQ(si_number(999.4e6), "999 M");
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

TEST(RunSummary, BandsOnGpusNameNcclAndTheBytesExchanged) {
  RunSummary summary;
  summary.halo_rows = 16;
  summary.band_transport = "NCCL";
  summary.ranks.push_back({0, 128, 5, 100, 3, 0.5, 0.25, 1, 24576});
  const std::string text = summary_text(summary);
  EXPECT_NE(text.find("NCCL         1 GPU: rows 0..127, halo 16 rows, 3 exchanges each, 0.250 s "
                      "the most a GPU spent exchanging"),
            std::string::npos)
      << text;
  const std::string json = summary_json(summary);
  EXPECT_NE(json.find("\"band_transport\":\"NCCL\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"bytes_exchanged\":24576"), std::string::npos) << json;
  summary.band_transport = "MPI";
  summary.ranks.push_back(summary.ranks.front());
  EXPECT_NE(summary_text(summary).find("MPI          2 ranks: rows"), std::string::npos);
  EXPECT_EQ(summary_json(summary).find("bytes_exchanged"), std::string::npos);
}

}  // namespace
}  // namespace gol::cli
