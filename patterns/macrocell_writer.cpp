// Macrocell writer: the cells are cut into 64x64 blocks on the grid of
// Golly's centred root, each block into 8x8 leaves, and the quadtree is
// built bottom-up with equal nodes written once. Every node is written when
// first made, after its children, which is the order Golly requires.
#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "patterns/macrocell.h"
#include "patterns/writer_support.h"

namespace gol::patterns {
namespace {

__extension__ using Wide = __int128;

constexpr int kLeafLevel = 3;
constexpr int kBlockLevel = kTileBits;
// The smallest root we write: from level 7 up the root's blocks line up
// with our tile columns, and Golly loads a root of any level.
constexpr int kMinRootLevel = kBlockLevel + 1;

// A leaf (level 3, its 64 cells) or a node (its four children's numbers).
struct NodeKey {
  int level = 0;
  uint64_t first = 0;
  uint64_t second = 0;
  friend bool operator==(const NodeKey&, const NodeKey&) = default;
};

struct NodeKeyHash {
  size_t operator()(const NodeKey& k) const {
    uint64_t h = k.first * 0x9e3779b97f4a7c15ull ^ k.second * 0xc2b2ae3d27d4eb4full;
    h ^= static_cast<uint64_t>(k.level) + (h >> 29);
    return static_cast<size_t>(h * 0xbf58476d1ce4e5b9ull);
  }
};

// Numbers nodes from 1 in the order they are made and writes each once;
// the empty node of any level is 0 and never written.
class NodeTable {
 public:
  explicit NodeTable(std::string& out) : out_(out) {}

  // `cells`: row r (top first), column c at bit 8 * r + c.
  uint32_t leaf(uint64_t cells) {
    if (cells == 0) return 0;
    const auto [it, made] = numbers_.try_emplace({kLeafLevel, cells, 0}, next_);
    if (made) {
      ++next_;
      write_leaf(cells);
    }
    return it->second;
  }

  uint32_t node(int level, const std::array<uint32_t, 4>& children) {
    if ((children[0] | children[1] | children[2] | children[3]) == 0) return 0;
    const NodeKey key{level, uint64_t{children[0]} << 32 | children[1],
                      uint64_t{children[2]} << 32 | children[3]};
    const auto [it, made] = numbers_.try_emplace(key, next_);
    if (made) {
      ++next_;
      out_ += std::to_string(level);
      for (uint32_t child : children) out_ += ' ' + std::to_string(child);
      out_ += '\n';
    }
    return it->second;
  }

 private:
  // Rows of '.' and '*' up to the last live cell, each ended by '$'; rows
  // after the last live one are left out, as Golly writes them.
  void write_leaf(uint64_t cells) {
    for (int r = 0; r < 8 && (cells >> (8 * r)) != 0; ++r) {
      const unsigned row = (cells >> (8 * r)) & 0xff;
      for (int c = 0; c < 8 && (row >> c) != 0; ++c) out_ += (row >> c) & 1 ? '*' : '.';
      out_ += '$';
    }
    out_ += '\n';
  }

