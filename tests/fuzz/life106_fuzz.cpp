// libFuzzer target: the Life 1.06 reader (with or without its header) and
// the RLE round trip.
#include "tests/fuzz/text_formats_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gol::fuzz::fuzz_text_format(data, size, gol::patterns::read_life106);
}
