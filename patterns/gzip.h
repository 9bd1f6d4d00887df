// gzip compression and bounded decompression for pattern files.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gol::patterns {

// True when `data` starts with the gzip magic bytes 1f 8b.
bool is_gzip(std::string_view data);

// Decompresses every gzip member in `data`. Throws InputError naming
// `source` when the stream is corrupt or truncated, or when it would
// decompress to more than `max_output` bytes.
std::string gunzip(std::string_view data, std::string_view source, size_t max_output);

// A single gzip member holding `data` (default compression level).
std::string gzip(std::string_view data);

}  // namespace gol::patterns
