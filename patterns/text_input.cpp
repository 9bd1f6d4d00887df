// Byte sources, the text reader, line parsing helpers and the budgeted cell
// sink shared by all pattern readers.
#include "patterns/text_input.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::patterns {

size_t MemorySource::read(char* buffer, size_t size) {
  const size_t count = std::min(size, text_.size());
  if (count == 0) return 0;  // an empty view may hold a null pointer
  std::memcpy(buffer, text_.data(), count);
  text_.remove_prefix(count);
  return count;
}

TextReader::TextReader(ByteSource& bytes, std::string_view source)
    : bytes_(bytes), source_(source), buffer_(kBufferSize) {
  // Editors on some systems prefix UTF-8 text with a byte-order mark.
  if (lookahead(3) == "\xEF\xBB\xBF") pos_ += 3;
}

int TextReader::peek_special() {
  if (pos_ == end_ && !fill()) return kEnd;
  const char c = buffer_[pos_];
  if (c == '\r') return '\n';
  if (is_control(c)) fail_binary(c);
  return static_cast<unsigned char>(c);
}

int TextReader::get_special() {
  const int c = peek_special();
  if (c == kEnd) return kEnd;
  if (buffer_[pos_++] == '\r' && (pos_ < end_ || fill()) && buffer_[pos_] == '\n') ++pos_;
  if (c == '\n') {
    last_line_end_ = column_;
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  return c;
}

bool TextReader::fill() {
  if (at_end_) return pos_ < end_;
  std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
  end_ -= pos_;
  pos_ = 0;
  const size_t count = bytes_.read(buffer_.data() + end_, buffer_.size() - end_);
  if (count == 0) at_end_ = true;
  end_ += count;
  return pos_ < end_;
}

std::string_view TextReader::lookahead(size_t size) {
  size = std::min(size, kBufferSize);
  while (end_ - pos_ < size && !at_end_) fill();
  return {buffer_.data() + pos_, std::min(size, end_ - pos_)};
}

void TextReader::read_line(std::string& out, bool keep) {
  const int64_t line = line_;
  const int64_t column = column_;
  uint64_t held = 0;  // what this line has charged so far
  while (true) {
    const int c = peek();
    if (c == kEnd) break;
    if (c == '\n') {
      get();
      break;
    }
    if (out.size() == out.capacity()) {
      // Charged before the string grows, in the steps it grows by.
      const uint64_t grown = std::max<uint64_t>(2 * out.capacity(), 64);
      charge_described(
          grown - held,
          [&out] { return "a line of more than " + std::to_string(out.size()) + " bytes"; }, line,
          column);
      held = grown;
      out.reserve(grown);
    }
    out.push_back(static_cast<char>(get()));
  }
  if (!keep) release(held);
}

void TextReader::skip_line() {
  while (true) {
    const int c = get();
    if (c == kEnd || c == '\n') return;
  }
}

void TextReader::charge(uint64_t bytes, std::string_view what, int64_t line, int64_t column) {
  const uint64_t total = saturating_add(charged_, bytes);
  check_input_memory(total, what, source_, line, column);
  charged_ = total;
}

void TextReader::fail_at(int64_t line, int64_t column, std::string_view what) const {
  throw InputError(source_, line, column, what);
}

void TextReader::fail_binary(char c) const {
  fail("binary data (" + describe_char(c) + "): not a pattern text file");
}

void fail_at(std::string_view source, const TextLine& line, size_t index, std::string_view what) {
  throw InputError(source, line.number, line.first_column + static_cast<int64_t>(index), what);
}

std::string describe_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte > 0x20 && byte < 0x7f) return std::string("'") + c + "'";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "byte 0x%02x", byte);
  return buffer;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

