// Shared pieces of the pattern readers: byte sources read a chunk at a time
// (so loading never holds the whole text), a text reader that tracks line
// and column and refuses binary data, checked integer parsing, and a cell
// sink whose memory is checked against the memory budget before each tile
// is created, never decided by a number in the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/cell_set.h"
#include "engine/core/memory_budget.h"

namespace gol::patterns {

// Where a reader's bytes come from: a file, gzip over another source, or
// text already in memory.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `size` bytes into `buffer`; 0 only at the end. Throws InputError.
  virtual size_t read(char* buffer, size_t size) = 0;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view text) : text_(text) {}
  size_t read(char* buffer, size_t size) override;

 private:
  std::string_view text_;
};

// Reads text one byte at a time from a ByteSource through a fixed buffer.
// "\r\n" and a lone "\r" read as '\n'. A control byte (other than tab, form
// feed and vertical tab) is refused as binary data at its line and column
// as soon as it is reached. A UTF-8 byte-order mark at the start is skipped.
// Everything the pattern being read keeps (tiles, comments, long lines) is
// charged to this reader's account against the memory budget first.
class TextReader {
 public:
  static constexpr int kEnd = -1;
  // The most lookahead() can show: format detection needs only the start
  // of the first line.
  static constexpr size_t kBufferSize = size_t{1} << 16;

  TextReader(ByteSource& bytes, std::string_view source);

  // The next byte without consuming it; kEnd at the end of the text.
  int peek() {
    if (pos_ < end_ && is_plain(buffer_[pos_])) return static_cast<unsigned char>(buffer_[pos_]);
    return peek_special();
  }
  // Consumes and returns the next byte (kEnd at the end).
  int get() {
    // Printable bytes are nearly all of a pattern: one test, then done.
    if (pos_ < end_ && is_plain(buffer_[pos_])) {
      ++column_;
      return static_cast<unsigned char>(buffer_[pos_++]);
    }
    return get_special();
  }
  // The unread bytes already in the buffer, raw (possibly none): a reader
  // may scan them itself and then skip_plain() those it took, all of which
  // must be plain bytes (printable: no line ending or control byte), so
  // that line and column stay exact. Its hot loop then keeps its cursor
  // in registers rather than going through get() for every byte.
  std::string_view buffered() const { return {buffer_.data() + pos_, end_ - pos_}; }
  void skip_plain(size_t count) {
    pos_ += count;
    column_ += static_cast<int64_t>(count);
  }
  // The unread text ahead, raw, up to `size` bytes (at most kBufferSize);
  // shorter only at the end of the text. Consumes nothing.
  std::string_view lookahead(size_t size);

  // Line and column (1-based) of the byte peek() returns.
  int64_t line() const { return line_; }
  int64_t column() const { return column_; }
  std::string_view source() const { return source_; }
  // Where the text ends, for "truncated" messages: a final line ending
  // counts as the end of the line it ends, not the start of an empty one.
  int64_t end_line() const { return column_ == 1 && line_ > 1 ? line_ - 1 : line_; }
  int64_t end_column() const { return column_ == 1 && line_ > 1 ? last_line_end_ : column_; }

  // Appends the rest of the current line (without its ending) to `out` and
  // consumes the ending. The line's memory is charged to the account while
  // it grows; `keep` says whether it stays charged (a comment the pattern
  // keeps) or is given back once the caller has parsed it.
  void read_line(std::string& out, bool keep);
  void skip_line();

  // Charges `bytes` more held by the pattern being read; refused with an
  // InputError at (line, column), naming `what`, when the total would
  // exceed the memory budget.
  void charge(uint64_t bytes, std::string_view what, int64_t line, int64_t column);
  // charge() naming what it charges through describe(), called only when the
  // budget refuses: for charges made on every run of cells, where building
  // the words each time cost an allocation a run (16.7 million reading an
  // 8192^2 soup).
  template <class Describe>
  void charge_described(uint64_t bytes, const Describe& describe, int64_t line, int64_t column) {
    const uint64_t total = saturating_add(charged_, bytes);
    if (!fits_memory_budget(total)) check_input_memory(total, describe(), source_, line, column);
    charged_ = total;
  }
  void release(uint64_t bytes) { charged_ -= bytes; }
  uint64_t charged() const { return charged_; }

  [[noreturn]] void fail(std::string_view what) const { fail_at(line_, column_, what); }
  [[noreturn]] void fail_at(int64_t line, int64_t column, std::string_view what) const;

 private:
  // Not a line ending or a control byte.
  static bool is_plain(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte != 0x7f;
  }
  static bool is_control(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && byte != '\t' && byte != '\f' && byte != '\v' && byte != '\n' &&
            byte != '\r') ||
           byte == 0x7f;
  }
  // peek() and get() at the end of the buffer, at line endings and at
  // control bytes.
  int peek_special();
  int get_special();
  // Refills the buffer after pos_; false at the end of the text.
  bool fill();
  [[noreturn]] void fail_binary(char c) const;

  ByteSource& bytes_;
  std::string source_;
  std::vector<char> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  bool at_end_ = false;
  int64_t line_ = 1;
  int64_t column_ = 1;
  int64_t last_line_end_ = 1;  // the column where the previous line ended
  uint64_t charged_ = 0;
};

