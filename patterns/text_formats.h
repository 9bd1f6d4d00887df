// Readers for the line-oriented formats: plaintext (.cells), Life 1.05 and
// Life 1.06. Each throws InputError naming `source`, line and column.
#pragma once

#include <string_view>

#include "engine/core/pattern.h"

namespace gol::patterns {

// "!" comment lines ("!Name: ..." names the pattern), then rows of '.' for
// dead and 'O' or '*' for live cells; row 0 is the first row.
Pattern parse_cells(std::string_view text, std::string_view source);

// "#Life 1.05" with "#D" descriptions, "#N" (Conway's rule), "#R" rules and
// "#P x y" blocks of '.' and '*' rows. A bare "#P", as in Golly, starts the
// next block where the previous one ended: same left edge, the next row.
Pattern parse_life105(std::string_view text, std::string_view source);

// "#Life 1.06" followed by one "x y" pair per live cell.
Pattern parse_life106(std::string_view text, std::string_view source);

}  // namespace gol::patterns
