// gzip through zlib's inflate/deflate with a gzip wrapper (window bits
// 16 + 15). Output is produced in chunks so a hostile stream can never make
// us allocate more than the caller's cap.
#include "patterns/gzip.h"

#include <zlib.h>

#include <algorithm>

#include "engine/core/error.h"

namespace gol::patterns {
namespace {

constexpr size_t kChunk = size_t{1} << 20;
constexpr int kGzipWindowBits = 16 + MAX_WBITS;

class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) {
      throw RuntimeError("zlib: cannot initialise the gzip decompressor");
    }
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
};

std::string describe_size(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string gunzip(std::string_view data, std::string_view source, size_t max_output) {
  Inflater inflater;
  z_stream& z = inflater.stream();
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(std::min<size_t>(data.size(), UINT32_MAX));
  std::string out;
  while (true) {
    const size_t before = out.size();
    const size_t room = std::min(kChunk, max_output + 1 - before);
    out.resize(before + room);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + before);
    z.avail_out = static_cast<uInt>(room);
    const int status = inflate(&z, Z_NO_FLUSH);
    out.resize(before + room - z.avail_out);
    if (out.size() > max_output) {
      throw InputError(source, 0, 0,
                       "gzip data decompresses to more than " + describe_size(max_output) +
                           "; refusing to load it");
    }
    if (status == Z_STREAM_END) {
      // Concatenated members are one stream (as gzip -d reads them).
      if (z.avail_in == 0 || !is_gzip({reinterpret_cast<const char*>(z.next_in), z.avail_in})) {
        return out;
      }
      inflateReset(&z);
      continue;
    }
    if (status == Z_BUF_ERROR && z.avail_in == 0) {
      throw InputError(source, 0, 0, "gzip data is truncated (the stream ends early)");
    }
    if (status != Z_OK && status != Z_BUF_ERROR) {
      throw InputError(source, 0, 0,
                       std::string("corrupt gzip data: ") + (z.msg != nullptr ? z.msg : "error"));
    }
  }
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
