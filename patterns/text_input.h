// Shared pieces of the pattern readers: numbered lines with binary-data
// checks, errors located as SOURCE:LINE:COLUMN, checked integer parsing, and
// a cell sink whose memory is bounded by live tiles, never by header numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/cell_set.h"

namespace gol::patterns {

// A pattern read from text may occupy at most 2^21 tiles (1 GiB of tile
// data): twice a 65536x65536 torus. Larger ones are refused, not allocated.
inline constexpr size_t kMaxPatternTiles = size_t{1} << 21;

struct TextLine {
  std::string_view text;  // without the line ending
  int64_t number = 0;     // 1-based
};

// Walks text line by line ("\n", "\r\n" or "\r" endings). Each line is
// checked for control bytes so binary files are refused with a location.
class LineCursor {
 public:
  LineCursor(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  // Moves to the next line; false at the end of the text.
  bool next(TextLine& line);
  // The last line returned (for "truncated" errors at the end of the text).
  const TextLine& last() const { return last_; }

 private:
  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
  TextLine last_;
};

// Throws InputError at `line`, column index + 1.
[[noreturn]] void fail_at(std::string_view source, const TextLine& line, size_t index,
                          std::string_view what);

// A printable rendering of one byte for messages: 'x' or byte 0x1f.
std::string describe_char(char c);

bool is_blank(char c);
std::string_view trim(std::string_view text);

// Parses an optionally signed decimal int64 at text[pos]; advances pos.
// Throws InputError (naming `what`) on a missing number or overflow.
int64_t parse_int64_at(std::string_view source, const TextLine& line, size_t& pos,
                       std::string_view what);

// Adds runs of live cells to a CellSet, caching the current tile and
// refusing to create more than kMaxPatternTiles tiles.
class CellSink {
 public:
  explicit CellSink(CellSet& cells, size_t max_tiles = kMaxPatternTiles)
      : cells_(cells), max_tiles_(max_tiles) {}
  // Sets cells (x .. x+length-1, y); the caller guarantees no overflow.
  // Returns false, setting nothing more, when the tile limit is reached.
  bool add_run(int64_t x, int64_t y, int64_t length);

 private:
  Tile* tile_at(TileCoord coord);

  CellSet& cells_;
  size_t max_tiles_;
  TileCoord cached_coord_{};
  Tile* cached_tile_ = nullptr;
};

std::string too_many_tiles_message(size_t max_tiles = kMaxPatternTiles);

}  // namespace gol::patterns
