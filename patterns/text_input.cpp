// Line splitting, error locations, integer parsing and the bounded cell sink
// shared by all pattern readers.
#include "patterns/text_input.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "engine/core/error.h"

namespace gol::patterns {

bool LineCursor::next(TextLine& line) {
  if (pos_ >= text_.size()) return false;
  size_t end = pos_;
  while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r') ++end;
  line.text = text_.substr(pos_, end - pos_);
  line.number = last_.number + 1;
  if (end < text_.size() && text_[end] == '\r' && end + 1 < text_.size() &&
      text_[end + 1] == '\n') {
    ++end;
  }
  pos_ = end + 1;
  last_ = line;
  for (size_t i = 0; i < line.text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(line.text[i]);
    if ((byte < 0x20 && byte != '\t' && byte != '\f' && byte != '\v') || byte == 0x7f) {
      fail_at(source_, line, i,
              "binary data (" + describe_char(line.text[i]) + "): not a pattern text file");
    }
  }
  return true;
}

void fail_at(std::string_view source, const TextLine& line, size_t index, std::string_view what) {
  throw InputError(source, line.number, static_cast<int64_t>(index) + 1, what);
}

std::string describe_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte > 0x20 && byte < 0x7f) return std::string("'") + c + "'";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "byte 0x%02x", byte);
  return buffer;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

int64_t parse_int64_at(std::string_view source, const TextLine& line, size_t& pos,
                       std::string_view what) {
  const std::string_view text = line.text;
  size_t end = pos;
  if (end < text.size() && (text[end] == '-' || text[end] == '+')) ++end;
  const size_t digits_start = end;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  if (end == digits_start) {
    fail_at(source, line, pos, "expected " + std::string(what) + " (an integer)");
  }
  const size_t from = text[pos] == '+' ? pos + 1 : pos;
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data() + from, text.data() + end, value);
  if (ec != std::errc() || ptr != text.data() + end) {
    fail_at(source, line, pos,
            std::string(what) + " " + std::string(text.substr(pos, end - pos)) +
                " does not fit in a 64-bit integer");
  }
  pos = end;
  return value;
}

Tile* CellSink::tile_at(TileCoord coord) {
  if (cached_tile_ != nullptr && cached_coord_ == coord) return cached_tile_;
  auto& tiles = cells_.tiles();
  if (tiles.size() >= max_tiles_ && tiles.find(coord) == tiles.end()) return nullptr;
  cached_coord_ = coord;
  cached_tile_ = &cells_.tile(coord);
  return cached_tile_;
}

bool CellSink::add_run(int64_t x, int64_t y, int64_t length) {
  const int row = offset_in_tile(y);
  while (length > 0) {
    const int offset = offset_in_tile(x);
    const int64_t count = std::min<int64_t>(length, kTileSize - offset);
    Tile* tile = tile_at({tile_of(x), tile_of(y)});
    if (tile == nullptr) return false;
    const uint64_t ones = count == kTileSize ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
    tile->rows[row] |= ones << offset;
    length -= count;
    if (length > 0) x += count;
  }
  return true;
}

std::string too_many_tiles_message(size_t max_tiles) {
  return "pattern too large: more than " + std::to_string(max_tiles) + " occupied 64x64 tiles";
}

}  // namespace gol::patterns
