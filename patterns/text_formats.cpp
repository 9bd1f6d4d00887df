// Plaintext, Life 1.05 and Life 1.06 readers, plus the plaintext writer.
#include "patterns/text_formats.h"

#include <array>
#include <bit>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "engine/core/rule.h"
#include "patterns/pattern_io.h"

namespace gol::patterns {
namespace {

// Reads the rest of a row of cell characters, the first at (x0, y), up to
// and including its line ending. `live` and `dead` list the accepted
// characters; trailing blanks are allowed, blanks between cells are not.
void read_cell_row(TextReader& in, int64_t x0, int64_t y, std::string_view live,
                   std::string_view dead, CellSink& sink, std::string_view format) {
  WideInt x = x0;
  int64_t blank_line = 0;
  int64_t blank_column = 0;  // 0: no blank since the last cell character
  while (true) {
    const int64_t line = in.line();
    const int64_t column = in.column();
    const int c = in.get();
    if (c == TextReader::kEnd || c == '\n') return;
    const char cell = static_cast<char>(c);
    if (is_blank(cell)) {
      if (blank_column == 0) {
        blank_line = line;
        blank_column = column;
      }
      continue;
    }
    const bool is_dead = dead.find(cell) != std::string_view::npos;
    const bool is_live = live.find(cell) != std::string_view::npos;
    if (blank_column != 0 && (is_dead || is_live)) {
      in.fail_at(blank_line, blank_column,
                 "unexpected blank in " + std::string(format) + " row (blanks may only end a row)");
    }
    if (!is_dead && !is_live) {
      in.fail_at(line, column,
                 "unexpected character " + describe_char(cell) + " in " + std::string(format) +
                     " row (expected one of \"" + std::string(live) + std::string(dead) + "\")");
    }
    if (is_live) {
      check_in_plane(in, x, y, 1, line, column);
      sink.add_run(static_cast<int64_t>(x), y, 1, line, column);
    }
    ++x;
  }
}

void next_row(int64_t& y, const TextReader& in) {
  if (y >= kPlaneLimit - 1) {
    in.fail_at(in.line(), 1, "cell beyond the plane: rows must lie below y = 2^62");
  }
  ++y;
}

void set_rule_from(Pattern& p, const TextLine& line, size_t column, std::string_view rule,
                   std::string_view source) {
  try {
    const RuleSpec spec = parse_rule(rule, "");
    p.rule = spec.rule;
    if (spec.topology) p.topology = spec.topology;
  } catch (const InputError& e) {
    fail_at(source, line, column, e.what());
  }
}

// Consumes the blanks that start a line; true when the line holds nothing
// else (it is consumed too). `first_blank` gets the column of the first
// blank consumed, 0 when there was none.
bool skip_blank_line(TextReader& in, int64_t& first_blank) {
  first_blank = 0;
  while (in.peek() != TextReader::kEnd && is_blank(static_cast<char>(in.peek()))) {
    if (first_blank == 0) first_blank = in.column();
    in.get();
  }
  if (in.peek() == '\n') {
    in.get();
    return true;
  }
  return in.peek() == TextReader::kEnd;
}

// Skips blank lines and, if it comes next, the "#Life 1.0x" header line.
void skip_header(TextReader& in, std::string_view header) {
  int64_t first_blank = 0;
  while (in.peek() != TextReader::kEnd && skip_blank_line(in, first_blank)) {
  }
  if (in.lookahead(header.size()) == header) in.skip_line();
}

// The rest of the line from here, read whole.
TextLine read_rest(TextReader& in, std::string& buffer, bool keep) {
  TextLine line{{}, in.line(), in.column()};
  buffer.clear();
  in.read_line(buffer, keep);
  line.text = buffer;
  return line;
}

void keep_comment(Pattern& p, TextReader& in, std::string_view text, const TextLine& line) {
  in.charge(comment_bytes(text.size()), "comment lines", line.number, line.first_column);
  p.comments.emplace_back(text);
}

void finish_torus(Pattern& p) {
  if (p.topology) p.cells = p.cells.wrapped(p.topology->width, p.topology->height);
  p.cells.prune_empty();
}

}  // namespace

Pattern read_cells(TextReader& in) {
  Pattern p;
  p.format = "cells";
  CellSink sink(p.cells, in);
  if (in.peek() == TextReader::kEnd && in.line() == 1) {
    throw InputError(in.source(), 0, 0, "empty file: no pattern data");
  }
  std::string buffer;
  int64_t y = in.line() - 1;
  while (in.peek() != TextReader::kEnd) {
    if (in.column() == 1 && in.peek() == '!') {
      in.get();
      const TextLine line = read_rest(in, buffer, false);
      const std::string_view comment = line.text;
      if (comment.substr(0, 5) == "Name:") {
        const std::string_view name = trim(comment.substr(5));
        in.charge(comment_bytes(name.size()), "the pattern name", line.number, 1);
        p.name = std::string(name);
      } else {
        keep_comment(p, in, trim(comment), line);
      }
      continue;
    }
    read_cell_row(in, 0, y, "O*", ".", sink, "plaintext");
    next_row(y, in);
  }
  p.cells.prune_empty();
  return p;
}

Pattern read_life105(TextReader& in) {
  Pattern p;
  p.format = "life1.05";
  CellSink sink(p.cells, in);
  skip_header(in, "#Life 1.05");
  std::string buffer;
  int64_t left = 0;
  int64_t y = 0;
  int64_t first_blank = 0;
  while (in.peek() != TextReader::kEnd) {
    if (skip_blank_line(in, first_blank)) continue;
    if (in.peek() != '#') {
      if (first_blank != 0) {
        in.fail_at(in.line(), first_blank,
                   "unexpected blank in Life 1.05 row (blanks may only end a row)");
      }
      read_cell_row(in, left, y, "*", ".", sink, "Life 1.05");
      next_row(y, in);
      continue;
    }
    const TextLine line = read_rest(in, buffer, false);
    const std::string_view tag = line.text.substr(1, 1);
    const std::string_view rest = trim(line.text.substr(std::min<size_t>(2, line.text.size())));
    if (tag == "P") {
      size_t pos = line.text.find_first_not_of(" \t", 2);
      if (pos == std::string_view::npos) continue;  // bare #P: carry on below
      left = parse_int64_at(in.source(), line, pos, "block x position");
      while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
      y = parse_int64_at(in.source(), line, pos, "block y position");
      if (!trim(line.text.substr(pos)).empty()) {
        fail_at(in.source(), line, pos, "unexpected text after #P x y");
      }
    } else if (tag == "N") {
      p.rule = Rule::conway();
    } else if (tag == "R") {
      set_rule_from(p, line, line.text.find(rest), rest, in.source());
    } else {
      keep_comment(p, in, rest, line);
    }
  }
  finish_torus(p);
  return p;
}

Pattern read_life106(TextReader& in) {
  Pattern p;
  p.format = "life1.06";
  CellSink sink(p.cells, in);
  // Without the header, the first line is already a cell.
  skip_header(in, "#Life 1.06");
  std::string buffer;
  while (in.peek() != TextReader::kEnd) {
    const TextLine line = read_rest(in, buffer, false);
    size_t pos = 0;
    while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
    if (pos == line.text.size()) continue;
    if (line.text[pos] == '#') {
      keep_comment(p, in, trim(line.text.substr(pos + 1)), line);
      continue;
    }
    const int64_t x = parse_int64_at(in.source(), line, pos, "x coordinate");
    if (pos < line.text.size() && !is_blank(line.text[pos])) {
      fail_at(
          in.source(), line, pos,
          "unexpected character " + describe_char(line.text[pos]) + " (expected a line \"x y\")");
    }
    while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
    const int64_t y = parse_int64_at(in.source(), line, pos, "y coordinate");
    while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
    if (pos != line.text.size()) {
      fail_at(
          in.source(), line, pos,
          "unexpected character " + describe_char(line.text[pos]) + " (expected a line \"x y\")");
    }
    check_in_plane(in, x, y, 1, line.number, 1);
    sink.add_run(x, y, 1, line.number, 1);
  }
  p.cells.prune_empty();
  return p;
}

namespace {

// The exact length of to_cells' row text: one line per row of the bounding
// box, each as long as its last live cell. Computed before any of it is
// built, so a wide, sparse pattern is refused instead of filling memory.
uint64_t cells_rows_size(const CellSet& cells, const BBox& box) {
  uint64_t size = static_cast<uint64_t>(box.ymax) - static_cast<uint64_t>(box.ymin) + 1;
  auto it = cells.tiles().begin();
  const auto end = cells.tiles().end();
  std::array<int64_t, kTileSize> last{};
  while (it != end) {
    const int64_t ty = it->first.ty;
    last.fill(box.xmin - 1);
    for (; it != end && it->first.ty == ty; ++it) {
      for (int r = 0; r < kTileSize; ++r) {
        const uint64_t row = it->second.rows[r];
        if (row != 0) last[r] = it->first.tx * kTileSize + 63 - std::countl_zero(row);
      }
    }
    for (int64_t x : last) {
      size = saturating_add(size, static_cast<uint64_t>(x) - static_cast<uint64_t>(box.xmin) + 1);
    }
  }
  return size;
}

}  // namespace

std::string to_cells(const Pattern& p) {
  std::string out = "!Name:" + (p.name.empty() ? "" : " " + p.name) + "\n";
  for (const std::string& comment : p.comments) {
    size_t start = 0;
    while (start <= comment.size()) {
      const size_t end = std::min(comment.find('\n', start), comment.size());
      out += '!';
      out.append(comment, start, end - start);
      out += '\n';
      start = end + 1;
    }
  }
  const auto box = p.cells.bbox();
  if (!box) return out;
  const uint64_t size = saturating_add(out.size(), cells_rows_size(p.cells, *box));
  check_runtime_memory(size, "the plaintext (.cells) text of a " + std::to_string(box->width()) +
                                 "x" + std::to_string(box->height()) +
                                 " pattern (write .rle instead)");
  out.reserve(size);
  // Rows are built per tile band so the cost follows live tiles and output
  // size, not cell-by-cell lookups.
  uint64_t next_offset = 0;  // rows below box->ymin already written
  std::vector<std::pair<int64_t, const Tile*>> band;
  auto it = p.cells.tiles().begin();
  const auto end = p.cells.tiles().end();
  while (it != end) {
    const int64_t ty = it->first.ty;
    band.clear();
    for (; it != end && it->first.ty == ty; ++it) band.emplace_back(it->first.tx, &it->second);
    for (int r = 0; r < kTileSize; ++r) {
      const size_t row_start = out.size();
      uint64_t written = 0;  // cells of this row written so far
      for (const auto& [tx, tile] : band) {
        for (uint64_t bits = tile->rows[r]; bits != 0; bits &= bits - 1) {
          if (written == 0) {
            const uint64_t offset =
                static_cast<uint64_t>(ty * kTileSize + r) - static_cast<uint64_t>(box->ymin);
            out.append(static_cast<size_t>(offset - next_offset), '\n');
            next_offset = offset + 1;
          }
          const int64_t x = tx * kTileSize + std::countr_zero(bits);
          const uint64_t column = static_cast<uint64_t>(x) - static_cast<uint64_t>(box->xmin);
          out.append(static_cast<size_t>(column - written), '.');
          out += 'O';
          written = column + 1;
        }
      }
      if (out.size() != row_start) out += '\n';
    }
  }
  return out;
}

}  // namespace gol::patterns