  std::string& out_;
  std::unordered_map<NodeKey, uint32_t, NodeKeyHash> numbers_;
  uint32_t next_ = 1;
};

// The node of `level` (3 to 6) whose top-left cell is (x, y) of `block`.
uint32_t block_subtree(NodeTable& table, const Tile& block, int level, int x, int y) {
  if (level == kLeafLevel) {
    uint64_t cells = 0;
    for (int r = 0; r < 8; ++r) cells |= ((block.rows[y + r] >> x) & 0xff) << (8 * r);
    return table.leaf(cells);
  }
  const int half = 1 << (level - 1);
  return table.node(level, {block_subtree(table, block, level - 1, x, y),
                            block_subtree(table, block, level - 1, x + half, y),
                            block_subtree(table, block, level - 1, x, y + half),
                            block_subtree(table, block, level - 1, x + half, y + half)});
}

// The least level whose centred root (top-left cell (-2^(L-1), 1 - 2^(L-1)))
// holds `box`. Level 65 holds any 64-bit coordinates.
int root_level(const BBox& box) {
  for (int level = kMinRootLevel;; ++level) {
    const Wide half = Wide{1} << (level - 1);
    if (-half <= box.xmin && box.xmax < half && 1 - half <= box.ymin && box.ymax <= half) {
      return level;
    }
  }
}

// The block of the root's grid whose top-left cell is (64 tx, 64 ty + 1):
// with a root of level 7 or more, blocks sit one row below our tiles, so
// the block is rows 1-63 of tile (tx, ty) and row 0 of the tile below.
Tile block_below_row_zero(const CellSet& cells, TileCoord coord) {
  Tile block;
  if (const Tile* tile = cells.find_tile(coord)) {
    for (int r = 1; r < kTileSize; ++r) block.rows[r - 1] = tile->rows[r];
  }
  if (const Tile* below = cells.find_tile({coord.tx, coord.ty + 1})) {
    block.rows[kTileSize - 1] = below->rows[0];
  }
  return block;
}

struct TileHash {
  size_t operator()(const Tile& tile) const {
    uint64_t h = 0;
    for (uint64_t row : tile.rows) h = (h ^ row) * 0x9e3779b97f4a7c15ull;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

using PlacedNodes = std::vector<std::pair<TileCoord, uint32_t>>;

// The level-6 nodes, at their block coordinates from the root's top-left
// corner. Equal blocks (common: Golly's large patterns repeat) are cut into
// leaves once.
PlacedNodes block_nodes(const CellSet& cells, int root, NodeTable& table) {
  const int64_t offset = int64_t{1} << (root - 1 - kBlockLevel);  // 2^(L-1) / 64
  std::unordered_map<Tile, uint32_t, TileHash> numbers;
  PlacedNodes placed;
  const auto add_block = [&](TileCoord coord) {
    const Tile block = block_below_row_zero(cells, coord);
    const auto [it, made] = numbers.try_emplace(block, 0);
    if (made) it->second = block_subtree(table, block, kBlockLevel, 0, 0);
    if (it->second != 0) placed.push_back({{coord.tx + offset, coord.ty + offset}, it->second});
  };
  for (const auto& [coord, tile] : cells.tiles()) {
    // Each block is added once: from the tile holding its rows 0-62, or
    // from the tile below when that one is absent.
    if (tile.rows[0] != 0 && cells.find_tile({coord.tx, coord.ty - 1}) == nullptr) {
      add_block({coord.tx, coord.ty - 1});
    }
    add_block(coord);
  }
  return placed;
}

void write_nodes(const CellSet& cells, std::string& out) {
  const std::optional<BBox> box = cells.bbox();
  if (!box) return;  // Golly reads a file without nodes as an empty pattern
  const int root = root_level(*box);
  NodeTable table(out);
  PlacedNodes level_nodes = block_nodes(cells, root, table);
  for (int level = kBlockLevel + 1; level <= root; ++level) {
    // Quadrant q of the parent at (tx / 2, ty / 2) is (tx & 1) + 2 (ty & 1).
    std::map<TileCoord, std::array<uint32_t, 4>> parents;
    for (const auto& [coord, node] : level_nodes) {
      const int quadrant = static_cast<int>((coord.tx & 1) + 2 * (coord.ty & 1));
      parents[{coord.tx >> 1, coord.ty >> 1}][quadrant] = node;
    }
    level_nodes.clear();
    for (const auto& [coord, children] : parents) {
      level_nodes.push_back({coord, table.node(level, children)});
    }
  }
}

}  // namespace

std::string to_macrocell(const Pattern& p) {
  const bool torus = p.topology && p.topology->is_torus();
  RuleSpec rule{p.rule.value_or(Rule::conway()), std::nullopt};
  if (torus) rule.topology = p.topology;
  std::string out = "[M2] (gol)\n#R " + rule.to_string() + "\n";
  if (p.generation > 0) out += "#G " + std::to_string(p.generation) + "\n";
  if (!p.name.empty()) append_comment_lines(out, "#N ", p.name);
  for (const std::string& comment : p.comments) append_comment_lines(out, "#C ", comment);
  if (torus) {
    write_nodes(to_golly_window(p.cells, *p.topology), out);
  } else {
    write_nodes(p.cells, out);
  }
  return out;
}

}  // namespace gol::patterns
