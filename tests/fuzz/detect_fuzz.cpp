// libFuzzer target: format detection and whichever reader it picks, then
// the RLE round trip.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gol::fuzz::fuzz_reader(
      data, size, [](std::string_view text) { return gol::patterns::parse_pattern(text, "fuzz"); });
}
