// The RLE format as Golly reads and writes it (header, #CXRLE, comments).
#pragma once

#include <string_view>

#include "engine/core/pattern.h"
#include "patterns/text_input.h"

namespace gol::patterns {

// Parses RLE text. Throws InputError naming `source`, line and column, also
// when the cells would occupy more than `max_tiles` 64x64 tiles.
Pattern parse_rle(std::string_view text, std::string_view source,
                  size_t max_tiles = kMaxPatternTiles);

}  // namespace gol::patterns
