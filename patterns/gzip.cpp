// gzip through zlib's inflate/deflate with a gzip wrapper (window bits
// 16 + 15). Decompression runs into the reader's own buffer, a chunk at a
// time, so a hostile stream never makes us hold more than that chunk.
#include "patterns/gzip.h"

#include <algorithm>
#include <cstring>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::patterns {
namespace {

constexpr size_t kChunk = size_t{1} << 16;
constexpr int kGzipWindowBits = 16 + MAX_WBITS;

}  // namespace

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

GzipSource::GzipSource(ByteSource& compressed, std::string_view source, uint64_t max_output)
    : compressed_(compressed), source_(source), max_output_(max_output), input_(kChunk) {
  if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) {
    throw RuntimeError("zlib: cannot initialise the gzip decompressor");
  }
}

GzipSource::~GzipSource() { inflateEnd(&stream_); }

bool GzipSource::refill() {
  if (input_ended_) return stream_.avail_in > 0;
  const size_t kept = stream_.avail_in;
  // next_in is null before the first read; memmove may not be given null.
  if (kept > 0) std::memmove(input_.data(), stream_.next_in, kept);
  const size_t count = compressed_.read(input_.data() + kept, input_.size() - kept);
  if (count == 0) input_ended_ = true;
  stream_.next_in = reinterpret_cast<Bytef*>(input_.data());
  stream_.avail_in = static_cast<uInt>(kept + count);
  return stream_.avail_in > 0;
}

bool GzipSource::next_member() {
  while (stream_.avail_in < 2 && !input_ended_) refill();
  if (!is_gzip({reinterpret_cast<const char*>(stream_.next_in), stream_.avail_in})) return false;
  inflateReset(&stream_);
  member_ended_ = false;
  return true;
}

size_t GzipSource::read(char* buffer, size_t size) {
  stream_.next_out = reinterpret_cast<Bytef*>(buffer);
  stream_.avail_out = static_cast<uInt>(std::min<size_t>(size, UINT32_MAX));
  const uInt room = stream_.avail_out;
  while (stream_.avail_out == room && !finished_) {
    // Bytes after the last member that are not another member are ignored,
    // as gzip -d does with trailing zeros.
    if (member_ended_ && !next_member()) {
      finished_ = true;
      break;
    }
    if (stream_.avail_in == 0 && !refill()) {
      throw InputError(source_, 0, 0, "gzip data is truncated (the stream ends early)");
    }
    const int status = inflate(&stream_, Z_NO_FLUSH);
    if (status == Z_STREAM_END) {
      member_ended_ = true;
    } else if (status != Z_OK && status != Z_BUF_ERROR) {
      throw InputError(
          source_, 0, 0,
          std::string("corrupt gzip data: ") + (stream_.msg != nullptr ? stream_.msg : "error"));
    }
  }
  const size_t count = room - stream_.avail_out;
  produced_ += count;
  if (produced_ > max_output_) {
    throw InputError(source_, 0, 0,
                     "gzip data decompresses to more than " + format_bytes(max_output_) +
                         ", the memory budget (set it with --max-memory)");
  }
  return count;
}

std::string gzip(std::string_view data) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw RuntimeError("zlib: cannot initialise the gzip compressor");
  }
  std::string out;
  size_t consumed = 0;
  int status = Z_OK;
  // Fed in chunks because zlib counts bytes in 32-bit fields.
  while (status != Z_STREAM_END) {
    if (z.avail_in == 0 && consumed < data.size()) {
      const size_t take = std::min(kChunk, data.size() - consumed);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + consumed));
      z.avail_in = static_cast<uInt>(take);
      consumed += take;
    }
    const size_t before = out.size();
    out.resize(before + kChunk);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + before);
    z.avail_out = static_cast<uInt>(kChunk);
    status = deflate(&z, consumed == data.size() ? Z_FINISH : Z_NO_FLUSH);
    out.resize(before + kChunk - z.avail_out);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
      deflateEnd(&z);
      throw RuntimeError("zlib: gzip compression failed");
    }
  }
  deflateEnd(&z);
  return out;
}

}  // namespace gol::patterns
