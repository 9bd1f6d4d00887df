// The shared body of the line-oriented readers' libFuzzer targets (.cells,
// Life 1.05, Life 1.06): one reader over the input through a TextReader,
// then the RLE round trip.
#pragma once

#include "patterns/text_formats.h"
#include "tests/fuzz/fuzz_support.h"

namespace gol::fuzz {

template <typename Read>
int fuzz_text_format(const uint8_t* data, size_t size, Read read) {
  return fuzz_reader(data, size, [&](std::string_view text) {
    patterns::MemorySource bytes(text);
    patterns::TextReader in(bytes, "fuzz");
    return read(in);
  });
}

}  // namespace gol::fuzz
