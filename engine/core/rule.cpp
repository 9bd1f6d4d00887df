// Rule and topology parsing and formatting.
#include "engine/core/rule.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "engine/core/error.h"

namespace gol {
namespace {

std::string digits_of(uint16_t mask) {
  std::string out;
  for (int n = 0; n <= 8; ++n) {
    if ((mask >> n) & 1u) out += static_cast<char>('0' + n);
  }
  return out;
}

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

bool equals_ignoring_case(std::string_view text, std::string_view lower_case) {
  return std::equal(
      text.begin(), text.end(), lower_case.begin(), lower_case.end(),
      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

// The family of a rule gol cannot run, told from its notation, so the
// message names it ("Generations rules are not supported") instead of a
// character the parser tripped on. nullptr for anything else, including
// every valid B/S rule (those use only B, S, digits and one '/').
const char* unsupported_family(std::string_view part) {
  std::string text(part);
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool totalistic_start = text[0] == 'b' || text[0] == 's' || is_digit(text[0]);
  // Golly's R2,C0,M1,S2..3,B3..3,NM.
  if (text.size() > 1 && text[0] == 'r' && is_digit(text[1]) && text.find(',') != text.npos) {
    return "Larger than Life";
  }
  // Golly's one-dimensional W22, W110.
  if (text.size() > 1 && text[0] == 'w' && is_digit(text[1])) return "one-dimensional Wolfram";
  // 23/3/3 and B3/S23/G3 (or /C3): a third part counts the dying states.
  if (std::count(text.begin(), text.end(), '/') >= 2) return "Generations";
  // WireWorld, LifeHistory, BriansBrain: Golly's rule tables and named
  // rules (a word, where B/S rules have a count or the other letter next).
  const bool word = text.size() > 1 && is_letter(text[1]) && text[1] != 'b' && text[1] != 's';
  if (is_letter(text[0]) && (!totalistic_start || word)) return "named (rule-table)";
  if (totalistic_start && text.back() == 'h') return "hexagonal-neighbourhood";
  if (totalistic_start && text.back() == 'v') return "von Neumann-neighbourhood";
  // Hensel's letters after a count, as in B2a/S12 or B3-q/S23.
  if (totalistic_start && text.find_first_of("aceijknqrtwyz-", 1) != text.npos) {
    return "isotropic non-totalistic";
  }
  return nullptr;
}

class RuleParser {
 public:
  RuleParser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  RuleSpec parse() {
    RuleSpec spec;
    const size_t colon = text_.find(':');
    const std::string_view rule_part = text_.substr(0, colon);
    if (rule_part.empty()) fail(1, "empty rule (expected e.g. B3/S23)");
    spec.rule = read_rule(rule_part);
    if (colon != std::string_view::npos) spec.topology = parse_topology_suffix(colon + 1);
    return spec;
  }

 private:
  [[noreturn]] void fail(size_t column, const std::string& what) const {
    throw InputError(
        source_, 0, 0,
        "column " + std::to_string(column) + " of rule '" + std::string(text_) + "': " + what);
  }

  static char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }

  Rule read_rule(std::string_view part) const {
    // The name pattern collections (LifeWiki, LifeViewer) give B3/S23.
    if (equals_ignoring_case(part, "life")) return Rule::conway();
    if (const char* family = unsupported_family(part)) {
      throw InputError(source_, 0, 0,
                       "rule '" + std::string(text_) + "': " + family +
                           " rules are not supported: gol runs two-state B.../S... rules only");
    }
    return parse_rule_part(part);
  }

  // Reads neighbour-count digits from `pos` into `mask` until a non-digit.
  size_t read_digits(std::string_view part, size_t pos, uint16_t& mask) const {
    while (pos < part.size() && std::isdigit(static_cast<unsigned char>(part[pos]))) {
      const int n = part[pos] - '0';
      if (n > 8) fail(pos + 1, "neighbour count " + std::to_string(n) + " is more than 8");
      mask = static_cast<uint16_t>(mask | (1u << n));
      ++pos;
    }
    return pos;
  }

  Rule parse_rule_part(std::string_view part) const {
    Rule rule{0, 0};
    if (lower(part[0]) == 'b') {
      size_t pos = read_digits(part, 1, rule.birth);
      if (pos < part.size() && part[pos] == '/') ++pos;
      if (pos >= part.size() || lower(part[pos]) != 's') {
        fail(pos + 1, "expected 'S' after the birth digits (as in B3/S23)");
      }
      pos = read_digits(part, pos + 1, rule.survival);
      if (pos != part.size())
        fail(pos + 1, "unexpected character '" + std::string(1, part[pos]) + "'");
      return rule;
    }
    if (lower(part[0]) == 's') {  // "S23/B3" is also seen in the wild
      size_t pos = read_digits(part, 1, rule.survival);
      if (pos < part.size() && part[pos] == '/') ++pos;
      if (pos >= part.size() || lower(part[pos]) != 'b') {
        fail(pos + 1, "expected 'B' after the survival digits (as in S23/B3)");
      }
      pos = read_digits(part, pos + 1, rule.birth);
      if (pos != part.size())
        fail(pos + 1, "unexpected character '" + std::string(1, part[pos]) + "'");
      return rule;
    }
    // Legacy "survival/birth", e.g. 23/3.
    size_t pos = read_digits(part, 0, rule.survival);
    if (pos >= part.size() || part[pos] != '/') {
      fail(pos + 1, "expected B.../S... or survival/birth digits such as 23/3");
    }
    pos = read_digits(part, pos + 1, rule.birth);
    if (pos != part.size())
      fail(pos + 1, "unexpected character '" + std::string(1, part[pos]) + "'");
    return rule;
  }

  int64_t read_size(size_t& pos) const {
    const size_t start = pos;
    while (pos < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos]))) ++pos;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text_.data() + start, text_.data() + pos, value);
    if (start == pos || ec != std::errc() || end != text_.data() + pos) {
      fail(start + 1, "expected a torus size in cells");
    }
    return value;
  }

  Topology parse_topology_suffix(size_t pos) const {
    if (pos >= text_.size() || lower(text_[pos]) != 't') {
      fail(pos + 1, "only the torus suffix :Tw,h is supported");
    }
    ++pos;
    const int64_t width = read_size(pos);
    if (pos >= text_.size() || text_[pos] != ',') fail(pos + 1, "expected ',' in :Tw,h");
    ++pos;
    const int64_t height = read_size(pos);
    if (pos != text_.size()) fail(pos + 1, "unexpected text after :Tw,h");
    try {
      return Topology::torus(width, height);
    } catch (const InputError& e) {
      throw InputError(source_, 0, 0, e.what());
    }
  }

  std::string_view text_;
  std::string_view source_;
};

}  // namespace

