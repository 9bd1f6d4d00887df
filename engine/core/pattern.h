// A pattern as read from or written to a file: cells plus what the file says
// about how to run them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/cell_set.h"
#include "engine/core/rule.h"

namespace gol {

struct Pattern {
  CellSet cells;
  std::optional<Rule> rule;          // absent: the file named none (B3/S23 applies)
  std::optional<Topology> topology;  // absent: the file named none (the plane applies)
  uint64_t generation = 0;           // from "#CXRLE Gen=" or macrocell "#G" where given
  std::string name;                  // "#N" line, catalogue name, or file name
  // "rle", "cells", "life1.05", "life1.06", "macrocell", "builtin", "soup"
  std::string format;
  std::vector<std::string> comments;
};

}  // namespace gol
