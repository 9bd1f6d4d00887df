// Pattern specs, file and standard input reading (gzip by magic bytes,
// format by content or as told) and pattern file writing.
#include "patterns/pattern_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "engine/core/output_file.h"
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

// Positions `in` at the start of the first line holding more than blanks
// (blank lines are consumed, nothing of that line is) and returns as much of
// that line as the reader's lookahead holds.
std::string_view first_text_line(TextReader& in) {
  while (true) {
    const std::string_view ahead = in.lookahead(TextReader::kBufferSize);
    if (ahead.empty()) throw InputError(in.source(), 0, 0, "empty file: no pattern data");
    size_t line_start = 0;
    size_t i = 0;
    while (i < ahead.size() && (is_blank(ahead[i]) || ahead[i] == '\n' || ahead[i] == '\r')) {
      if (ahead[i] == '\n' || ahead[i] == '\r') line_start = i + 1;
      ++i;
    }
    // Consumed through the reader, so its line numbers stay right; a "\r\n"
    // is one get().
    const size_t skip = i == ahead.size() ? i : line_start;
    for (size_t k = 0; k < skip; ++k) {
      if (ahead[k] == '\r' && k + 1 < skip && ahead[k + 1] == '\n') ++k;
      in.get();
    }
    if (i < ahead.size()) {
      const std::string_view line = in.lookahead(TextReader::kBufferSize);
      return line.substr(0, line.find_first_of("\r\n"));
    }
  }
}

// Files people try that are no pattern gol reads, named plainly rather
// than by their first character. nullptr for anything else.
const char* foreign_format(std::string_view first) {
  struct Known {
    std::string_view start;
    const char* name;
  };
  static constexpr Known kKnown[] = {
      {"#MCell", "MCell files"},         {"@RULE", "Golly rule files (@RULE)"},
      {"\x89PNG", "PNG images"},         {"PK\x03\x04", "zip archives"},
      {"BZh", "bzip2-compressed files"}, {"\xFD\x37zXZ", "xz-compressed files"},
  };
  for (const Known& known : kKnown) {
    if (first.starts_with(known.start)) return known.name;
  }
  return nullptr;
}

// Chooses the format from the first non-blank line, as Golly does, with
// headerless Life 1.06 ("x y" lines) recognised too. Consumes only the
// blank lines before it.
Format detect_format(TextReader& in) {
  const std::string_view line = first_text_line(in);
  const size_t at = line.find_first_not_of(" \t\f\v");
  const std::string_view first = trim(line);
  const char c = first.front();
  const int64_t column = 1 + static_cast<int64_t>(at);
  // Golly opens a macrocell file by its "[M2]" header; the reader names
  // any other bracketed header as an unsupported version.
  if (c == '[') return Format::kMacrocell;
  if (first.starts_with("#Life 1.05")) return Format::kLife105;
  if (first.starts_with("#Life 1.06")) return Format::kLife106;
  if (first.starts_with("#Life")) {
    in.fail_at(in.line(), column,
               "unsupported Life format version (expected #Life 1.05 or #Life 1.06)");
  }
  if (const char* foreign = foreign_format(first)) {
    in.fail_at(in.line(), column,
               std::string(foreign) +
                   " are not supported (gol reads RLE, plaintext .cells, Life 1.05, Life 1.06 "
                   "and macrocell, each optionally gzipped)");
  }
  if (c == '!' || c == '.' || c == 'O' || c == '*') return Format::kCells;
  if (looks_like_life106_line(first)) return Format::kLife106;
  if (c == '#' || c == 'x' || c == 'b' || c == 'o' || c == '$' || (c >= '0' && c <= '9')) {
    return Format::kRle;
  }
  // A control byte is refused as binary data by the reader, at its place.
  for (size_t k = 0; k < at; ++k) in.get();
  in.peek();
  in.fail_at(in.line(), column,
             "unrecognised pattern format: starts with " + describe_char(c) +
                 " (expected RLE, plaintext .cells, Life 1.05, Life 1.06 or macrocell)");
}

// A pattern file read a chunk at a time. The first bytes are read ahead so
// gzip can be told from text by its magic bytes.
class FileSource final : public ByteSource {
 public:
  // Standard input, named `name` in messages; not closed.
  struct StandardInput {};
  FileSource(StandardInput, const std::string& name)
      : path_(name), fd_(STDIN_FILENO), owned_(false) {}

