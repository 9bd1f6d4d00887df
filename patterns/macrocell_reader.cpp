// Macrocell reader. Nodes are kept as the file gives them (shared, never
// expanded while reading); each carries an upper bound on the 64x64 tiles
// it fills, so a pattern too large for memory is refused before any tile is
// allocated. Expansion then converts each distinct level-6 node (one 64x64
// block) into a tile once and copies it to every place it occurs.
#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"
#include "engine/core/rule.h"
#include "patterns/macrocell.h"
#include "patterns/text_input.h"

namespace gol::patterns {
namespace {

__extension__ using Wide = __int128;

// A level-6 node is one 64x64 block, the size of our tiles.
constexpr int kBlockLevel = kTileBits;
// Levels up to 3 (8x8) keep their cells in one word: row r, column c is bit
// 8 * r + c, whatever the level, so quadrants combine by shifting.
constexpr int kSmallLevel = 3;
// A root of level 65 spans every 64-bit coordinate (and a little more); a
// deeper root must have all its cells inside its level-65 centre.
constexpr int kMaxRootLevel = 65;
// The plane every reader loads into (text_input.h), so what is read can be
// run and written back.
constexpr Wide kMinCoordinate = -kPlaneLimit;
constexpr Wide kMaxCoordinate = kPlaneLimit - 1;

struct Node {
  int level = 0;
  std::array<uint32_t, 4> children{};  // nw, ne, sw, se; 0 is the empty node
  bool live_above_bottom_row = false;
  bool live_in_bottom_row = false;
  uint64_t small_cells = 0;  // levels 1 to 3 only
  // For levels >= 6: at most how many of our tiles the node fills when its
  // blocks sit one row below the tile grid, as they do under a root of
  // level 7 or more (see expand_root). Saturates instead of overflowing.
  uint64_t tiles = 0;

