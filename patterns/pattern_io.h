// Loading and saving patterns: files in RLE, plaintext (.cells), Life 1.05,
// Life 1.06 and macrocell (each optionally gzip-compressed), built-in
// patterns and random soups, all behind one spec string.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/core/pattern.h"
#include "patterns/text_input.h"

namespace gol::patterns {

// The formats gol writes, and reads when told to (--format).
enum class PatternFormat { kRle, kCells, kMacrocell };

// A file name's output format: .rle, .cells or .mc, optionally followed by
// .gz (in any case).
struct OutputFormat {
  PatternFormat format = PatternFormat::kRle;
  bool gzip = false;
};
// nullopt when the name ends in none of them.
std::optional<OutputFormat> output_format_of(std::string_view path);
// "rle", "cells", "mc", or nullopt for any other name.
std::optional<PatternFormat> pattern_format_named(std::string_view name);

// `spec` is a file path, "-" (standard input), "builtin:NAME" or
// "soup:WxH[:DENSITY[:SEED]]". `format` makes a file or standard input be
// read as that format instead of the one its content suggests. Throws
// InputError (exit code 3) for anything it cannot load.
Pattern load_pattern(std::string_view spec, std::optional<PatternFormat> format = {});

// Reads a pattern file a chunk at a time, so memory follows the live cells,
// not the file; gzip is detected by its magic bytes, the format by content
// unless `format` is given. A missing or unreadable file is an InputError
// naming the path.
Pattern read_pattern_file(const std::string& path, std::optional<PatternFormat> format = {});

// Reads a pattern whose format is detected by content.
Pattern read_pattern(TextReader& in);
// read_pattern over text in memory; `source` names it in error messages.
Pattern parse_pattern(std::string_view text, std::string_view source);

// Writes by extension: .rle, .cells, .mc, or any of them followed by .gz
// (compressed), or as `format` says. Through write_file_atomically
// (engine/core/output_file.h): all or nothing. Unknown extension and no
// `format`: UsageError; I/O failure: RuntimeError.
void write_pattern_file(const std::string& path, const Pattern& p,
                        std::optional<OutputFormat> format = {});

// The pattern as text in `format` (to_rle, to_cells or to_macrocell).
std::string pattern_text(const Pattern& p, PatternFormat format);

// RLE with "#CXRLE Pos=" (absolute coordinates) and the rule; on a torus the
// cells are moved into Golly's window [-W/2, W/2) x [-H/2, H/2).
std::string to_rle(const Pattern& p);
// Plaintext with a "!Name:" line. Positions are relative to the bounding
// box (the format has no origin). Throws RuntimeError, before building any
// of it, when the text would not fit the memory budget.
std::string to_cells(const Pattern& p);

}  // namespace gol::patterns
