// RLE writer: "#CXRLE Pos=" keeps absolute coordinates, tokens never split
// across lines, lines stay within 70 characters, and rows are visited tile
// band by tile band so sparse patterns cost time per live tile, not per row.
#include <algorithm>
#include <bit>
#include <vector>

#include "patterns/pattern_io.h"
#include "patterns/writer_support.h"

namespace gol::patterns {
namespace {

constexpr size_t kMaxLineLength = 70;

class RunWriter {
 public:
  explicit RunWriter(std::string& out) : out_(out) {}

  // A run of `count` cells with `tag` ('b', 'o' or '$'); nothing when count is 0.
  void run(uint64_t count, char tag) {
    if (count == 0) return;
    token_.clear();
    if (count > 1) token_ = std::to_string(count);
    token_ += tag;
    emit(token_);
  }
  void finish() {
    emit("!");
    out_ += '\n';
  }

 private:
  void emit(std::string_view token) {
    if (line_length_ + token.size() > kMaxLineLength) {
      out_ += '\n';
      line_length_ = 0;
    }
    out_ += token;
    line_length_ += token.size();
  }

  std::string& out_;
  std::string token_;
  size_t line_length_ = 0;
};

// Emits rows in order, merging live runs that continue across tile edges.
// Differences are taken in uint64_t: they can exceed INT64_MAX.
class BodyWriter {
 public:
  BodyWriter(RunWriter& runs, int64_t xmin, int64_t ymin)
      : runs_(runs), xmin_(xmin), row_(ymin), cursor_(xmin) {}

  void start_row(int64_t y) {
    flush_live();
    runs_.run(static_cast<uint64_t>(y) - static_cast<uint64_t>(row_), '$');
    if (y != row_) cursor_ = xmin_;
    row_ = y;
  }
  void live(int64_t x, uint64_t length) {
    if (live_length_ > 0 &&
        static_cast<uint64_t>(x) - static_cast<uint64_t>(live_start_) == live_length_) {
      live_length_ += length;
      return;
    }
    flush_live();
    live_start_ = x;
    live_length_ = length;
  }
  void finish() {
    flush_live();
    runs_.finish();
  }

 private:
  void flush_live() {
    if (live_length_ == 0) return;
    runs_.run(static_cast<uint64_t>(live_start_) - static_cast<uint64_t>(cursor_), 'b');
    runs_.run(live_length_, 'o');
    cursor_ = static_cast<int64_t>(static_cast<uint64_t>(live_start_) + live_length_);
    live_length_ = 0;
  }

  RunWriter& runs_;
  int64_t xmin_;
  int64_t row_;
  int64_t cursor_;
  int64_t live_start_ = 0;
  uint64_t live_length_ = 0;
};

void write_row_runs(BodyWriter& body, int64_t x0, uint64_t row) {
  while (row != 0) {
    const int start = std::countr_zero(row);
    const uint64_t rest = row >> start;
    const int length = rest == ~uint64_t{0} ? 64 - start : std::countr_one(rest);
    body.live(x0 + start, static_cast<uint64_t>(length));
    row = length + start >= 64 ? 0 : row & ~(((uint64_t{1} << length) - 1) << start);
  }
}

void write_body(const CellSet& cells, const BBox& box, std::string& out) {
  RunWriter runs(out);
  BodyWriter body(runs, box.xmin, box.ymin);
  std::vector<std::pair<int64_t, const Tile*>> band;
  auto it = cells.tiles().begin();
  const auto end = cells.tiles().end();
  while (it != end) {
    const int64_t ty = it->first.ty;
    band.clear();
    for (; it != end && it->first.ty == ty; ++it) band.emplace_back(it->first.tx, &it->second);
    for (int r = 0; r < kTileSize; ++r) {
      bool started = false;
      for (const auto& [tx, tile] : band) {
        const uint64_t row = tile->rows[r];
        if (row == 0) continue;
        if (!started) body.start_row(ty * kTileSize + r);
        started = true;
        write_row_runs(body, tx * kTileSize, row);
      }
    }
  }
  body.finish();
}

}  // namespace

std::string to_rle(const Pattern& p) {
  const bool torus = p.topology && p.topology->is_torus();
  // On the plane the pattern's own cells, not a copy of them.
  const CellSet window = torus ? to_golly_window(p.cells, *p.topology) : CellSet{};
  const CellSet& cells = torus ? window : p.cells;
  const BBox box = cells.bbox().value_or(BBox{0, 0, -1, -1});
  RuleSpec rule{p.rule.value_or(Rule::conway()), std::nullopt};
  if (torus) rule.topology = p.topology;

  std::string out;
  if (!p.name.empty()) append_comment_lines(out, "#N ", p.name);
  for (const std::string& comment : p.comments) append_comment_lines(out, "#C ", comment);
  out += "#CXRLE Pos=" + std::to_string(box.xmin) + "," + std::to_string(box.ymin);
  if (p.generation > 0) out += " Gen=" + std::to_string(p.generation);
  out += '\n';
  const uint64_t width = static_cast<uint64_t>(box.xmax) - static_cast<uint64_t>(box.xmin) + 1;
  const uint64_t height = static_cast<uint64_t>(box.ymax) - static_cast<uint64_t>(box.ymin) + 1;
  out += "x = " + std::to_string(width) + ", y = " + std::to_string(height) +
         ", rule = " + rule.to_string() + "\n";
  write_body(cells, box, out);
  return out;
}

}  // namespace gol::patterns
