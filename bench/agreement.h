// The check every bench run ends with (as rokicki/lifealg's driver does):
// all backends on a workload, and Golly where it ran, must agree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_result.h"
#include "engine/core/cell_set.h"

namespace gol::bench {

// A hash of a set of cells fed one tile at a time, in any order: each
// non-empty tile's coordinates and rows are hashed alone and the tile
// hashes summed, so a world can be hashed where it is held (a backend's
// tiles in slot order) and equal cell sets hash equal whatever empty tiles
// they hold.
class CellHasher {
 public:
  void add(TileCoord coord, const Tile& tile) {
    if (!tile.empty()) add_content(coord, content_hash(tile));
  }
  // add() of a tile whose rows hash to `content` (content_hash()): the
  // rows' hash is the costly part, and tiles alike may share it.
  void add_content(TileCoord coord, uint64_t content);
  static uint64_t content_hash(const Tile& tile);
  // Adds what `other` hashed, as if its tiles had been added here.
  void merge(const CellHasher& other) { sum_ += other.sum_; }
  uint64_t value() const { return sum_; }

 private:
  uint64_t sum_ = 0;
};

// CellHasher over cells' tiles.
uint64_t cell_hash(const CellSet& cells);

// What the check reads of a final world, in one pass over its tiles fed in
// any order: its population, CellHasher's hash and its bounding box. One
// pass, not three: each read the spacefiller's 49 thousand tiles from
// memory again (population, hash and box took 27 ms of its process).
// A tile met at an address met before (a sleeping agar's tiles share their
// bits, SharedTiles) takes the rows' hash and population read there: the
// spacefiller's hash took 10 ms of its two-thread process, nearly all of
// it in tiles alike.
class WorldDigest {
 public:
  void add(TileCoord coord, const Tile& tile);
  // Takes in what `other` read, as if its tiles had been added here: the
  // digests of a world's parts, read at once, make the world's.
  void merge(const WorldDigest& other);
  uint64_t population() const { return population_; }
  uint64_t cell_hash() const { return hasher_.value(); }
  const std::optional<BBox>& bbox() const { return box_; }

 private:
  // The rows' hash and population of the tiles last read, by address.
  struct Read {
    const Tile* tile = nullptr;
    uint64_t content = 0;
    uint64_t population = 0;
  };
  static constexpr size_t kReadsKept = 64;

  uint64_t population_ = 0;
  CellHasher hasher_;
  std::optional<BBox> box_;
  std::array<Read, kReadsKept> reads_{};
};

// A hash of a set of cells moved so that (xmin, ymin), its bounding box's
// corner, is at (0, 0): what can be compared with a pattern file that
// records no origin. Fed one tile at a time in any order, like CellHasher,
// so a world is hashed where it is held, without moving a copy. Each row
// word of a tile lands on one or two words of the moved grid; each
// destination word's bits are hashed by a map that is linear over XOR and
// keyed by the word's place, so the halves two tiles give one word combine
// as the word itself would.
class ShapeHasher {
 public:
  ShapeHasher(int64_t xmin, int64_t ymin) : xmin_(xmin), ymin_(ymin) {}
  void add(TileCoord coord, const Tile& tile);
  // Adds what `other` (from the same corner) hashed.
  void merge(const ShapeHasher& other) { hash_ ^= other.hash_; }
  uint64_t value() const { return hash_; }

 private:
  // Hashes `bits` of the destination word keyed `key` into the sum.
  void add_bits(uint64_t key, uint64_t bits);

  int64_t xmin_;
  int64_t ymin_;
  uint64_t hash_ = 0;
};

// ShapeHasher over cells' tiles, from their bounding box.
uint64_t shape_hash(const CellSet& cells);

struct Disagreement {
  std::string workload;
  std::string message;
};

// Per workload, compares every result with the first of our backends (or,
// where none ran, the first result):
// population always, cell_hash between our backends, shape_hash where both
// sides have one. Empty when all agree.
std::vector<Disagreement> check_agreement(const std::vector<RunResult>& results);

}  // namespace gol::bench
