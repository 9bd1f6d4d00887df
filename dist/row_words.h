// Rows of a torus as plain bit-packed words (row-major, width / 64 words a
// row, bit i of word w is cell 64w + i): the form bands travel in between
// ranks, converted to and from the tiles of a CellSet. All row ranges start
// and end on tile boundaries.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/cell_set.h"

namespace gol::dist {

// The rows [first_row, first_row + rows) of `cells`, `width` cells wide.
std::vector<uint64_t> pack_rows(const CellSet& cells, int64_t width, int64_t first_row,
                                int64_t rows);

// The cells of `words` (rows of `width` cells), placed with their first row
// at `first_row`.
CellSet unpack_rows(const std::vector<uint64_t>& words, int64_t width, int64_t first_row);

// Adds the non-empty tiles of `words` (`rows` rows, the first at
// `first_row`) to `tiles`, which must hold only tiles above `first_row`:
// appending in order keeps building millions of tiles fast.
void append_rows(CellSet::TileMap& tiles, const uint64_t* words, int64_t width, int64_t first_row,
                 int64_t rows);

}  // namespace gol::dist
