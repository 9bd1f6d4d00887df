// RLE reader: "#" comment lines, the "x = , y = , rule =" header, then runs
// of b/o/$ ended by '!', read a byte at a time. Counts follow Golly: a blank
// ends a count ("1 2o" is two cells), a count may continue on the next line,
// and 0 counts as 1. Every count and position is checked in wide arithmetic
// and cells go through the budgeted sink, so no number in the file decides
// how much memory is allocated.
#include <cstdint>
#include <string>

#include "engine/core/error.h"
#include "engine/core/rule.h"
#include "patterns/rle.h"
#include "patterns/text_input.h"

namespace gol::patterns {
namespace {

bool is_digit(int c) { return c >= '0' && c <= '9'; }

class RleReader {
 public:
  explicit RleReader(TextReader& in) : in_(in), sink_(pattern_.cells, in) {}

  Pattern read() {
    pattern_.format = "rle";
    read_preamble();
    read_body();
    if (pattern_.topology) {
      pattern_.cells = pattern_.cells.wrapped(pattern_.topology->width, pattern_.topology->height);
    }
    pattern_.cells.prune_empty();
    return std::move(pattern_);
  }

 private:
  [[noreturn]] void fail(const TextLine& line, size_t index, std::string_view what) const {
    fail_at(in_.source(), line, index, what);
  }

  [[noreturn]] void fail_at_end(std::string_view what) const {
    if (!seen_text_) throw InputError(in_.source(), 0, 0, "empty file: no RLE pattern data");
    in_.fail_at(in_.end_line(), in_.end_column(), what);
  }

  // Skips the blanks that start a line; the column of the first other byte.
  int64_t skip_blanks() {
    while (in_.peek() != TextReader::kEnd && is_blank(static_cast<char>(in_.peek()))) in_.get();
    return in_.column();
  }

  // The rest of the line from here, read whole, as a TextLine whose
  // columns count from `column`.
  TextLine read_rest(std::string& buffer, bool keep) {
    TextLine line{{}, in_.line(), in_.column()};
    buffer.clear();
    in_.read_line(buffer, keep);
    line.text = buffer;
    return line;
  }

  // Comment lines and the header, up to the first byte of pattern data.
  void read_preamble() {
    std::string buffer;
    while (true) {
      skip_blanks();
      const int c = in_.peek();
      if (c == TextReader::kEnd) {
        fail_at_end(seen_text_ ? "no RLE pattern data after the header and comments"
                               : "empty file: no RLE pattern data");
      }
      if (c == '\n') {
        in_.get();
        continue;
      }
      seen_text_ = true;
      if (c == '#') {
        read_comment(read_rest(buffer, false));
        continue;
      }
      if (c == 'x') read_header(read_rest(buffer, false));
      return;
    }
  }

  void keep_comment(std::string_view text, const TextLine& line) {
    in_.charge(comment_bytes(text.size()), "comment lines", line.number, line.first_column);
    pattern_.comments.emplace_back(text);
  }

