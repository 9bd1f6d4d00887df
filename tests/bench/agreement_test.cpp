// Cell hashes and the end-of-run agreement check: equal results pass, any
// difference in population or cells is reported.
#include "bench/agreement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace gol::bench {
namespace {

CellSet glider_at(int64_t x, int64_t y) {
  CellSet cells;
  for (const Cell c : {Cell{1, 0}, Cell{2, 1}, Cell{0, 2}, Cell{1, 2}, Cell{2, 2}}) {
    cells.set(x + c.x, y + c.y);
  }
  return cells;
}

RunResult result(std::string workload, std::string backend, uint64_t population, uint64_t hash,
                 Engine engine = Engine::kGol) {
  RunResult r;
  r.workload = std::move(workload);
  r.backend = std::move(backend);
  r.engine = engine;
  r.population = population;
  if (engine == Engine::kGol) r.cell_hash = hash;
  return r;
}

TEST(CellHash, IgnoresEmptyTilesAndSeesEveryCell) {
  CellSet a = glider_at(10, 10);
  CellSet b = a;
  b.tile({5, 5});  // an empty tile stored
  EXPECT_EQ(cell_hash(a), cell_hash(b));
  CellSet c = a;
  c.set(11, 10, false);
  c.set(12, 10, true);  // same population, one cell moved
  EXPECT_NE(cell_hash(a), cell_hash(c));
  EXPECT_NE(cell_hash(a), cell_hash(glider_at(11, 10)));
}

TEST(CellHash, TakesTilesInAnyOrderButSeesWhereEachIs) {
  CellSet many;
  for (int64_t i = 0; i < 5; ++i) {
    for (const Cell c : glider_at(100 * i, -70 * i).cells()) many.set(c);
  }
  many.set(3, 200);
  CellHasher forward;
  for (const auto& [coord, tile] : many.tiles()) forward.add(coord, tile);
  std::vector<std::pair<TileCoord, Tile>> reversed(many.tiles().begin(), many.tiles().end());
  std::reverse(reversed.begin(), reversed.end());
  CellHasher backward;
  for (const auto& [coord, tile] : reversed) backward.add(coord, tile);
  EXPECT_EQ(forward.value(), backward.value());
  EXPECT_EQ(forward.value(), cell_hash(many));
  // The same tile contents at swapped tile coordinates.
  EXPECT_NE(cell_hash(glider_at(128, 0)), cell_hash(glider_at(0, 128)));
  EXPECT_NE(cell_hash(glider_at(10, 10)), cell_hash(CellSet{}));
}

// `count` cells drawn from `seed` over `width` x `height` cells from
// (x0, y0), some drawn twice.
CellSet scattered_cells(uint64_t seed, int count, int64_t x0, int64_t y0, int64_t width,
                        int64_t height) {
  CellSet cells;
  uint64_t state = seed;
  for (int i = 0; i < count; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    cells.set(x0 + static_cast<int64_t>(state >> 40) % width,
              y0 + static_cast<int64_t>(state >> 20 & 0xFFF) % height);
  }
  return cells;
}

// The check's one pass: the population, cell hash and bounding box it
// reads from tiles fed in any order are those of the cells.
TEST(WorldDigest, ReadsPopulationHashAndBoxInOnePass) {
  WorldDigest nothing;
  EXPECT_EQ(nothing.population(), 0u);
  EXPECT_FALSE(nothing.bbox());
  CellSet cells = scattered_cells(11, 4000, -350, -90, 700, 500);
  // Lone cells beyond the field, each the box's edge on one side.
  cells.set(-1000, 7);
  cells.set(5, 2000);
  std::vector<std::pair<TileCoord, Tile>> tiles(cells.tiles().begin(), cells.tiles().end());
  for (bool reverse : {false, true}) {
    SCOPED_TRACE(reverse);
    if (reverse) std::reverse(tiles.begin(), tiles.end());
    WorldDigest digest;
    for (const auto& [coord, tile] : tiles) digest.add(coord, tile);
    EXPECT_EQ(digest.population(), cells.population());
    EXPECT_EQ(digest.cell_hash(), cell_hash(cells));
    ASSERT_TRUE(digest.bbox());
    EXPECT_EQ(*digest.bbox(), *cells.bbox());
  }
}

// A sleeping agar's tiles share their bits: a tile read again at the same
// address, at another place, is hashed as the tile it is there, and tiles
// at addresses that collide in the digest's memory of reads each as its
// own.
TEST(WorldDigest, TilesSharingAnAddressAndTilesApartDigestAsTheirCells) {
  const CellSet field = scattered_cells(3, 500, 0, 0, 64, 64);
  const Tile& shared = field.tiles().begin()->second;
  // Tiles 512 bytes apart: every 64th lands on the same remembered read.
  std::vector<Tile> apart(200);
  CellSet cells;
  WorldDigest digest;
  for (int64_t i = 0; i < 200; ++i) {
    apart[static_cast<size_t>(i)].set(static_cast<int>(i % 64), static_cast<int>(i / 4), true);
    for (const auto& [coord, tile] : std::initializer_list<std::pair<TileCoord, const Tile*>>{
             {{i, -3}, &shared}, {{i, 5}, &apart[static_cast<size_t>(i)]}}) {
      digest.add(coord, *tile);
      cells.put_tile(coord, *tile);
    }
  }
  EXPECT_EQ(digest.population(), cells.population());
  EXPECT_EQ(digest.cell_hash(), cell_hash(cells));
  EXPECT_EQ(*digest.bbox(), *cells.bbox());
}

// The check read in parts on several threads: each part's digest and
// shape hash, merged in any grouping, are the whole's.
TEST(WorldDigest, DigestsOfPartsMergeIntoTheWholesAsDoShapeHashes) {
  const CellSet cells = scattered_cells(5, 3000, -200, -150, 900, 300);
  const BBox box = *cells.bbox();
  for (const size_t parts : {1u, 2u, 5u}) {
    SCOPED_TRACE(parts);
    std::vector<WorldDigest> digests(parts);
    std::vector<ShapeHasher> shapes(parts, ShapeHasher(box.xmin, box.ymin));
    size_t next = 0;
    for (const auto& [coord, tile] : cells.tiles()) {
      digests[next].add(coord, tile);
      shapes[next].add(coord, tile);
      next = (next + 3) % parts;
    }
    WorldDigest whole;
    ShapeHasher shape(box.xmin, box.ymin);
    for (size_t part = 0; part < parts; ++part) {
      whole.merge(digests[part]);
      shape.merge(shapes[part]);
    }
    EXPECT_EQ(whole.population(), cells.population());
    EXPECT_EQ(whole.cell_hash(), cell_hash(cells));
    ASSERT_TRUE(whole.bbox());
    EXPECT_EQ(*whole.bbox(), box);
    EXPECT_EQ(shape.value(), shape_hash(cells));
  }
  WorldDigest empty;
  empty.merge(WorldDigest{});
  EXPECT_FALSE(empty.bbox());
}

TEST(ShapeHash, IgnoresPositionButNotShape) {
  EXPECT_EQ(shape_hash(glider_at(0, 0)), shape_hash(glider_at(-1000, 333)));
  CellSet flipped = glider_at(0, 0);
  flipped.set(1, 0, false);
  flipped.set(1, 1, true);
  EXPECT_NE(shape_hash(glider_at(0, 0)), shape_hash(flipped));
}

// A pattern over several tiles, moved by offsets that split its row words
// across tile edges both ways, fed in any tile order: one shape hash. One
// cell more, or one moved, and it differs.
TEST(ShapeHash, MovedAcrossTileEdgesInAnyOrderHashesAlike) {
  CellSet cells;
  uint64_t state = 5;
  for (int i = 0; i < 3000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    cells.set(static_cast<int64_t>(state >> 40) % 300,
              static_cast<int64_t>(state >> 20 & 0xFFF) % 200);
  }
  const uint64_t expected = shape_hash(cells);
  for (const auto& [dx, dy] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 0}, {63, 64}, {64, 1}, {-1, -1}, {-65, 37}, {-1000001, 999983}}) {
    SCOPED_TRACE(dx);
    const CellSet moved = cells.translated(dx, dy);
    EXPECT_EQ(shape_hash(moved), expected);
    const BBox box = *moved.bbox();
    ShapeHasher backward(box.xmin, box.ymin);
    for (auto it = moved.tiles().rbegin(); it != moved.tiles().rend(); ++it) {
      backward.add(it->first, it->second);
    }
    EXPECT_EQ(backward.value(), expected);
  }
  // Inside the bounding box, so the box stays as it was.
  CellSet toggled = cells;
  toggled.set(150, 100, !cells.get(150, 100));
  EXPECT_NE(shape_hash(toggled), expected);
  CellSet swapped = cells;
  const Cell first = cells.cells()[10];
  swapped.set(first, false);
  for (int64_t x = first.x + 1; x < 300; ++x) {
    if (!cells.get(x, first.y)) {
      swapped.set(x, first.y, true);
      break;
    }
  }
  EXPECT_EQ(swapped.bbox()->xmin, cells.bbox()->xmin);
  EXPECT_NE(shape_hash(swapped), expected);
}