namespace {

template <typename Int>
Int parse_integer_at(std::string_view source, const TextLine& line, size_t& pos,
                     std::string_view what, bool allow_sign) {
  const std::string_view text = line.text;
  size_t end = pos;
  if (allow_sign && end < text.size() && (text[end] == '-' || text[end] == '+')) ++end;
  const size_t digits_start = end;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  if (end == digits_start) {
    fail_at(source, line, pos,
            "expected " + std::string(what) + (allow_sign ? " (an integer)" : " (a whole number)"));
  }
  const size_t from = text[pos] == '+' ? pos + 1 : pos;
  Int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data() + from, text.data() + end, value);
  if (ec != std::errc() || ptr != text.data() + end) {
    fail_at(source, line, pos,
            std::string(what) + " " + std::string(text.substr(pos, end - pos)) +
                " does not fit in a 64-bit integer");
  }
  pos = end;
  return value;
}

}  // namespace

int64_t parse_int64_at(std::string_view source, const TextLine& line, size_t& pos,
                       std::string_view what) {
  return parse_integer_at<int64_t>(source, line, pos, what, true);
}

uint64_t parse_uint64_at(std::string_view source, const TextLine& line, size_t& pos,
                         std::string_view what) {
  return parse_integer_at<uint64_t>(source, line, pos, what, false);
}

void fail_beyond_plane(const TextReader& in, int64_t line, int64_t column) {
  in.fail_at(line, column,
             "cell beyond the plane: coordinates must lie in [-2^62, 2^62), where gol "
             "can run them");
}

Tile* CellSink::known_in_row(TileCoord coord) {
  if (coord.ty != row_ty_ || row_tiles_.empty()) return nullptr;
  // A reader moving east along a row wants the entry after the last one.
  if (row_next_ < row_tiles_.size() && row_tiles_[row_next_].first == coord.tx) {
    return row_tiles_[row_next_++].second;
  }
  const auto at = std::lower_bound(row_tiles_.begin(), row_tiles_.end(), coord.tx,
                                   [](const auto& entry, int64_t tx) { return entry.first < tx; });
  if (at == row_tiles_.end() || at->first != coord.tx) return nullptr;
  row_next_ = static_cast<size_t>(at - row_tiles_.begin()) + 1;
  return at->second;
}

Tile* CellSink::tile_at(TileCoord coord) {
  if (Tile* known = known_tile(coord)) return known;
  Tile* const tile = &cells_.tile(coord);  // tree nodes never move
  if (coord.ty != row_ty_) {
    row_ty_ = coord.ty;
    row_tiles_.clear();
  }
  if (row_tiles_.empty() || row_tiles_.back().first < coord.tx)
    row_tiles_.emplace_back(coord.tx, tile);
  cached_coord_ = coord;
  cached_tile_ = tile;
  return tile;
}

void CellSink::add_run_charged(int64_t x, int64_t y, int64_t length, int64_t line, int64_t column) {
  // Refused before any tile is made: a long run must not allocate up to
  // the budget first. The tiles the run spans that exist already are
  // counted only when the plain bound does not fit (rarely).
  const auto spanned = static_cast<uint64_t>(tile_of(x + length - 1) - tile_of(x) + 1);
  const auto& tiles = cells_.tiles();
  const uint64_t before = tiles.size();
  uint64_t fresh = spanned;
  if (!fits_memory_budget(in_.charged() + saturating_mul(spanned, CellSet::kBytesPerTile))) {
    const TileCoord first{tile_of(x), tile_of(y)};
    const TileCoord last{tile_of(x + length - 1), tile_of(y)};
    fresh -=
        static_cast<uint64_t>(std::distance(tiles.lower_bound(first), tiles.upper_bound(last)));
  }
  in_.charge_described(
      saturating_mul(fresh, CellSet::kBytesPerTile),
      [length] { return "a run of " + std::to_string(length) + " live cells"; }, line, column);
  const int row = offset_in_tile(y);
  while (length > 0) {
    const int offset = offset_in_tile(x);
    const int64_t count = std::min<int64_t>(length, kTileSize - offset);
    Tile* tile = tile_at({tile_of(x), tile_of(y)});
    tile->rows[row] |= run_bits(offset, count);
    length -= count;
    if (length > 0) x += count;
  }
  // What was charged for tiles that turned out to exist is given back.
  in_.release((fresh - (tiles.size() - before)) * CellSet::kBytesPerTile);
}

}  // namespace gol::patterns