  void read_comment(const TextLine& line) {
    const std::string_view body = line.text.substr(1);
    if (body.substr(0, 5) == "CXRLE") {
      read_cxrle(line, 6);
    } else if (!body.empty() && body.front() == 'N') {
      const std::string_view name = trim(body.substr(1));
      in_.charge(comment_bytes(name.size()), "the pattern name", line.number, line.first_column);
      pattern_.name = std::string(name);
    } else if (!body.empty() && (body.front() == 'C' || body.front() == 'c')) {
      keep_comment(trim(body.substr(1)), line);
    } else if (!body.empty() && body.front() == 'O') {
      keep_comment("Author: " + std::string(trim(body.substr(1))), line);
    } else if (!body.empty() && body.front() == 'r') {
      const std::string_view rule = trim(body.substr(1));
      set_rule(line, line.text.find(rule.empty() ? body : rule), rule);
    } else {
      keep_comment(trim(body), line);
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
        x_origin_ = parse_int64_at(in_.source(), line, pos, "x position");
        if (pos >= text.size() || text[pos] != ',') fail(line, pos, "expected ',' in Pos=x,y");
        ++pos;
        y_origin_ = parse_int64_at(in_.source(), line, pos, "y position");
      } else if (key == "Gen") {
        if (pos < text.size() && text[pos] == '-') {
          fail(line, pos, "negative generation in #CXRLE Gen=");
        }
        pattern_.generation = parse_uint64_at(in_.source(), line, pos, "generation");
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
  // allocate: Golly ignores them too. They are read as unsigned 64-bit
  // numbers, as wide as any width the writer can give.
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
        if (pos < text.size() && text[pos] == '-') {
          fail(line, pos, "negative pattern size in RLE header");
        }
        parse_uint64_at(in_.source(), line, pos, "pattern size");
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

  // Runs up to the '!' terminator; the rest of the file is not read.
  void read_body() {
    std::string buffer;
    while (true) {
      read_plain_tokens();
      const int64_t line = in_.line();
      const int64_t column = in_.column();
      const int c = in_.get();
      if (c == TextReader::kEnd) {
        fail_at_end("truncated RLE: the pattern data ends without the '!' terminator");
      }
      if (column == 1 && c == '#') {
        // A comment line between runs, kept as Golly keeps it.
        TextLine comment = read_rest(buffer, false);
        comment.first_column = 2;
        keep_comment(trim(comment.text), comment);
        continue;
      }
      if (take_token(line, column, c)) continue;
      if (c == '\n') continue;  // a count may go on on the next line
      if (is_blank(static_cast<char>(c))) {
        count_line_ = 0;  // Golly ends a count at a blank: "1 2o" is 2o
        continue;
      }
      if (c == '!') {
        if (count_line_ != 0)
          in_.fail_at(count_line_, count_column_, "run count before '!' has no cell");
        return;
      }
      fail_unknown(line, column, static_cast<char>(c));
    }
  }

  // Counts, cells and row ends straight from the buffered bytes, which is
  // nearly all of a pattern; stops before anything else (line endings,
  // blanks, comments, '!', errors), which read_body() then takes through
  // get() with its own checks.
  void read_plain_tokens() {
    const std::string_view ahead = in_.buffered();
    const int64_t line = in_.line();
    const int64_t first_column = in_.column();
    size_t taken = 0;
    while (true) {
      taken += take_simple_tokens(ahead.substr(taken));
      // One token through take_token() (a new tile, a long count, a count
      // going on from the last line...), then the simple ones again.
      bool tagged = false;
      while (!tagged && taken < ahead.size() &&
             take_token(line, first_column + static_cast<int64_t>(taken),
                        static_cast<unsigned char>(ahead[taken]))) {
        tagged = !is_digit(static_cast<unsigned char>(ahead[taken]));
        ++taken;
      }
      if (!tagged) break;
    }
    in_.skip_plain(taken);
  }

  // The whole tokens at the front of `ahead` that need none of
  // take_token()'s checks: a count of at most 9 digits (or none) and a
  // dead run, a live run inside one tile already made, or a row end, taken
  // with the cursor in 64-bit registers. Only while no count is pending
  // and the cursor and the rows' start are within 2^60 of the origin,
  // where no token of them can carry it off the plane: a buffer holds far
  // fewer than 2^61 / 10^9 of them. Returns the bytes taken.
  //
  // A soup's runs are short and their tags random, so this loop is written
  // to avoid branches that depend on them: a branch on each count's digit
  // and on each tag's kind mispredicted about twice a token, most of the
  // parsing time. One digit and the dead or live run are taken with
  // conditional moves, and a tile row's live bits gather in a register
  // (TileRow) until the runs leave that tile.
  size_t take_simple_tokens(std::string_view ahead) {
    constexpr int64_t kTame = int64_t{1} << 60;
    constexpr size_t kMaxDigits = 9;
    const WideInt start_x = WideInt{x_origin_} + x_;
    const WideInt start_y = WideInt{y_origin_} + y_;
    const auto tame = [](WideInt v) { return v >= -kTame && v <= kTame; };
    // x_origin_ too: a row end moves the cursor back to it.
    if (count_line_ != 0 || !tame(start_x) || !tame(start_y) || !tame(x_origin_)) return 0;
    auto x = static_cast<int64_t>(start_x);
    auto y = static_cast<int64_t>(start_y);
    TileRow row;
    const char* const text = ahead.data();
    const size_t size = ahead.size();
    size_t taken = 0;
    while (taken < size) {
      size_t at = taken;
      // Masks rather than conditions, which GCC would turn into branches.
      const unsigned first_digit = static_cast<unsigned char>(text[at]) - unsigned{'0'};
      const unsigned counted = first_digit < 10;
      int64_t count = first_digit & (0u - counted);
      at += counted;
      while (at < size && at - taken < kMaxDigits &&
             is_digit(static_cast<unsigned char>(text[at]))) {
        count = count * 10 + (text[at] - '0');
        ++at;
      }
      if (at == size) break;
      const int64_t run = count + (count == 0);  // as take_count()
      const char tag = text[at];
      const bool live = (tag == 'o') | (tag == 'A');
      if (!(live | (tag == 'b') | (tag == '.'))) {
        if (tag != '$') break;
        row.leave();
        y += run;
        x = x_origin_;
        taken = at + 1;
        continue;
      }
      const uint64_t live_mask = 0 - uint64_t{live};
      if (row.holds(x, run)) {
        row.add(live_mask, x, run);
      } else if (live) {
        // A live run leaving the tile row needs the tile it lies in, made
        // already, and must end in it; a dead one needs no tile.
        if (!row.enter(sink_, x, y, run)) break;
        row.add(live_mask, x, run);
      } else {
        row.leave();
      }
      x += run;
      taken = at + 1;
    }
    row.leave();
    x_ = WideInt{x} - x_origin_;
    y_ = WideInt{y} - y_origin_;
    return taken;
  }

  // The live bits of one row of one tile, gathered while runs stay in it.
  class TileRow {
   public:
    // Whether cells x .. x+run-1 all lie in the tile row entered.
    bool holds(int64_t x, int64_t run) const {
      return word_ != nullptr && static_cast<uint64_t>(x - first_x_) + static_cast<uint64_t>(run) <=
                                     static_cast<uint64_t>(kTileSize);
    }
    // Enters the row of cell (x, y) if its tile is made and holds the run.
    bool enter(CellSink& sink, int64_t x, int64_t y, int64_t run) {
      leave();
      const int offset = offset_in_tile(x);
      if (offset + run > kTileSize) return false;
      word_ = sink.known_row(x, y);
      first_x_ = x - offset;
      return word_ != nullptr;
    }
    // Run x .. x+run-1, which holds() or enter() found in this tile row,
    // live where `live_mask` is all ones (dead where 0).
    void add(uint64_t live_mask, int64_t x, int64_t run) {
      bits_ |= CellSink::run_bits(x - first_x_, run) & live_mask;
    }
    void leave() {
      if (word_ != nullptr) *word_ |= bits_;
      word_ = nullptr;
      bits_ = 0;
    }

   private:
    uint64_t* word_ = nullptr;
    int64_t first_x_ = 0;
    uint64_t bits_ = 0;
  };

  // A count digit or a tag (a dead run, a live run, a row end) at (line,
  // column); false, taking nothing, for any other byte.
  bool take_token(int64_t line, int64_t column, int c) {
    if (is_digit(c)) {
      add_digit(line, column, c);
      return true;
    }
    switch (c) {
      case 'b':
      case '.':
        x_ += take_count();
        return true;
      case 'o':
      case 'A':
        add_live_run(line, column, take_count());
        return true;
      case '$':
        y_ += take_count();
        x_ = 0;
        return true;
      default:
        return false;
    }
  }

  [[noreturn]] void fail_unknown(int64_t line, int64_t column, char c) const {
    if ((c >= 'B' && c <= 'X') || (c >= 'p' && c <= 'y')) {
      in_.fail_at(line, column,
                  "multi-state cell " + describe_char(c) +
                      " is not supported: only two-state (b/o) patterns can be loaded");
    }
    in_.fail_at(line, column, "unexpected character " + describe_char(c) + " in RLE pattern data");
  }

  void add_digit(int64_t line, int64_t column, int c) {
    if (count_line_ == 0) {
      count_line_ = line;
      count_column_ = column;
      count_ = 0;
    }
    if (__builtin_mul_overflow(count_, 10, &count_) ||
        __builtin_add_overflow(count_, c - '0', &count_)) {
      in_.fail_at(count_line_, count_column_, "run count overflows a 64-bit integer");
    }
  }

  // The count before a tag: none is 1, and so is 0 (as Golly reads it).
  int64_t take_count() {
    if (count_line_ == 0) return 1;
    count_line_ = 0;
    return count_ == 0 ? 1 : count_;
  }

  void add_live_run(int64_t line, int64_t column, int64_t count) {
    const WideInt x = WideInt{x_origin_} + x_;
    const WideInt y = WideInt{y_origin_} + y_;
    check_in_plane(in_, x, y, count, line, column);
    sink_.add_run(static_cast<int64_t>(x), static_cast<int64_t>(y), count, line, column);
    x_ += count;
  }

  TextReader& in_;
  Pattern pattern_;
  CellSink sink_;
  bool seen_text_ = false;
  int64_t x_origin_ = 0;
  int64_t y_origin_ = 0;
  // The cursor relative to the #CXRLE position. Each token moves it by at
  // most 2^63, so 128 bits cannot overflow however long the file is.
  WideInt x_ = 0;
  WideInt y_ = 0;
  int64_t count_ = 0;
  int64_t count_line_ = 0;  // 0: no count pending
  int64_t count_column_ = 0;
};

}  // namespace

Pattern read_rle(TextReader& in) { return RleReader(in).read(); }

Pattern parse_rle(std::string_view text, std::string_view source) {
  MemorySource bytes(text);
  TextReader in(bytes, source);
  return read_rle(in);
}

}  // namespace gol::patterns
