// Hashes of final cell sets and the cross-backend agreement check.
#include "bench/agreement.h"

#include <array>
#include <bit>
#include <cstdio>
#include <map>
#include <optional>

namespace gol::bench {
namespace {

constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ull;
// ShapeHasher's seed for a destination word's column.
constexpr uint64_t kWordSeed = 0xd1b54a32d192ed03ull;

// A 64-bit multiply-xorshift step (the finaliser of splitmix64): every
// input bit reaches every output bit, a word at a time rather than FNV's
// byte at a time, so hashing a world of millions of tiles takes
// milliseconds.
uint64_t mix(uint64_t hash, uint64_t word) {
  uint64_t x = hash ^ word;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::string hex(uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string describe(const RunResult& r) { return r.backend + " (" + r.workload + ")"; }

void compare(const RunResult& reference, const RunResult& other, std::vector<Disagreement>& out) {
  if (other.population != reference.population) {
    out.push_back({reference.workload,
                   describe(other) + " ends with population " + std::to_string(other.population) +
                       ", " + reference.backend + " with " + std::to_string(reference.population)});
    return;
  }
  if (other.cell_hash && reference.cell_hash && *other.cell_hash != *reference.cell_hash) {
    out.push_back({reference.workload, describe(other) + " ends with cell hash " +
                                           hex(*other.cell_hash) + ", " + reference.backend +
                                           " with " + hex(*reference.cell_hash)});
    return;
  }
  if (other.shape_hash && reference.shape_hash && *other.shape_hash != *reference.shape_hash) {
    out.push_back({reference.workload, describe(other) + " ends with a different pattern than " +
                                           reference.backend + " (same population, shape hash " +
                                           hex(*other.shape_hash) + " vs " +
                                           hex(*reference.shape_hash) + ")"});
  }
}

}  // namespace

uint64_t CellHasher::content_hash(const Tile& tile) {
  // Four chains of rows (r mod 4) mixed side by side, then into one: a
  // chain's steps wait on each other, four keep the multipliers busy (the
  // spacefiller's 49 thousand tiles hashed in a third of one chain's time).
  constexpr int kChains = 4;
  std::array<uint64_t, kChains> chains;
  for (int k = 0; k < kChains; ++k) chains[k] = mix(kSeed, static_cast<uint64_t>(k));
  for (int row = 0; row < kTileSize; row += kChains) {
    for (int k = 0; k < kChains; ++k) chains[k] = mix(chains[k], tile.rows[row + k]);
  }
  uint64_t hash = chains[0];
  for (int k = 1; k < kChains; ++k) hash = mix(hash, chains[k]);
  return hash;
}

void CellHasher::add_content(TileCoord coord, uint64_t content) {
  sum_ += mix(mix(content, static_cast<uint64_t>(coord.tx)), static_cast<uint64_t>(coord.ty));
}

uint64_t cell_hash(const CellSet& cells) {
  CellHasher hasher;
  for (const auto& [coord, tile] : cells.tiles()) hasher.add(coord, tile);
  return hasher.value();
}

void WorldDigest::add(TileCoord coord, const Tile& tile) {
  // Tiles are 512 bytes apart at least.
  Read& read = reads_[(reinterpret_cast<uintptr_t>(&tile) >> 9) % kReadsKept];
  if (read.tile != &tile) {
    read = {&tile, CellHasher::content_hash(tile), tile.population()};
  }
  if (read.population == 0) return;
  population_ += read.population;
  hasher_.add_content(coord, read.content);
  // Only a tile reaching past the box so far can move it: the rows of the
  // others are not searched.
  const int64_t x0 = coord.tx * kTileSize;
  const int64_t y0 = coord.ty * kTileSize;
  if (box_ && x0 >= box_->xmin && x0 + kTileSize - 1 <= box_->xmax && y0 >= box_->ymin &&
      y0 + kTileSize - 1 <= box_->ymax) {
    return;
  }
  if (const std::optional<BBox> part = tile_bbox(coord, tile)) extend_bbox(box_, *part);
}

void WorldDigest::merge(const WorldDigest& other) {
  population_ += other.population_;
  hasher_.merge(other.hasher_);
  if (other.box_) extend_bbox(box_, *other.box_);
}

void ShapeHasher::add_bits(uint64_t key, uint64_t bits) {
  // Linear in `bits` for a given key: masks, rotations and XOR only.
  hash_ ^= (bits & key) ^ std::rotl(bits & ~key, static_cast<int>(key >> 58)) ^
           std::rotl(bits, static_cast<int>(key & 63));
}

void ShapeHasher::add(TileCoord coord, const Tile& tile) {
  // Where the tile's column 0 lands in the moved grid: word `first`, bit
  // `shift` (the offset may be negative: tile_of floors).
  const int64_t x = coord.tx * kTileSize - xmin_;
  const int64_t first = tile_of(x);
  const int shift = offset_in_tile(x);
  // A destination word's key is its row's key XOR its column's, each
  // mixed once: a mix per row and two per tile, where mixing the row's
  // key with each word took a third of the check's time.
  const uint64_t first_key = mix(kWordSeed, static_cast<uint64_t>(first));
  const uint64_t second_key = mix(kWordSeed, static_cast<uint64_t>(first + 1));
  for (int row = 0; row < kTileSize; ++row) {
    const uint64_t bits = tile.rows[static_cast<size_t>(row)];
    if (bits == 0) continue;
    const uint64_t row_key = mix(kSeed, static_cast<uint64_t>(coord.ty * kTileSize + row - ymin_));
    add_bits(row_key ^ first_key, bits << shift);
    if (shift != 0) add_bits(row_key ^ second_key, bits >> (kTileSize - shift));
  }
}

uint64_t shape_hash(const CellSet& cells) {
  const std::optional<BBox> box = cells.bbox();
  if (!box) return 0;
  ShapeHasher hasher(box->xmin, box->ymin);
  for (const auto& [coord, tile] : cells.tiles()) hasher.add(coord, tile);
  return hasher.value();
}

std::vector<Disagreement> check_agreement(const std::vector<RunResult>& results) {
  // The first of our backends per workload; failing that, the first result.
  std::map<std::string, const RunResult*> reference;
  for (const RunResult& r : results) {
    if (r.engine == Engine::kGol && !reference.contains(r.workload)) reference[r.workload] = &r;
  }
  for (const RunResult& r : results) reference.try_emplace(r.workload, &r);
  std::vector<Disagreement> out;
  for (const RunResult& r : results) {
    const auto it = reference.find(r.workload);
    if (it == reference.end() || it->second == &r) continue;
    compare(*it->second, r, out);
  }
  return out;
}

}  // namespace gol::bench