// One line read whole, for the line-oriented parts of the formats.
struct TextLine {
  std::string_view text;     // without the line ending
  int64_t number = 0;        // 1-based
  int64_t first_column = 1;  // the column of text[0]: lines may be read from mid-line
};

// Throws InputError at `line`, the column of text[index].
[[noreturn]] void fail_at(std::string_view source, const TextLine& line, size_t index,
                          std::string_view what);

// A printable rendering of one byte for messages: 'x' or byte 0x1f.
std::string describe_char(char c);

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
std::string_view trim(std::string_view text);

// Parses an optionally signed decimal int64 at text[pos]; advances pos.
// Throws InputError (naming `what`) on a missing number or overflow.
int64_t parse_int64_at(std::string_view source, const TextLine& line, size_t& pos,
                       std::string_view what);
// Likewise an unsigned decimal uint64 (no sign).
uint64_t parse_uint64_at(std::string_view source, const TextLine& line, size_t& pos,
                         std::string_view what);

// What keeping one comment line of `length` bytes costs: the string in the
// pattern's vector (with the vector's growth) and its heap text.
constexpr uint64_t comment_bytes(size_t length) { return 64 + length; }

// Every cell a reader loads lies in [-kPlaneLimit, kPlaneLimit): the plane
// the engine runs on, so bounding-box widths fit in 64 bits and whatever is
// read can also be run and written back.
inline constexpr int64_t kPlaneLimit = int64_t{1} << 62;

// Adds runs of live cells to a CellSet. Before a run creates tiles, what
// they cost is charged to the reader's account.
class CellSink {
 public:
  CellSink(CellSet& cells, TextReader& in) : cells_(cells), in_(in) {}
  // Sets cells (x .. x+length-1, y), all within the plane; (line, column)
  // locate the run for a refusal over the memory budget.
  void add_run(int64_t x, int64_t y, int64_t length, int64_t line, int64_t column) {
    if (!add_run_if_known(x, y, length)) add_run_charged(x, y, length, line, column);
  }
  // add_run() for nearly every run of a soup: inside one tile already made,
  // so no charge and no lookup in the CellSet's tree. False, adding
  // nothing, for any other run.
  bool add_run_if_known(int64_t x, int64_t y, int64_t length) {
    const int offset = offset_in_tile(x);
    if (offset + length > kTileSize) return false;
    uint64_t* const row = known_row(x, y);
    if (row == nullptr) return false;
    *row |= run_bits(offset, length);
    return true;
  }
  // The row word holding cell (x, y) in a tile already made, or null: for
  // a reader that sets a tile row's bits itself (run_bits) before the
  // runs leave it.
  uint64_t* known_row(int64_t x, int64_t y) {
    Tile* const tile = known_tile({tile_of(x), tile_of(y)});
    return tile == nullptr ? nullptr : &tile->rows[offset_in_tile(y)];
  }
  // Bits offset .. offset+length-1 of a row, 0 < length <= 64 - offset.
  static uint64_t run_bits(int64_t offset, int64_t length) {
    const uint64_t ones = length == kTileSize ? ~uint64_t{0} : (uint64_t{1} << length) - 1;
    return ones << offset;
  }

 private:
  void add_run_charged(int64_t x, int64_t y, int64_t length, int64_t line, int64_t column);
  // The tile at coord if the caches hold it (it then exists), then the one
  // cached; null if not.
  Tile* known_tile(TileCoord coord) {
    if (cached_tile_ != nullptr && cached_coord_ == coord) return cached_tile_;
    Tile* const tile = known_in_row(coord);
    if (tile != nullptr) {
      cached_coord_ = coord;
      cached_tile_ = tile;
    }
    return tile;
  }
  Tile* known_in_row(TileCoord coord);
  // The tile at coord, made if absent, and noted in the caches.
  Tile* tile_at(TileCoord coord);

  CellSet& cells_;
  TextReader& in_;
  TileCoord cached_coord_{};
  Tile* cached_tile_ = nullptr;
  // The tiles of the tile row last written, in column order, as a reader
  // moving along a row meets them: the next row of cells finds each by a
  // short search here rather than in the CellSet's tree (a million
  // lookups, a quarter of the loading time, for an 8192^2 soup). Only
  // tiles east of all the others are added, so out-of-order formats cost
  // no more than the tree alone; it holds at most one entry per tile made.
  int64_t row_ty_ = 0;
  std::vector<std::pair<int64_t, Tile*>> row_tiles_;
  size_t row_next_ = 0;  // the entry after the one last found
};

// Cursor arithmetic of the readers: wide enough that no count or position
// in a file can overflow it before it is checked.
__extension__ typedef __int128 WideInt;

[[noreturn]] void fail_beyond_plane(const TextReader& in, int64_t line, int64_t column);

// Throws InputError at (line, column) unless every cell (x .. x+length-1, y)
// lies within the plane (kPlaneLimit).
inline void check_in_plane(const TextReader& in, WideInt x, WideInt y, WideInt length, int64_t line,
                           int64_t column) {
  const auto inside = [](WideInt v) { return v >= -kPlaneLimit && v < kPlaneLimit; };
  if (!inside(x) || !inside(x + length - 1) || !inside(y)) fail_beyond_plane(in, line, column);
}

}  // namespace gol::patterns
