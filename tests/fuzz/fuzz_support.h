// What every pattern fuzz target checks: input a reader accepts is written
// back as RLE (or .cells) and read again, and must come back as the same
// cells, rule, topology and generation. Readers may refuse input only with
// gol::InputError; any other exception escapes to libFuzzer as a crash, as
// does a round trip that differs (checked with GOL_CHECK, which aborts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "engine/core/pattern.h"
#include "patterns/pattern_io.h"

namespace gol::fuzz {

// Small, so inputs that would be refused on a real budget are refused here
// quickly too, and each run stays far below libFuzzer's RSS limit.
inline constexpr uint64_t kFuzzBudget = uint64_t{16} << 20;

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Same cells, rule, topology and generation; what a file leaves out reads
// as the default the engine applies (B3/S23, the plane).
inline void check_same(const Pattern& a, const Pattern& b) {
  GOL_CHECK(a.cells == b.cells);
  GOL_CHECK(a.rule.value_or(Rule::conway()) == b.rule.value_or(Rule::conway()));
  GOL_CHECK(a.topology.value_or(Topology::plane()) == b.topology.value_or(Topology::plane()));
  GOL_CHECK(a.generation == b.generation);
}

// Writes `read` as RLE and reads it back: gol must read what it writes.
inline void check_rle_round_trip(const Pattern& read) {
  check_same(read, patterns::parse_pattern(patterns::to_rle(read), "round-trip.rle"));
}

// Runs `reader` on the input; a refusal as InputError ends the run, and
// what is accepted must survive the RLE round trip.
template <typename Reader>
int fuzz_reader(const uint8_t* data, size_t size, Reader reader) {
  set_memory_budget(kFuzzBudget);
  Pattern read;
  try {
    read = reader(as_text(data, size));
  } catch (const InputError&) {
    return 0;
  }
  check_rle_round_trip(read);
  return 0;
}

}  // namespace gol::fuzz
