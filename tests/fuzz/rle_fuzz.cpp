// libFuzzer target: the RLE reader, and RLE written back and read again.
#include "patterns/rle.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gol::fuzz::fuzz_reader(
      data, size, [](std::string_view text) { return gol::patterns::parse_rle(text, "fuzz.rle"); });
}
