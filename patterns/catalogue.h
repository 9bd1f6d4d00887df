// Built-in patterns, loadable as "builtin:NAME": classic small patterns,
// methuselahs for known-result tests, and growing patterns for long runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/core/pattern.h"

namespace gol::patterns {

// The catalogue's names, in catalogue order.
const std::vector<std::string>& builtin_names();

// The named pattern (top-left of its bounding box at 0,0; format "builtin").
// Unknown names throw InputError listing the known ones.
Pattern builtin_pattern(std::string_view name);

// A one-line description of a catalogue entry (for "gol info" and docs).
std::string_view builtin_description(std::string_view name);

}  // namespace gol::patterns
