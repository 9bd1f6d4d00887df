// libFuzzer target: the macrocell reader, the RLE round trip, and the
// macrocell writer read back.
#include "patterns/macrocell.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gol;
  return fuzz::fuzz_reader(data, size, [](std::string_view text) {
    const Pattern read = patterns::parse_macrocell(text, "fuzz.mc");
    fuzz::check_same(read, patterns::parse_pattern(patterns::to_macrocell(read), "round-trip.mc"));
    return read;
  });
}