  explicit FileSource(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      const int error = errno;
      throw InputError(path, 0, 0,
                       error == ENOENT
                           ? std::string("cannot open pattern file: no such file")
                           : std::string("cannot open pattern file: ") + std::strerror(error));
    }
    struct stat info {};
    if (::fstat(fd_, &info) == 0 && S_ISDIR(info.st_mode)) {
      ::close(fd_);
      throw InputError(path, 0, 0, "cannot open pattern file: it is a directory");
    }
  }
  ~FileSource() override {
    if (owned_) ::close(fd_);
  }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  // The first `size` bytes (fewer in a shorter file), kept for read().
  std::string_view head(size_t size) {
    while (head_.size() < size && !ended_) {
      char buffer[64];
      const size_t count = read_file(buffer, std::min(sizeof buffer, size - head_.size()));
      if (count == 0) ended_ = true;
      head_.append(buffer, count);
    }
    return std::string_view(head_).substr(0, size);
  }

  size_t read(char* buffer, size_t size) override {
    if (head_used_ < head_.size()) {
      const size_t count = std::min(size, head_.size() - head_used_);
      std::memcpy(buffer, head_.data() + head_used_, count);
      head_used_ += count;
      return count;
    }
    return ended_ ? 0 : read_file(buffer, size);
  }

 private:
  size_t read_file(char* buffer, size_t size) {
    while (true) {
      const ssize_t count = ::read(fd_, buffer, size);
      if (count >= 0) return static_cast<size_t>(count);
      if (errno != EINTR) {
        throw InputError(
            path_, 0, 0,
            std::string("read error while loading the pattern file: ") + std::strerror(errno));
      }
    }
  }

  std::string path_;
  int fd_ = -1;
  bool owned_ = true;
  std::string head_;
  size_t head_used_ = 0;
  bool ended_ = false;
};

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

Pattern read_pattern_as(TextReader& in, PatternFormat format) {
  switch (format) {
    case PatternFormat::kRle:
      return read_rle(in);
    case PatternFormat::kCells:
      return read_cells(in);
    case PatternFormat::kMacrocell:
      return read_macrocell(in);
  }
  GOL_CHECK(false);
}

// A file or standard input: gunzipped as it is read when it starts with
// gzip's magic, then read as `format` or as its content suggests.
Pattern read_source(FileSource& file, const std::string& source, const std::string& name,
                    std::optional<PatternFormat> format) {
  std::optional<GzipSource> gzip;
  if (is_gzip(file.head(2))) gzip.emplace(file, source, memory_budget());
  TextReader in(gzip ? static_cast<ByteSource&>(*gzip) : file, source);
  Pattern pattern = format ? read_pattern_as(in, *format) : read_pattern(in);
  if (pattern.name.empty()) pattern.name = name;
  return pattern;
}

}  // namespace

Pattern read_pattern(TextReader& in) {
  switch (detect_format(in)) {
    case Format::kRle:
      return read_rle(in);
    case Format::kCells:
      return read_cells(in);
    case Format::kLife105:
      return read_life105(in);
    case Format::kLife106:
      return read_life106(in);
    case Format::kMacrocell:
      return read_macrocell(in);
  }
  GOL_CHECK(false);
}

Pattern parse_pattern(std::string_view text, std::string_view source) {
  MemorySource bytes(text);
  TextReader in(bytes, source);
  return read_pattern(in);
}

Pattern read_pattern_file(const std::string& path, std::optional<PatternFormat> format) {
  FileSource file(path);
  return read_source(file, path, file_name_of(path), format);
}

Pattern load_pattern(std::string_view spec, std::optional<PatternFormat> format) {
  if (spec == "-") {
    FileSource input(FileSource::StandardInput{}, "<stdin>");
    return read_source(input, "<stdin>", "stdin", format);
  }
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
  return read_pattern_file(std::string(spec), format);
}

std::optional<PatternFormat> pattern_format_named(std::string_view name) {
  if (name == "rle") return PatternFormat::kRle;
  if (name == "cells") return PatternFormat::kCells;
  if (name == "mc") return PatternFormat::kMacrocell;
  return std::nullopt;
}

std::optional<OutputFormat> output_format_of(std::string_view path) {
  std::string name = lower(path);
  OutputFormat format;
  format.gzip = ends_with(name, ".gz");
  if (format.gzip) name.resize(name.size() - 3);
  if (ends_with(name, ".rle")) return format;
  if (ends_with(name, ".cells")) {
    format.format = PatternFormat::kCells;
  } else if (ends_with(name, ".mc")) {
    format.format = PatternFormat::kMacrocell;
  } else {
    return std::nullopt;
  }
  return format;
}

std::string pattern_text(const Pattern& p, PatternFormat format) {
  switch (format) {
    case PatternFormat::kRle:
      return to_rle(p);
    case PatternFormat::kCells:
      return to_cells(p);
    case PatternFormat::kMacrocell:
      return to_macrocell(p);
  }
  GOL_CHECK(false);
}

void write_pattern_file(const std::string& path, const Pattern& p,
                        std::optional<OutputFormat> format) {
  if (!format) format = output_format_of(path);
  if (!format) {
    throw UsageError("cannot tell the output format of '" + path +
                     "': use a name ending in .rle, .cells or .mc, optionally followed by .gz");
  }
  const std::string text = pattern_text(p, format->format);
  write_file_atomically(path, format->gzip ? gzip(text) : text);
}

}  // namespace gol::patterns