std::string Rule::to_string() const {
  // Appended piece by piece: GCC 12 raises a false -Wrestrict on "B" + string.
  std::string out("B");
  out.append(digits_of(birth)).append("/S").append(digits_of(survival));
  return out;
}

Topology Topology::torus(int64_t width, int64_t height) {
  if (width <= 0 || height <= 0 || width % 64 != 0 || height % 64 != 0) {
    throw InputError("torus size " + std::to_string(width) + "x" + std::to_string(height) +
                     " is not supported: width and height must be positive multiples of 64");
  }
  if (width > kMaxTorusCells / height) {
    throw InputError("torus size " + std::to_string(width) + "x" + std::to_string(height) +
                     " is too large (at most 2^36 cells)");
  }
  return {Kind::kTorus, width, height};
}

std::string Topology::to_string() const {
  if (!is_torus()) return "plane";
  return "torus " + std::to_string(width) + "x" + std::to_string(height);
}

std::string RuleSpec::to_string() const {
  std::string out = rule.to_string();
  if (topology && topology->is_torus()) {
    out += ":T" + std::to_string(topology->width) + "," + std::to_string(topology->height);
  }
  return out;
}

RuleSpec parse_rule(std::string_view text, std::string_view source) {
  return RuleParser(text, source).parse();
}

Topology parse_torus_size(std::string_view text, std::string_view source) {
  const size_t x = text.find_first_of("xX");
  int64_t width = 0;
  int64_t height = 0;
  const auto parse_side = [&](std::string_view side, int64_t& value) {
    const auto [end, ec] = std::from_chars(side.data(), side.data() + side.size(), value);
    return !side.empty() && ec == std::errc() && end == side.data() + side.size();
  };
  if (x == std::string_view::npos || !parse_side(text.substr(0, x), width) ||
      !parse_side(text.substr(x + 1), height)) {
    throw InputError(source, 0, 0,
                     "expected a torus size WxH such as 1024x512, got '" + std::string(text) + "'");
  }
  try {
    return Topology::torus(width, height);
  } catch (const InputError& e) {
    throw InputError(source, 0, 0, e.what());
  }
}

void check_rule_fits(const Rule& rule, const Topology& topology) {
  if (rule.births_on_zero() && !topology.is_torus()) {
    throw InputError("rule " + rule.to_string() +
                     " has B0 (empty cells are born), which cannot run on the unbounded plane;"
                     " use a torus (--torus WxH)");
  }
}

}  // namespace gol