TEST(Agreement, PassesWhenAllAgree) {
  const std::vector<RunResult> results = {
      result("acorn", "serial", 633, 42), result("acorn", "bit", 633, 42),
      result("acorn", "bgolly-QuickLife", 633, 0, Engine::kGolly),
      result("torus-1024", "bit", 1000, 7), result("torus-1024", "simd", 1000, 7)};
  EXPECT_TRUE(check_agreement(results).empty());
}

TEST(Agreement, FlagsAWrongPopulation) {
  const std::vector<RunResult> results = {result("acorn", "serial", 633, 42),
                                          result("acorn", "bit", 634, 42),
                                          result("torus-1024", "bit", 1000, 7)};
  const std::vector<Disagreement> d = check_agreement(results);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].workload, "acorn");
  EXPECT_NE(d[0].message.find("634"), std::string::npos);
  EXPECT_NE(d[0].message.find("633"), std::string::npos);
}

TEST(Agreement, FlagsAWrongCellHashAndAWrongGollyPopulation) {
  const std::vector<RunResult> results = {
      result("acorn", "serial", 633, 42), result("acorn", "bit", 633, 43),
      result("acorn", "bgolly-HashLife", 600, 0, Engine::kGolly)};
  const std::vector<Disagreement> d = check_agreement(results);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NE(d[0].message.find("cell hash"), std::string::npos);
  EXPECT_NE(d[1].message.find("bgolly-HashLife"), std::string::npos);
}

TEST(Agreement, FlagsAGollyShapeMismatch) {
  RunResult ours = result("acorn", "bit", 5, 1);
  ours.shape_hash = shape_hash(glider_at(0, 0));
  RunResult golly = result("acorn", "bgolly-QuickLife", 5, 0, Engine::kGolly);
  CellSet other = glider_at(0, 0);
  other.set(1, 0, false);
  other.set(0, 0, true);
  golly.shape_hash = shape_hash(other);
  EXPECT_EQ(check_agreement({ours, golly}).size(), 1u);
  golly.shape_hash = shape_hash(glider_at(77, 3));
  EXPECT_TRUE(check_agreement({ours, golly}).empty());
}

}  // namespace
}  // namespace gol::bench
