// Loading and saving patterns: files in RLE, plaintext (.cells), Life 1.05,
// Life 1.06 and macrocell (each optionally gzip-compressed), built-in
// patterns and random soups, all behind one spec string.
#pragma once

#include <string>
#include <string_view>

#include "engine/core/pattern.h"
#include "patterns/text_input.h"

namespace gol::patterns {

// `spec` is a file path, "builtin:NAME" or "soup:WxH[:DENSITY[:SEED]]".
// Throws InputError (exit code 3) for anything it cannot load.
Pattern load_pattern(std::string_view spec);

// Reads a pattern file a chunk at a time, so memory follows the live cells,
// not the file; gzip is detected by its magic bytes, the format by content.
// A missing or unreadable file is an InputError naming the path.
Pattern read_pattern_file(const std::string& path);

// Reads a pattern whose format is detected by content.
Pattern read_pattern(TextReader& in);
// read_pattern over text in memory; `source` names it in error messages.
Pattern parse_pattern(std::string_view text, std::string_view source);

// Writes `data` next to `path` under a unique temporary name, flushes it to
// disk, then renames it over `path` so readers never see a partial file.
// RuntimeError naming the path when it cannot.
void write_atomically(const std::string& path, std::string_view data);

// Writes by extension: .rle, .cells, .mc, or any of them followed by .gz
// (compressed).
// The data goes to a temporary file in the same directory, then is renamed
// over `path`. Unknown extension: UsageError; I/O failure: RuntimeError.
void write_pattern_file(const std::string& path, const Pattern& p);

// RLE with "#CXRLE Pos=" (absolute coordinates) and the rule; on a torus the
// cells are moved into Golly's window [-W/2, W/2) x [-H/2, H/2).
std::string to_rle(const Pattern& p);
// Plaintext with a "!Name:" line. Positions are relative to the bounding
// box (the format has no origin). Throws RuntimeError, before building any
// of it, when the text would not fit the memory budget.
std::string to_cells(const Pattern& p);

}  // namespace gol::patterns
