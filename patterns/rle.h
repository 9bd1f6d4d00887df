// The RLE format as Golly reads and writes it (header, #CXRLE, comments).
#pragma once

#include <string_view>

#include "engine/core/pattern.h"

namespace gol::patterns {

// Parses RLE text. Throws InputError naming `source`, line and column.
Pattern parse_rle(std::string_view text, std::string_view source);

}  // namespace gol::patterns
