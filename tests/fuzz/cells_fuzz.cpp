// libFuzzer target: the plaintext (.cells) reader, the RLE round trip, and
// the .cells writer read back (the format has no origin, so the cells are
// compared from their bounding box's corner).
#include "tests/fuzz/text_formats_fuzz.h"

namespace {

gol::CellSet from_corner(const gol::CellSet& cells) {
  const auto box = cells.bbox();
  return box ? cells.translated(-box->xmin, -box->ymin) : cells;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gol;
  fuzz::fuzz_text_format(data, size, [](patterns::TextReader& in) {
    const Pattern read = patterns::read_cells(in);
    std::string text;
    try {
      text = patterns::to_cells(read);
    } catch (const RuntimeError&) {
      return read;  // over the budget: refusing to write it is allowed
    }
    const Pattern again = patterns::parse_pattern(text, "round-trip.cells");
    GOL_CHECK(from_corner(again.cells) == from_corner(read.cells));
    return read;
  });
  return 0;
}
