// RLE reader: "#" comment lines, the "x = , y = , rule =" header, then runs
// of b/o/$ ended by '!'. Every count and coordinate uses checked arithmetic
// and cells go through a tile-bounded sink, so no number in the file decides
// how much memory is allocated.
#include <string>

#include "engine/core/error.h"
#include "engine/core/rule.h"
#include "patterns/rle.h"
#include "patterns/text_input.h"

namespace gol::patterns {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Cursor positions may sit one past INT64_MAX after a run that ends on the
// last representable cell, so they are kept in 128 bits.
__extension__ using Wide = __int128;
constexpr Wide kMinCoordinate = INT64_MIN;
constexpr Wide kMaxCoordinate = INT64_MAX;

class RleReader {
 public:
  RleReader(std::string_view text, std::string_view source, size_t max_tiles)
      : lines_(text, source),
        source_(source),
        sink_(pattern_.cells, max_tiles),
        max_tiles_(max_tiles) {}

  Pattern read() {
    pattern_.format = "rle";
    TextLine line;
    bool finished = false;
    while (!finished && lines_.next(line)) {
      if (!in_body_) {
        const std::string_view text = trim(line.text);
        if (text.empty()) continue;
        if (text.front() == '#') {
          read_comment(line);
          continue;
        }
        in_body_ = true;
        if (text.front() == 'x') {
          read_header(line);
          continue;
        }
      }
      finished = read_body_line(line);
    }
    if (!finished) fail_truncated();
    if (pattern_.topology) {
      pattern_.cells = pattern_.cells.wrapped(pattern_.topology->width, pattern_.topology->height);
    }
    pattern_.cells.prune_empty();
    return std::move(pattern_);
  }

 private:
  [[noreturn]] void fail(const TextLine& line, size_t index, std::string_view what) const {
    fail_at(source_, line, index, what);
  }

  [[noreturn]] void fail_truncated() const {
    const TextLine& end = lines_.last();
    if (end.number == 0) throw InputError(source_, 0, 0, "empty file: no RLE pattern data");
    const std::string what =
        !in_body_ ? "no RLE pattern data after the header and comments"
                  : "truncated RLE: the pattern data ends without the '!' terminator";
    fail_at(source_, end, end.text.size(), what);
  }

  void read_comment(const TextLine& line) {
    const size_t hash = line.text.find('#');
    const std::string_view body = line.text.substr(hash + 1);
    if (body.substr(0, 5) == "CXRLE") {
      read_cxrle(line, hash + 6);
    } else if (!body.empty() && body.front() == 'N') {
      pattern_.name = std::string(trim(body.substr(1)));
    } else if (!body.empty() && (body.front() == 'C' || body.front() == 'c')) {
      pattern_.comments.emplace_back(trim(body.substr(1)));
    } else if (!body.empty() && body.front() == 'O') {
      pattern_.comments.push_back("Author: " + std::string(trim(body.substr(1))));
    } else if (!body.empty() && body.front() == 'r') {
      const std::string_view rule = trim(body.substr(1));
      set_rule(line, line.text.find(rule.empty() ? body : rule), rule);
    } else {
      pattern_.comments.emplace_back(trim(body));
    }
  }

  // "#CXRLE Pos=x,y Gen=g": the absolute position of the pattern's top-left
  // corner and its generation.
  void read_cxrle(const TextLine& line, size_t pos) {
    const std::string_view text = line.text;
    while (true) {
      while (pos < text.size() && is_blank(text[pos])) ++pos;
      if (pos >= text.size()) return;
      const size_t key_start = pos;
      while (pos < text.size() && text[pos] != '=' && !is_blank(text[pos])) ++pos;
      const std::string_view key = text.substr(key_start, pos - key_start);
      if (pos >= text.size() || text[pos] != '=') {
        fail(line, pos, "expected '=' after '" + std::string(key) + "' in #CXRLE line");
      }
      ++pos;
      if (key == "Pos") {
        x_origin_ = parse_int64_at(source_, line, pos, "x position");
        if (pos >= text.size() || text[pos] != ',') fail(line, pos, "expected ',' in Pos=x,y");
        ++pos;
        y_origin_ = parse_int64_at(source_, line, pos, "y position");
      } else if (key == "Gen") {
        const size_t gen_start = pos;
        const int64_t gen = parse_int64_at(source_, line, pos, "generation");
        if (gen < 0) fail(line, gen_start, "negative generation in #CXRLE Gen=");
        pattern_.generation = static_cast<uint64_t>(gen);
      } else {
        while (pos < text.size() && !is_blank(text[pos])) ++pos;  // unknown keys are Golly's
      }
    }
  }

  void set_rule(const TextLine& line, size_t column, std::string_view rule_text) {
    try {
      const RuleSpec spec = parse_rule(rule_text, "");
      pattern_.rule = spec.rule;
      if (spec.topology) pattern_.topology = spec.topology;
    } catch (const InputError& e) {
      fail(line, column, e.what());
    }
  }

