// Pieces shared by the RLE and macrocell writers: Golly's placement of a
// torus and comment lines.
#pragma once

#include <string>
#include <string_view>

#include "engine/core/cell_set.h"
#include "engine/core/rule.h"

namespace gol::patterns {

// Golly centres a bounded grid on the origin: a W-wide torus covers
// x in [-W/2, W/2). Ours covers [0, W), so the cells of the right and bottom
// halves move back by W and H.
CellSet to_golly_window(const CellSet& cells, const Topology& torus);

// Appends `text` as lines each starting with `prefix`, one per line of text.
void append_comment_lines(std::string& out, std::string_view prefix, std::string_view text);

}  // namespace gol::patterns
