// The RLE format as Golly reads and writes it (header, #CXRLE, comments).
#pragma once

#include <string_view>

#include "engine/core/pattern.h"
#include "patterns/text_input.h"

namespace gol::patterns {

// Reads RLE from `in` a byte at a time: memory grows with the live cells
// and the comments kept, never with the length of the text or a number in
// it. Throws InputError naming the source, line and column.
Pattern read_rle(TextReader& in);

// read_rle over text in memory (the built-in catalogue).
Pattern parse_rle(std::string_view text, std::string_view source);

}  // namespace gol::patterns
