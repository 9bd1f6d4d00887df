// gzip compression, and decompression as a ByteSource so a compressed
// pattern is read a chunk at a time, never inflated whole.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "patterns/text_input.h"

namespace gol::patterns {

// True when `data` starts with the gzip magic bytes 1f 8b.
bool is_gzip(std::string_view data);

// The decompressed bytes of every gzip member in `compressed` (as gzip -d
// reads concatenated members). Throws InputError naming `source` when the
// stream is corrupt or truncated, or once it has produced more than
// `max_output` bytes: the budget bounds the time a gzip bomb can take, as
// the memory is bounded by reading a chunk at a time.
class GzipSource final : public ByteSource {
 public:
  GzipSource(ByteSource& compressed, std::string_view source, uint64_t max_output);
  ~GzipSource() override;
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  size_t read(char* buffer, size_t size) override;

 private:
  // Moves unread input to the front and reads more; false at its end.
  bool refill();
  // At the end of a member: true when another member follows.
  bool next_member();

  ByteSource& compressed_;
  std::string source_;
  uint64_t max_output_;
  uint64_t produced_ = 0;
  std::vector<char> input_;
  z_stream stream_{};
  bool input_ended_ = false;
  bool member_ended_ = false;
  bool finished_ = false;
};

// A single gzip member holding `data` (default compression level).
std::string gzip(std::string_view data);

}  // namespace gol::patterns
