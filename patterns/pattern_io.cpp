// Pattern specs, file reading (gzip by magic bytes, format by content) and
// atomic file writing (temporary file in the same directory, then rename).
#include "patterns/pattern_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/core/error.h"
#include "patterns/catalogue.h"
#include "patterns/gzip.h"
#include "patterns/macrocell.h"
#include "patterns/rle.h"
#include "patterns/soup.h"
#include "patterns/text_formats.h"
#include "patterns/text_input.h"

namespace gol::patterns {
namespace {

enum class Format { kRle, kCells, kLife105, kLife106, kMacrocell };

bool looks_like_life106_line(std::string_view line) {
  size_t pos = 0;
  int numbers = 0;
  while (pos < line.size()) {
    while (pos < line.size() && is_blank(line[pos])) ++pos;
    if (pos == line.size()) break;
    if (line[pos] == '-' || line[pos] == '+') ++pos;
    const size_t digits = pos;
    while (pos < line.size() && line[pos] >= '0' && line[pos] <= '9') ++pos;
    if (pos == digits || (pos < line.size() && !is_blank(line[pos]))) return false;
    ++numbers;
  }
  return numbers == 2;
}

// Chooses the format from the first non-blank line, as Golly does, with
// headerless Life 1.06 ("x y" lines) recognised too.
Format detect_format(std::string_view text, std::string_view source) {
  LineCursor lines(text, source);
  TextLine line;
  while (lines.next(line)) {
    const std::string_view first = trim(line.text);
    if (first.empty()) continue;
    // Golly opens a macrocell file by its "[M2]" header; the reader names
    // any other bracketed header as an unsupported version.
    if (first.front() == '[') return Format::kMacrocell;
    if (first.starts_with("#Life 1.05")) return Format::kLife105;
    if (first.starts_with("#Life 1.06")) return Format::kLife106;
    if (first.starts_with("#Life")) {
      fail_at(source, line, line.text.find('#'),
              "unsupported Life format version (expected #Life 1.05 or #Life 1.06)");
    }
    if (first.front() == '!' || first.front() == '.' || first.front() == 'O' ||
        first.front() == '*') {
      return Format::kCells;
    }
    if (looks_like_life106_line(first)) return Format::kLife106;
    const char c = first.front();
    if (c == '#' || c == 'x' || c == 'b' || c == 'o' || c == '$' || c == '!' ||
        (c >= '0' && c <= '9')) {
      return Format::kRle;
    }
    fail_at(source, line, line.text.find(c),
            "unrecognised pattern format: starts with " + describe_char(c) +
                " (expected RLE, plaintext .cells, Life 1.05, Life 1.06 or macrocell)");
  }
  throw InputError(source, 0, 0, "empty file: no pattern data");
}

std::string read_file_bytes(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    throw InputError(path, 0, 0, "cannot open pattern file: no such file");
  }
  if (std::filesystem::is_directory(status)) {
    throw InputError(path, 0, 0, "cannot open pattern file: it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, 0, 0, std::string("cannot open pattern file: ") + std::strerror(errno));
  std::string bytes;
  // Sized once from the file's length (capped), so a large pattern is not
  // held twice while the string doubles.
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) bytes.reserve(static_cast<size_t>(std::min<uintmax_t>(size, kMaxPatternBytes)) + 1);
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    bytes.append(buffer, static_cast<size_t>(in.gcount()));
    if (bytes.size() > kMaxPatternBytes) {
      throw InputError(path, 0, 0, "pattern file is larger than 1 GiB; refusing to load it");
    }
  }
  if (in.bad()) throw InputError(path, 0, 0, "read error while loading the pattern file");
  return bytes;
}

std::string file_name_of(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

[[noreturn]] void fail_write(const std::string& path, const std::string& what) {
  throw RuntimeError("cannot write '" + path + "': " + what);
}

// Writes `data` next to `path` under a unique temporary name, flushes it to
// disk, then renames it over `path` so readers never see a partial file.
void write_atomically(const std::string& path, std::string_view data) {
  std::string temp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) fail_write(path, std::strerror(errno));
  const auto fail_and_clean = [&](const std::string& what) {
    ::close(fd);
    ::unlink(temp.c_str());
    fail_write(path, what);
  };
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_and_clean(std::strerror(errno));
    written += static_cast<size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) fail_and_clean(std::strerror(errno));
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    fail_write(path, std::strerror(errno));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string what = std::strerror(errno);
    ::unlink(temp.c_str());
    fail_write(path, what);
  }
}

}  // namespace

Pattern parse_pattern(std::string_view text, std::string_view source) {
  // Editors on some systems prefix UTF-8 text with a byte-order mark.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  switch (detect_format(text, source)) {
    case Format::kRle:
      return parse_rle(text, source);
    case Format::kCells:
      return parse_cells(text, source);
    case Format::kLife105:
      return parse_life105(text, source);
    case Format::kLife106:
      return parse_life106(text, source);
    case Format::kMacrocell:
      return parse_macrocell(text, source);
  }
  GOL_CHECK(false);
}

Pattern read_pattern_file(const std::string& path) {
  std::string bytes = read_file_bytes(path);
  if (is_gzip(bytes)) bytes = gunzip(bytes, path, kMaxPatternBytes);
  Pattern pattern = parse_pattern(bytes, path);
  if (pattern.name.empty()) pattern.name = file_name_of(path);
  return pattern;
}

Pattern load_pattern(std::string_view spec) {
  if (spec.empty())
    throw InputError("empty pattern name (expected a file, builtin:NAME or soup:WxH)");
  if (spec.starts_with("builtin:")) return builtin_pattern(spec.substr(8));
  if (spec.starts_with("soup:")) {
    const SoupSpec soup = parse_soup_spec(spec.substr(5));
    Pattern pattern;
    pattern.cells = make_soup(soup);
    pattern.name = soup_name(soup);
    pattern.format = "soup";
    return pattern;
  }
  return read_pattern_file(std::string(spec));
}

void write_pattern_file(const std::string& path, const Pattern& p) {
  std::string name = lower(path);
  const bool compress = ends_with(name, ".gz");
  if (compress) name.resize(name.size() - 3);
  std::string text;
  if (ends_with(name, ".rle")) {
    text = to_rle(p);
  } else if (ends_with(name, ".cells")) {
    text = to_cells(p);
  } else if (ends_with(name, ".mc")) {
    text = to_macrocell(p);
  } else {
    throw UsageError("cannot tell the output format of '" + path +
                     "': use a name ending in .rle, .cells or .mc, optionally followed by .gz");
  }
  write_atomically(path, compress ? gzip(text) : text);
}

}  // namespace gol::patterns
