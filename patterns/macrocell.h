// Golly's macrocell format (".mc"): a pattern as a quadtree of shared nodes,
// which is how Golly stores patterns far too large for RLE.
//
// The file is "[M2] (...)", then "#" lines ("#R rule", "#G generation",
// "#C comment"), then one node a line, numbered from 1 in order (0 is the
// empty node of any level):
//   - a leaf: an 8x8 block (level 3) in rows of '.' (dead) and '*' (live),
//     each row ended by '$'; trailing dead cells and rows are left out;
//   - "L nw ne sw se": a node of level L (2^L cells a side) whose quadrants
//     are earlier nodes of level L - 1; at level 1 they are cell states.
// The last node line is the root. Golly centres it: a root of level L has
// its top-left cell at (-2^(L-1), 1 - 2^(L-1)), since Golly's y axis points
// up and ours down.
#pragma once

#include <string>
#include <string_view>

#include "engine/core/pattern.h"
#include "patterns/text_input.h"

namespace gol::patterns {

// Reads macrocell for two-state rules a line at a time. Throws InputError
// naming the source, line and column; a pattern whose tiles would not fit
// the memory budget (engine/core/memory_budget.h) is refused, naming its
// size, before any tile is allocated.
Pattern read_macrocell(TextReader& in);
// read_macrocell over text in memory.
Pattern parse_macrocell(std::string_view text, std::string_view source);

// Macrocell text Golly's HashLife loads as the same cells, rule (with the
// torus as ":Tw,h") and generation.
std::string to_macrocell(const Pattern& p);

}  // namespace gol::patterns
