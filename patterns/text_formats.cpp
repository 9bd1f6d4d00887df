// Plaintext, Life 1.05 and Life 1.06 readers, plus the plaintext writer.
#include "patterns/text_formats.h"

#include <bit>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/rule.h"
#include "patterns/pattern_io.h"
#include "patterns/text_input.h"

namespace gol::patterns {
namespace {

// Refuse to write more than 2^32 characters of plaintext.
constexpr uint64_t kMaxCellsTextArea = uint64_t{1} << 32;

// Reads one row of cell characters starting at (x0, y). `live` and `dead`
// list the accepted characters.
void read_cell_row(const TextLine& line, std::string_view source, int64_t x0, int64_t y,
                   std::string_view live, std::string_view dead, CellSink& sink,
                   std::string_view format) {
  const std::string_view text = line.text;
  size_t end = text.size();
  while (end > 0 && is_blank(text[end - 1])) --end;
  for (size_t i = 0; i < end; ++i) {
    const char c = text[i];
    if (dead.find(c) != std::string_view::npos) continue;
    if (live.find(c) == std::string_view::npos) {
      fail_at(source, line, i,
              "unexpected character " + describe_char(c) + " in " + std::string(format) +
                  " row (expected one of \"" + std::string(live) + std::string(dead) + "\")");
    }
    int64_t x = 0;
    if (__builtin_add_overflow(x0, static_cast<int64_t>(i), &x)) {
      fail_at(source, line, i, "cell coordinates overflow a 64-bit integer");
    }
    if (!sink.add_run(x, y, 1)) fail_at(source, line, i, too_many_tiles_message());
  }
}

void next_row(int64_t& y, std::string_view source, const TextLine& line) {
  if (__builtin_add_overflow(y, 1, &y)) {
    fail_at(source, line, 0, "cell coordinates overflow a 64-bit integer");
  }
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

// Skips blank lines up to the "#Life 1.0x" header line.
void skip_header(LineCursor& lines) {
  TextLine line;
  while (lines.next(line) && trim(line.text).empty()) {
  }
}

void finish_torus(Pattern& p) {
  if (p.topology) p.cells = p.cells.wrapped(p.topology->width, p.topology->height);
  p.cells.prune_empty();
}

}  // namespace

Pattern parse_cells(std::string_view text, std::string_view source) {
  Pattern p;
  p.format = "cells";
  CellSink sink(p.cells);
  LineCursor lines(text, source);
  TextLine line;
  int64_t y = 0;
  while (lines.next(line)) {
    if (!line.text.empty() && line.text.front() == '!') {
      const std::string_view comment = line.text.substr(1);
      if (comment.substr(0, 5) == "Name:") {
        p.name = std::string(trim(comment.substr(5)));
      } else {
        p.comments.emplace_back(trim(comment));
      }
      continue;
    }
    read_cell_row(line, source, 0, y, "O*", ".", sink, "plaintext");
    next_row(y, source, line);
  }
  if (lines.last().number == 0) {
    throw InputError(source, 0, 0, "empty file: no pattern data");
  }
  p.cells.prune_empty();
  return p;
}

Pattern parse_life105(std::string_view text, std::string_view source) {
  Pattern p;
  p.format = "life1.05";
  CellSink sink(p.cells);
  LineCursor lines(text, source);
  skip_header(lines);
  TextLine line;
  int64_t left = 0;
  int64_t y = 0;
  while (lines.next(line)) {
    const std::string_view text_line = trim(line.text);
    if (text_line.empty()) continue;
    if (text_line.front() != '#') {
      read_cell_row(line, source, left, y, "*", ".", sink, "Life 1.05");
      next_row(y, source, line);
      continue;
    }
    const size_t hash = line.text.find('#');
    const std::string_view tag = line.text.substr(hash + 1, 1);
    const std::string_view rest = trim(line.text.substr(std::min(hash + 2, line.text.size())));
    if (tag == "P") {
      size_t pos = line.text.find_first_not_of(" \t", hash + 2);
      if (pos == std::string_view::npos) continue;  // bare #P: carry on below
      left = parse_int64_at(source, line, pos, "block x position");
      while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
      y = parse_int64_at(source, line, pos, "block y position");
      if (!trim(line.text.substr(pos)).empty())
        fail_at(source, line, pos, "unexpected text after #P x y");
    } else if (tag == "N") {
      p.rule = Rule::conway();
    } else if (tag == "R") {
      set_rule_from(p, line, line.text.find(rest), rest, source);
    } else {
      p.comments.emplace_back(rest);
    }
  }
  finish_torus(p);
  return p;
}

Pattern parse_life106(std::string_view text, std::string_view source) {
  Pattern p;
  p.format = "life1.06";
  CellSink sink(p.cells);
  LineCursor lines(text, source);
  skip_header(lines);
  TextLine line;
  while (lines.next(line)) {
    size_t pos = 0;
    while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
    if (pos == line.text.size()) continue;
    if (line.text[pos] == '#') {
      p.comments.emplace_back(trim(line.text.substr(pos + 1)));
      continue;
    }
    const int64_t x = parse_int64_at(source, line, pos, "x coordinate");
    if (pos < line.text.size() && !is_blank(line.text[pos])) {
      fail_at(
          source, line, pos,
          "unexpected character " + describe_char(line.text[pos]) + " (expected a line \"x y\")");
    }
    while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
    const int64_t y = parse_int64_at(source, line, pos, "y coordinate");
    while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
    if (pos != line.text.size()) {
      fail_at(
          source, line, pos,
          "unexpected character " + describe_char(line.text[pos]) + " (expected a line \"x y\")");
    }
    if (!sink.add_run(x, y, 1)) fail_at(source, line, 0, too_many_tiles_message());
  }
  p.cells.prune_empty();
  return p;
}

std::string to_cells(const Pattern& p) {
  std::string out = "!Name:" + (p.name.empty() ? "" : " " + p.name) + "\n";
  for (const std::string& comment : p.comments) {
    size_t start = 0;
    while (start <= comment.size()) {
      const size_t end = std::min(comment.find('\n', start), comment.size());
      out += "!" + comment.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  const auto box = p.cells.bbox();
  if (!box) return out;
  const uint64_t width = static_cast<uint64_t>(box->xmax) - static_cast<uint64_t>(box->xmin) + 1;
  const uint64_t height = static_cast<uint64_t>(box->ymax) - static_cast<uint64_t>(box->ymin) + 1;
  if (width == 0 || height == 0 || width > kMaxCellsTextArea / height) {
    throw UsageError("pattern spans " + std::to_string(width) + "x" + std::to_string(height) +
                     " cells, too large for plaintext (.cells); write .rle instead");
  }
  // Rows are built per tile band so the cost follows live tiles and output
  // size, not cell-by-cell lookups.
  uint64_t next_offset = 0;  // rows below box->ymin already written
  std::vector<std::pair<int64_t, const Tile*>> band;
  auto it = p.cells.tiles().begin();
  const auto end = p.cells.tiles().end();
  std::string row;
  while (it != end) {
    const int64_t ty = it->first.ty;
    band.clear();
    for (; it != end && it->first.ty == ty; ++it) band.emplace_back(it->first.tx, &it->second);
    for (int r = 0; r < kTileSize; ++r) {
      row.clear();
      for (const auto& [tx, tile] : band) {
        for (uint64_t bits = tile->rows[r]; bits != 0; bits &= bits - 1) {
          const int64_t x = tx * kTileSize + std::countr_zero(bits);
          row.resize(
              static_cast<size_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(box->xmin)),
              '.');
          row += 'O';
        }
      }
      if (row.empty()) continue;
      const uint64_t offset =
          static_cast<uint64_t>(ty * kTileSize + r) - static_cast<uint64_t>(box->ymin);
      out.append(static_cast<size_t>(offset - next_offset), '\n');
      out += row;
      out += '\n';
      next_offset = offset + 1;
    }
  }
  return out;
}

}  // namespace gol::patterns
