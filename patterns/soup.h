// Seeded random soups ("soup:WxH[:DENSITY[:SEED]]"), identical on every
// machine: each 64x64 tile draws from its own xoshiro256** stream seeded
// from (seed, tx, ty), so the result never depends on iteration order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/cell_set.h"

namespace gol::patterns {

struct SoupSpec {
  int64_t width;
  int64_t height;
  double density = 0.5;
  uint64_t seed = 1;
};

// Parses the part after "soup:", e.g. "2048x2048:0.35:7". Throws InputError
// on junk, non-positive sizes, densities outside (0, 1], and sizes whose
// tiles would not fit the memory budget (checked before any is made).
SoupSpec parse_soup_spec(std::string_view spec);

// Canonical name, e.g. "soup:2048x2048:0.5:1".
std::string soup_name(const SoupSpec& spec);

// Live cells in [0, width) x [0, height). Densities are exact to 1/65536
// (rounded to the nearest step, at least one step).
CellSet make_soup(const SoupSpec& spec);

}  // namespace gol::patterns