  // "x = 3, y = 3, rule = B3/S23". The sizes are checked but never used to
  // allocate: Golly ignores them too.
  void read_header(const TextLine& line) {
    const std::string_view text = line.text;
    size_t pos = 0;
    bool have_x = false;
    bool have_y = false;
    while (pos < text.size()) {
      while (pos < text.size() && is_blank(text[pos])) ++pos;
      const size_t key_start = pos;
      while (pos < text.size() && text[pos] != '=' && text[pos] != ',' && !is_blank(text[pos])) {
        ++pos;
      }
      const std::string_view key = text.substr(key_start, pos - key_start);
      while (pos < text.size() && is_blank(text[pos])) ++pos;
      if (key.empty() || pos >= text.size() || text[pos] != '=') {
        fail(line, pos, "malformed RLE header: expected 'key = value' as in 'x = 3, y = 3'");
      }
      ++pos;
      while (pos < text.size() && is_blank(text[pos])) ++pos;
      if (key == "x" || key == "y") {
        const size_t value_start = pos;
        const int64_t size = parse_int64_at(source_, line, pos, "pattern size");
        if (size < 0) fail(line, value_start, "negative pattern size in RLE header");
        (key == "x" ? have_x : have_y) = true;
      } else if (key == "rule") {
        // The value runs to the next blank, as Golly reads it: ":Tw,h" has a comma.
        const size_t value_start = pos;
        while (pos < text.size() && !is_blank(text[pos])) ++pos;
        size_t value_end = pos;
        if (value_end > value_start && text[value_end - 1] == ',') pos = --value_end;
        set_rule(line, value_start, text.substr(value_start, value_end - value_start));
      } else {
        while (pos < text.size() && text[pos] != ',') ++pos;  // other keys are ignored
      }
      while (pos < text.size() && is_blank(text[pos])) ++pos;
      if (pos < text.size()) {
        if (text[pos] != ',') fail(line, pos, "expected ',' between RLE header fields");
        ++pos;
      }
    }
    if (!have_x || !have_y) fail(line, 0, "RLE header must give both x and y");
  }

  // Returns true at the '!' terminator.
  bool read_body_line(const TextLine& line) {
    const std::string_view text = line.text;
    if (!text.empty() && text.front() == '#') {
      pattern_.comments.emplace_back(trim(text.substr(1)));
      return false;
    }
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (is_digit(c)) {
        add_digit(line, i, c);
        continue;
      }
      if (is_blank(c)) continue;
      if (c == '!') {
        if (count_start_ != kNoCount)
          fail(count_line_, count_start_, "run count before '!' has no cell");
        return true;
      }
      const int64_t count = take_count();
      switch (c) {
        case 'b':
        case '.':
          advance(x_, x_origin_, count, line, i, "x coordinate");
          break;
        case 'o':
        case 'A':
          add_live_run(line, i, count);
          break;
        case '$':
          advance(y_, y_origin_, count, line, i, "y coordinate");
          x_ = 0;
          break;
        default:
          fail_unknown(line, i, c);
      }
    }
    return false;
  }

  [[noreturn]] void fail_unknown(const TextLine& line, size_t i, char c) const {
    if ((c >= 'B' && c <= 'X') || (c >= 'p' && c <= 'y')) {
      fail(line, i,
           "multi-state cell " + describe_char(c) +
               " is not supported: only two-state (b/o) patterns can be loaded");
    }
    fail(line, i, "unexpected character " + describe_char(c) + " in RLE pattern data");
  }

  void add_digit(const TextLine& line, size_t i, char c) {
    if (count_start_ == kNoCount) {
      count_start_ = i;
      count_line_ = line;
      count_ = 0;
    }
    if (__builtin_mul_overflow(count_, 10, &count_) ||
        __builtin_add_overflow(count_, c - '0', &count_)) {
      fail(count_line_, count_start_, "run count overflows a 64-bit integer");
    }
  }

  int64_t take_count() {
    if (count_start_ == kNoCount) return 1;
    count_start_ = kNoCount;
    return count_;
  }

  void advance(Wide& coordinate, Wide origin, int64_t count, const TextLine& line, size_t i,
               std::string_view what) {
    coordinate += count;
    if (origin + coordinate > kMaxCoordinate + 1) {
      fail(line, i, std::string(what) + " overflows a 64-bit integer");
    }
  }

  void add_live_run(const TextLine& line, size_t i, int64_t count) {
    if (count == 0) return;
    const Wide x = Wide{x_origin_} + x_;
    const Wide y = Wide{y_origin_} + y_;
    if (y > kMaxCoordinate || x + count - 1 > kMaxCoordinate || x < kMinCoordinate) {
      fail(line, i, "cell coordinates overflow a 64-bit integer");
    }
    if (!sink_.add_run(static_cast<int64_t>(x), static_cast<int64_t>(y), count)) {
      fail(line, i, too_many_tiles_message(max_tiles_));
    }
    x_ += count;
  }

  static constexpr size_t kNoCount = static_cast<size_t>(-1);

  LineCursor lines_;
  std::string_view source_;
  Pattern pattern_;
  CellSink sink_;
  size_t max_tiles_;
  bool in_body_ = false;
  int64_t x_origin_ = 0;
  int64_t y_origin_ = 0;
  Wide x_ = 0;  // cursor relative to the #CXRLE position
  Wide y_ = 0;
  int64_t count_ = 0;
  size_t count_start_ = kNoCount;
  TextLine count_line_;
};

}  // namespace

Pattern parse_rle(std::string_view text, std::string_view source, size_t max_tiles) {
  return RleReader(text, source, max_tiles).read();
}

}  // namespace gol::patterns