  bool any_live() const { return live_above_bottom_row || live_in_bottom_row; }
};

// Golly's rules have at most 256 states; larger numbers are not states.
constexpr int64_t kMaxStates = 256;
// Deeper nodes than this are refused: a 2^4096-wide universe is far beyond
// any pattern, and the limit keeps level arithmetic in an int.
constexpr int64_t kMaxLevel = 4096;
std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while (true) {
    while (pos < text.size() && is_blank(text[pos])) ++pos;
    if (pos == text.size()) return words;
    const size_t start = pos;
    while (pos < text.size() && !is_blank(text[pos])) ++pos;
    words.push_back(text.substr(start, pos - start));
  }
}

// What expanding costs besides the tiles' own bytes, per tile: the map node
// around each (tree links and key, rounded to the tile's 64-byte
// alignment), and the two placement records of a block with its memoised
// drawing (at most one per tile).
constexpr uint64_t kBytesPerTile = sizeof(Tile) + 64;
constexpr uint64_t kBytesPerPlacedBlock = 2 * 24;
constexpr uint64_t kBytesPerDrawnBlock = sizeof(Tile) + 64;

uint64_t row_mask(int size) { return size >= 8 ? 0xff : (uint64_t{1} << size) - 1; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class MacrocellReader {
 public:
  explicit MacrocellReader(TextReader& in) : in_(in), source_(in.source()) {
    nodes_.reserve(1024);
    nodes_.emplace_back();  // index 0: the empty node
  }

  Pattern read() {
    pattern_.format = "macrocell";
    read_header();
    TextLine line;
    while (next_line(line, line_buffer_)) read_line(line);
    if (rule_error_) throw *rule_error_;
    if (root_ != 0) expand_root();
    if (pattern_.topology) {
      pattern_.cells = pattern_.cells.wrapped(pattern_.topology->width, pattern_.topology->height);
    }
    return std::move(pattern_);
  }

 private:
  [[noreturn]] void fail(const TextLine& line, size_t index, std::string_view what) const {
    fail_at(source_, line, index, what);
  }

  // The next line, read whole into `buffer`; false at the end of the text.
  bool next_line(TextLine& line, std::string& buffer) {
    if (in_.peek() == TextReader::kEnd) return false;
    line.number = in_.line();
    line.first_column = in_.column();
    buffer.clear();
    in_.read_line(buffer, false);
    line.text = buffer;
    return true;
  }

  void keep_comment(std::string_view text, const TextLine& line) {
    in_.charge(comment_bytes(text.size()), "comment lines", line.number, line.first_column);
    pattern_.comments.emplace_back(text);
  }

  void read_header() {
    TextLine line;
    while (next_line(line, line_buffer_)) {
      const std::string_view text = trim(line.text);
      if (text.empty()) continue;
      if (!text.starts_with("[M2]")) {
        fail(line, line.text.find(text.front()),
             "unsupported macrocell header '" + std::string(text.substr(0, 16)) +
                 "' (expected [M2], as Golly writes)");
      }
      return;
    }
    throw InputError(source_, 0, 0, "empty file: no pattern data");
  }

  void read_line(const TextLine& line) {
    const std::string_view text = trim(line.text);
    if (text.empty()) return;
    const size_t start = line.text.find(text.front());
    const char c = text.front();
    if (c == '#') {
      read_hash_line(line, start);
    } else if (c == '.' || c == '*' || c == '$') {
      read_leaf(line, start);
    } else if (is_digit(c)) {
      read_node(line, start);
    } else {
      fail(line, start,
           "unexpected " + describe_char(c) +
               " (expected a leaf of '.', '*' and '$', a node 'level nw ne sw se' or a '#' line)");
    }
  }

  void read_hash_line(const TextLine& line, size_t start) {
    const std::string_view body = line.text.substr(start + 1);
    const char kind = body.empty() ? ' ' : body.front();
    const std::string_view value = trim(body.substr(body.empty() ? 0 : 1));
    const size_t value_column = value.empty() ? start + 1 : line.text.find(value, start + 1);
    switch (kind) {
      case 'R':
        read_rule(line, value_column, value);
        break;
      case 'G':
        read_generation(line, value_column, value);
        break;
      case 'N':
        in_.charge(comment_bytes(value.size()), "the pattern name", line.number, 1);
        pattern_.name = std::string(value);
        break;
      case 'C':
      case 'c':
        keep_comment(value, line);
        break;
      default:
        break;  // Golly's own lines (#FRAMES, #VIEW, ...) say nothing about the cells
    }
  }

  // A rule we cannot run is reported at the end, once the nodes have shown
  // whether the file is multi-state: that is the more useful message.
  void read_rule(const TextLine& line, size_t column, std::string_view rule_text) {
    try {
      const RuleSpec spec = parse_rule(rule_text, "");
      pattern_.rule = spec.rule;
      pattern_.topology = spec.topology;
      rule_error_.reset();
    } catch (const InputError& e) {
      rule_error_.emplace(source_, line.number, static_cast<int64_t>(column) + 1, e.what());
      rule_text_ = std::string(rule_text);
    }
  }

  // Golly writes the generation as plain digits, however large.
  void read_generation(const TextLine& line, size_t column, std::string_view digits) {
    uint64_t generation = 0;
    if (digits.empty()) fail(line, column, "expected a generation after #G");
    for (size_t i = 0; i < digits.size(); ++i) {
      if (!is_digit(digits[i])) {
        fail(line, column + i,
             "unexpected " + describe_char(digits[i]) + " in the generation (expected digits)");
      }
      if (__builtin_mul_overflow(generation, 10, &generation) ||
          __builtin_add_overflow(generation, digits[i] - '0', &generation)) {
        fail(line, column, "generation " + std::string(digits) + " does not fit in 64 bits");
      }
    }
    pattern_.generation = generation;
  }

  // Rows from the top, each ended by '$'; '.' dead, '*' live. Golly accepts
  // dead cells and empty rows past the 8x8 block, and so do we.
  void read_leaf(const TextLine& line, size_t start) {
    uint64_t cells = 0;
    int x = 0;
    int y = 0;
    size_t i = start;
    for (; i < line.text.size() && !is_blank(line.text[i]); ++i) {
      switch (line.text[i]) {
        case '*':
          if (x >= 8 || y >= 8) fail(line, i, "live cell outside the leaf's 8x8 block");
          cells |= uint64_t{1} << (8 * y + x);
          [[fallthrough]];
        case '.':
          if (x < 8) ++x;
          break;
        case '$':
          x = 0;
          if (y < 8) ++y;
          break;
        default:
          fail(line, i,
               "unexpected " + describe_char(line.text[i]) +
                   " in a leaf (expected '.', '*' or '$')");
      }
    }
    expect_line_end(line, i);
    add_node(line, small_node(kSmallLevel, cells));
  }

  void expect_line_end(const TextLine& line, size_t i) const {
    while (i < line.text.size() && is_blank(line.text[i])) ++i;
    if (i < line.text.size()) {
      fail(line, i, "unexpected " + describe_char(line.text[i]) + " after the node");
    }
  }

  void read_node(const TextLine& line, size_t start) {
    size_t pos = start;
    const int64_t level = read_number(line, pos, "node level");
    if (level < 1) fail(line, start, "node level must be at least 1");
    std::array<int64_t, 4> parts{};
    std::array<size_t, 4> columns{};
    for (int q = 0; q < 4; ++q) {
      while (pos < line.text.size() && is_blank(line.text[pos])) ++pos;
      columns[q] = pos;
      parts[q] = read_number(line, pos, level == 1 ? "cell state" : "node number");
    }
    expect_line_end(line, pos);
    if (level == 1) {
      add_node(line, level_one_node(line, columns, parts));
    } else {
      if (level > kMaxLevel) {
        fail(line, start,
             "node level " + std::to_string(level) + " is too deep (at most " +
                 std::to_string(kMaxLevel) + ")");
      }
      add_node(line, combined_node(line, start, static_cast<int>(level), parts));
    }
    root_ = static_cast<uint32_t>(nodes_.size() - 1);
    root_line_ = line.number;
  }

  int64_t read_number(const TextLine& line, size_t& pos, std::string_view what) const {
    if (pos >= line.text.size() || !is_digit(line.text[pos])) {
      fail(line, pos, "expected a " + std::string(what) + " (a non-negative integer)");
    }
    return parse_int64_at(source_, line, pos, what);
  }

  Node level_one_node(const TextLine& line, const std::array<size_t, 4>& columns,
                      const std::array<int64_t, 4>& states) {
    uint64_t cells = 0;
    const int bit[4] = {0, 1, 8, 9};
    for (int q = 0; q < 4; ++q) {
      if (states[q] > 1) fail_multi_state(line, columns[q]);
      if (states[q] == 1) cells |= uint64_t{1} << bit[q];
    }
    return small_node(1, cells);
  }

  // Names the number of states the file uses: the highest state in any
  // level-1 node from here to the end, plus one.
  [[noreturn]] void fail_multi_state(const TextLine& line, size_t column) {
    int64_t highest = highest_state(line.text);
    TextLine node;
    std::string buffer;
    while (next_line(node, buffer)) highest = std::max(highest, highest_state(node.text));
    std::string what =
        "macrocell files with " + std::to_string(highest + 1) + " states are not supported";
    if (rule_error_) what += " (rule '" + rule_text_ + "')";
    fail(line, column, what + ": gol runs two-state rules only");
  }

  // The highest state of a level-1 node line ("1 a b c d"), else 0.
  static int64_t highest_state(std::string_view text) {
    const std::vector<std::string_view> words = split_words(text);
    if (words.size() != 5 || words[0] != "1") return 0;
    int64_t highest = 0;
    for (size_t i = 1; i < words.size(); ++i) {
      int64_t state = 0;
      for (char c : words[i]) {
        if (!is_digit(c) || state > kMaxStates) return highest;
        state = state * 10 + (c - '0');
      }
      highest = std::max(highest, state);
    }
    return highest;
  }

  Node combined_node(const TextLine& line, size_t column, int level,
                     const std::array<int64_t, 4>& parts) {
    std::array<const Node*, 4> children{};
    Node node;
    node.level = level;
    for (int q = 0; q < 4; ++q) {
      if (parts[q] >= static_cast<int64_t>(nodes_.size())) {
        fail(line, column,
             "node " + std::to_string(parts[q]) + " is not defined before this line (" +
                 std::to_string(nodes_.size() - 1) + " nodes so far)");
      }
      node.children[q] = static_cast<uint32_t>(parts[q]);
      children[q] = &nodes_[node.children[q]];
      if (node.children[q] != 0 && children[q]->level != level - 1) {
        fail(line, column,
             "node " + std::to_string(parts[q]) + " has level " +
                 std::to_string(children[q]->level) + " (expected level " +
                 std::to_string(level - 1) + " inside a node of level " + std::to_string(level) +
                 ")");
      }
    }
    return combine(level, node.children);
  }

  // A node of `level` from four existing children (0 for empty ones).
  Node combine(int level, const std::array<uint32_t, 4>& children) const {
    const Node& nw = nodes_[children[0]];
    const Node& ne = nodes_[children[1]];
    const Node& sw = nodes_[children[2]];
    const Node& se = nodes_[children[3]];
    if (level <= kSmallLevel) {
      const int half = 1 << (level - 1);
      return small_node(level, nw.small_cells | ne.small_cells << half |
                                   sw.small_cells << (8 * half) |
                                   se.small_cells << (8 * half + half));
    }
    Node node;
    node.level = level;
    node.children = children;
    node.live_in_bottom_row = sw.live_in_bottom_row || se.live_in_bottom_row;
    node.live_above_bottom_row =
        nw.any_live() || ne.any_live() || sw.live_above_bottom_row || se.live_above_bottom_row;
    if (level == kBlockLevel) {
      // The block's top 63 rows land in one tile, its bottom row in the next.
      node.tiles = uint64_t{node.live_above_bottom_row} + uint64_t{node.live_in_bottom_row};
    } else if (level > kBlockLevel) {
      for (const Node* child : {&nw, &ne, &sw, &se})
        node.tiles = saturating_add(node.tiles, child->tiles);
    }
    return node;
  }

  static Node small_node(int level, uint64_t cells) {
    const int size = 1 << level;
    const uint64_t bottom = row_mask(size) << (8 * (size - 1));
    Node node;
    node.level = level;
    node.small_cells = cells;
    node.live_in_bottom_row = (cells & bottom) != 0;
    node.live_above_bottom_row = (cells & ~bottom) != 0;
    return node;
  }

  // The node table grows with the file, so it is held to the budget too:
  // a file of millions of two-byte leaves must not exhaust memory.
  void add_node(const TextLine& line, const Node& node) {
    if (nodes_.size() == nodes_.capacity()) {
      const uint64_t grown = std::max<uint64_t>(2 * nodes_.capacity(), 1024);
      if (grown > std::numeric_limits<uint32_t>::max()) {
        fail(line, 0, "too many nodes: more than 2^32 in one macrocell file");
      }
      check_input_memory(grown * sizeof(Node),
                         "a table of " + std::to_string(grown) + " macrocell nodes", source_,
                         line.number, 1);
      nodes_.reserve(grown);
    }
    if (node.level == kBlockLevel) ++block_nodes_;
    nodes_.push_back(node);
  }

  // A root above level 65 is replaced by its centre (the node of one level
  // less with the same centre) while its outer parts are empty; cells there
  // would lie beyond the 64-bit coordinates.
  void shrink_root() {
    while (nodes_[root_].level > kMaxRootLevel && nodes_[root_].any_live()) {
      const Node& root = nodes_[root_];
      std::array<uint32_t, 4> centre{};
      for (int q = 0; q < 4; ++q) {
        const Node& quadrant = nodes_[root.children[q]];
        const int inner = 3 - q;  // the grandchild that touches the centre
        for (int g = 0; g < 4; ++g) {
          if (g != inner && nodes_[quadrant.children[g]].any_live()) fail_beyond_coordinates();
        }
        centre[q] = quadrant.children[inner];
      }
      const Node shrunk = combine(root.level - 1, centre);
      nodes_.push_back(shrunk);
      root_ = static_cast<uint32_t>(nodes_.size() - 1);
    }
  }

  // Fails unless every live cell of node `index`, with its top-left cell at
  // (x, y), has 64-bit coordinates. Only nodes that cross the edge of that
  // range are opened, so roots below level 63 cost one comparison.
  void check_coordinates(uint32_t index, Wide x, Wide y) {
    const Node& node = nodes_[index];
    if (!node.any_live()) return;
    const Wide last = (Wide{1} << node.level) - 1;
    if (x >= kMinCoordinate && y >= kMinCoordinate && x + last <= kMaxCoordinate &&
        y + last <= kMaxCoordinate) {
      return;
    }
    if (x > kMaxCoordinate || y > kMaxCoordinate || x + last < kMinCoordinate ||
        y + last < kMinCoordinate) {
      fail_beyond_coordinates();
    }
    if (node.level == kBlockLevel) {
      check_block_coordinates(block_tile(index), x, y);
      return;
    }
    const Wide half = Wide{1} << (node.level - 1);
    check_coordinates(node.children[0], x, y);
    check_coordinates(node.children[1], x + half, y);
    check_coordinates(node.children[2], x, y + half);
    check_coordinates(node.children[3], x + half, y + half);
  }

  void check_block_coordinates(const Tile& block, Wide x, Wide y) const {
    const auto columns_before = [&](Wide limit) {
      return static_cast<int>(std::clamp<Wide>(limit - x, 0, kTileSize));
    };
    const int first = columns_before(kMinCoordinate);    // columns left of the range
    const int end = columns_before(kMaxCoordinate + 1);  // columns up to its right edge
    const uint64_t inside = (end == kTileSize ? ~uint64_t{0} : (uint64_t{1} << end) - 1) &
                            ~(first == kTileSize ? ~uint64_t{0} : (uint64_t{1} << first) - 1);
    for (int r = 0; r < kTileSize; ++r) {
      const uint64_t row = block.rows[r];
      if (row == 0) continue;
      if (y + r < kMinCoordinate || y + r > kMaxCoordinate || (row & ~inside) != 0) {
        fail_beyond_coordinates();
      }
    }
  }

  [[noreturn]] void fail_beyond_coordinates() const {
    in_.fail_at(root_line_, 1,
                "cell beyond the plane: coordinates must lie in [-2^62, 2^62), where gol can run "
                "them");
  }

  void expand_root() {
    shrink_root();
    const Node& root = nodes_[root_];
    if (!root.any_live()) return;
    if (root.level <= kBlockLevel) {
      expand_small_root();
      return;
    }
    check_expansion_memory(
        root.tiles,
        "a 2^" + std::to_string(root.level) + " x 2^" + std::to_string(root.level) +
            " macrocell universe filling up to " +
            (root.tiles == std::numeric_limits<uint64_t>::max() ? std::string("more than 2^64")
                                                                : std::to_string(root.tiles)) +
            " 64x64 tiles");
    const Wide half = Wide{1} << (root.level - 1);
    check_coordinates(root_, -half, 1 - half);
    std::vector<BlockPart> parts;
    collect_parts(root_, -half, 1 - half, parts);
    assemble(parts);
  }

  // Refuses, before any tile exists, an expansion to `tiles` tiles that
  // would not fit the memory budget.
  void check_expansion_memory(uint64_t tiles, const std::string& what) const {
    const uint64_t drawn = std::min(tiles, block_nodes_);
    const uint64_t bytes =
        saturating_add(saturating_mul(tiles, kBytesPerTile + kBytesPerPlacedBlock),
                       saturating_mul(drawn, kBytesPerDrawnBlock));
    check_input_memory(bytes, what, source_, root_line_, 1);
  }

  // A root of level 6 or less sits in the middle of the level-6 block
  // around the origin, whose top-left cell is (-32, -31).
  void expand_small_root() {
    const Node& root = nodes_[root_];
    Tile block;
    const int offset = (1 << (kBlockLevel - 1)) - (1 << (root.level - 1));
    draw(root_, block, offset, offset);
    const int dx = 32;  // -32 = 64 * -1 + 32
    const int dy = 33;  // -31 = 64 * -1 + 33
    const uint64_t tiles = tiles_touched(block, dx, dy);
    check_expansion_memory(tiles,
                           "a macrocell pattern filling " + std::to_string(tiles) + " 64x64 tiles");
    pattern_.cells.or_tile_at({-1, -1}, dx, dy, block);
  }

  static uint64_t tiles_touched(const Tile& block, int dx, int dy) {
    bool touched[2][2] = {};
    for (int r = 0; r < kTileSize; ++r) {
      const uint64_t row = block.rows[r];
      const int band = (dy + r) >> kTileBits;
      touched[band][0] |= (row << dx) != 0;
      touched[band][1] |= dx != 0 && (row >> (kTileSize - dx)) != 0;
    }
    return uint64_t{touched[0][0]} + touched[0][1] + touched[1][0] + touched[1][1];
  }

  // Under a root of level 7 or more every block sits one row below the
  // tile grid: rows 0-62 of a block placed at tile (tx, ty) are rows 1-63
  // of that tile, and its row 63 is row 0 of tile (tx, ty + 1).
  struct BlockPart {
    TileCoord tile;
    uint32_t block = 0;
    bool bottom_row = false;
  };

  // Lists the parts of the blocks of node `index`, whose top-left cell is
  // (x, y).
  void collect_parts(uint32_t index, Wide x, Wide y, std::vector<BlockPart>& parts) const {
    const Node& node = nodes_[index];
    if (!node.any_live()) return;
    if (node.level == kBlockLevel) {
      const TileCoord tile{static_cast<int64_t>(x >> kTileBits),
                           static_cast<int64_t>(y >> kTileBits)};
      if (node.live_above_bottom_row) parts.push_back({tile, index, false});
      if (node.live_in_bottom_row) parts.push_back({{tile.tx, tile.ty + 1}, index, true});
      return;
    }
    const Wide half = Wide{1} << (node.level - 1);
    collect_parts(node.children[0], x, y, parts);
    collect_parts(node.children[1], x + half, y, parts);
    collect_parts(node.children[2], x, y + half, parts);
    collect_parts(node.children[3], x + half, y + half, parts);
  }

  // Builds the tiles in row-major order, so each is appended to the map
  // rather than searched for: a quadtree visits tiles in Z order, and
  // random inserts into a map of a million tiles cost seconds.
  void assemble(std::vector<BlockPart>& parts) {
    std::sort(parts.begin(), parts.end(),
              [](const BlockPart& a, const BlockPart& b) { return a.tile < b.tile; });
    CellSet::TileMap tiles;
    for (const BlockPart& part : parts) {
      if (tiles.empty() || std::prev(tiles.end())->first != part.tile) {
        tiles.emplace_hint(tiles.end(), part.tile, Tile{});
      }
      Tile& tile = std::prev(tiles.end())->second;
      const Tile& block = block_tile(part.block);
      if (part.bottom_row) {
        tile.rows[0] |= block.rows[kTileSize - 1];
      } else {
        for (int r = 0; r + 1 < kTileSize; ++r) tile.rows[r + 1] |= block.rows[r];
      }
    }
    pattern_.cells = CellSet(std::move(tiles));
  }

  // The tile of a level-6 node, drawn the first time it is needed.
  const Tile& block_tile(uint32_t index) {
    auto [it, inserted] = block_tiles_.try_emplace(index);
    if (inserted) draw(index, it->second, 0, 0);
    return it->second;
  }

  // Draws node `index` (level 6 or less) into `tile` with its top-left
  // cell at (x, y) of the tile.
  void draw(uint32_t index, Tile& tile, int x, int y) const {
    const Node& node = nodes_[index];
    if (!node.any_live()) return;
    if (node.level <= kSmallLevel) {
      const int size = 1 << node.level;
      for (int r = 0; r < size; ++r) {
        tile.rows[y + r] |= ((node.small_cells >> (8 * r)) & row_mask(size)) << x;
      }
      return;
    }
    const int half = 1 << (node.level - 1);
    draw(node.children[0], tile, x, y);
    draw(node.children[1], tile, x + half, y);
    draw(node.children[2], tile, x, y + half);
    draw(node.children[3], tile, x + half, y + half);
  }

  TextReader& in_;
  std::string_view source_;
  std::string line_buffer_;
  Pattern pattern_;
  std::vector<Node> nodes_;
  uint64_t block_nodes_ = 0;  // nodes of level 6
  uint32_t root_ = 0;
  int64_t root_line_ = 0;
  std::optional<InputError> rule_error_;
  std::string rule_text_;
  std::unordered_map<uint32_t, Tile> block_tiles_;
};

}  // namespace

Pattern read_macrocell(TextReader& in) { return MacrocellReader(in).read(); }

Pattern parse_macrocell(std::string_view text, std::string_view source) {
  MemorySource bytes(text);
  TextReader in(bytes, source);
  return read_macrocell(in);
}

}  // namespace gol::patterns
