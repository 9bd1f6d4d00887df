// Life-like rules (B/S notation) and world topologies (plane or torus).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gol {

// Bit n of `birth` set: a dead cell with n live neighbours is born.
// Bit n of `survival` set: a live cell with n live neighbours survives.
struct Rule {
  uint16_t birth = 1u << 3;
  uint16_t survival = (1u << 2) | (1u << 3);

  static Rule conway() { return {}; }
  bool is_conway() const { return *this == conway(); }
  bool births_on_zero() const { return birth & 1u; }
  bool born(int neighbours) const { return (birth >> neighbours) & 1u; }
  bool survives(int neighbours) const { return (survival >> neighbours) & 1u; }
  // Canonical "B3/S23" form.
  std::string to_string() const;
  friend bool operator==(const Rule&, const Rule&) = default;
};

// Width and height in cells; a torus must have both multiples of 64.
struct Topology {
  enum class Kind { kPlane, kTorus };
  Kind kind = Kind::kPlane;
  int64_t width = 0;
  int64_t height = 0;

  static Topology plane() { return {}; }
  // Throws InputError unless both sides are positive multiples of 64 and
  // the area is at most kMaxTorusCells.
  static Topology torus(int64_t width, int64_t height);
  bool is_torus() const { return kind == Kind::kTorus; }
  // "plane" or "torus WxH".
  std::string to_string() const;
  friend bool operator==(const Topology&, const Topology&) = default;
};

// 2^36 cells (8 GiB of bits): larger tori are refused rather than allocated.
inline constexpr int64_t kMaxTorusCells = int64_t{1} << 36;

// A rule string as Golly writes it: the rule and an optional ":Tw,h" torus.
struct RuleSpec {
  Rule rule;
  std::optional<Topology> topology;
  // "B3/S23" or "B3/S23:T128,64".
  std::string to_string() const;
};

// Parses "B3/S23", "b3s23", "B3/S23:T64,64" and the legacy "23/3"
// (survival/birth) form, case-insensitively. Throws InputError naming
// `source` and the column of the offending character.
RuleSpec parse_rule(std::string_view text, std::string_view source = "rule");

// Parses "WxH" (as given to --torus). Throws InputError.
Topology parse_torus_size(std::string_view text, std::string_view source = "--torus");

// Throws InputError if `rule` cannot run on `topology` (B0 on the plane).
void check_rule_fits(const Rule& rule, const Topology& topology);

}  // namespace gol
