// Readers for the line-oriented formats: plaintext (.cells), Life 1.05 and
// Life 1.06, read a byte at a time from a TextReader so memory follows the
// live cells, not the text. Each throws InputError naming the source, line
// and column.
#pragma once

#include "engine/core/pattern.h"
#include "patterns/text_input.h"

namespace gol::patterns {

// "!" comment lines ("!Name: ..." names the pattern), then rows of '.' for
// dead and 'O' or '*' for live cells. Each line before the reader's
// position is a row: blank lines skipped while detecting the format count.
Pattern read_cells(TextReader& in);

// "#Life 1.05" with "#D" descriptions, "#N" (Conway's rule), "#R" rules and
// "#P x y" blocks of '.' and '*' rows. A bare "#P", as in Golly, starts the
// next block where the previous one ended: same left edge, the next row.
Pattern read_life105(TextReader& in);

// "#Life 1.06" (optional) followed by one "x y" pair per live cell.
Pattern read_life106(TextReader& in);

}  // namespace gol::patterns
