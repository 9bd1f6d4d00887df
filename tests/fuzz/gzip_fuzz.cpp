// libFuzzer target: gzip decompression feeding format detection and the
// readers, then the RLE round trip through gzip again. Inputs that are not
// gzip are compressed first, so the fuzzer reaches the readers through
// inflate as well as inflate's own error paths.
#include "patterns/gzip.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

gol::Pattern read_gzip(std::string_view compressed) {
  gol::patterns::MemorySource bytes(compressed);
  gol::patterns::GzipSource text(bytes, "fuzz.gz", gol::memory_budget());
  gol::patterns::TextReader in(text, "fuzz.gz");
  return gol::patterns::read_pattern(in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gol;
  return fuzz::fuzz_reader(data, size, [](std::string_view input) {
    const Pattern read =
        read_gzip(patterns::is_gzip(input) ? std::string(input) : patterns::gzip(input));
    fuzz::check_same(read, read_gzip(patterns::gzip(patterns::to_rle(read))));
    return read;
  });
}
