// TileMap: neighbour links on create and free, slot reuse, slabs mapped
// and released, pairs shared, taken back and packed, torus wrapping and
// border occupancy bits.
#include "sparse/tile_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace gol::sparse {
namespace {

TEST(BorderOccupancy, NamesEachEdgeAndCorner) {
  EXPECT_EQ(border_occupancy(Tile{}), 0);
  Tile tile;
  tile.set(0, 0, true);
  EXPECT_EQ(border_occupancy(tile), (1 << kN) | (1 << kW) | (1 << kNW));
  tile = Tile{};
  tile.set(63, 63, true);
  EXPECT_EQ(border_occupancy(tile), (1 << kS) | (1 << kE) | (1 << kSE));
  tile = Tile{};
  tile.set(10, 63, true);
  EXPECT_EQ(border_occupancy(tile), 1 << kS);
  tile = Tile{};
  tile.set(63, 30, true);
  EXPECT_EQ(border_occupancy(tile), 1 << kE);
  tile = Tile{};
  tile.set(30, 30, true);
  EXPECT_EQ(border_occupancy(tile), 0);
}

// The held list names exactly the slots in use, each once, and each held
// tile's absent-neighbour bits and neighbourhood (both generations) match
// its links.
void expect_held_matches_in_use(const TileMap& map) {
  for (int32_t slot : map.held()) {
    const Tile* at[2][3][3];
    for (int parity = 0; parity < 2; ++parity) {
      map.neighbourhood(parity, slot, at[parity]);
      EXPECT_EQ(at[parity][1][1], &map.tile(parity, slot)) << "slot " << slot;
    }
    uint8_t absent = 0;
    for (int direction = 0; direction < kDirections; ++direction) {
      const int32_t other = map.neighbours(slot)[direction];
      if (other == TileMap::kEmptySlot) absent |= 1 << direction;
      for (int parity = 0; parity < 2; ++parity) {
        EXPECT_EQ(at[parity][1 + kDirectionDy[direction]][1 + kDirectionDx[direction]],
                  &map.tile(parity, other))
            << "slot " << slot << " direction " << direction << " parity " << parity;
      }
    }
    EXPECT_EQ(map.absent_neighbours(slot), absent) << "slot " << slot;
  }
  std::vector<int32_t> held(map.held().begin(), map.held().end());
  std::sort(held.begin(), held.end());
  std::vector<int32_t> in_use;
  for (size_t slot = 0; slot < map.slot_count(); ++slot) {
    if (map.in_use(static_cast<int32_t>(slot))) in_use.push_back(static_cast<int32_t>(slot));
  }
  EXPECT_EQ(held, in_use);
  EXPECT_EQ(held.size(), map.size());
}

TEST(TileMap, LinksNeighboursBothWaysOnCreateAndUnlinksOnFree) {
  TileMap map;
  map.reset_plane();
  const int32_t centre = map.create({0, 0});
  const int32_t east = map.create({1, 0});
  const int32_t south_west = map.create({-1, 1});
  EXPECT_EQ(map.neighbours(centre)[kE], east);
  EXPECT_EQ(map.neighbours(east)[kW], centre);
  EXPECT_EQ(map.neighbours(centre)[kSW], south_west);
  EXPECT_EQ(map.neighbours(south_west)[kNE], centre);
  EXPECT_EQ(map.neighbours(centre)[kN], TileMap::kEmptySlot);
  EXPECT_TRUE(map.tile(0, TileMap::kEmptySlot).empty());
  EXPECT_FALSE(map.in_use(TileMap::kEmptySlot));
  EXPECT_EQ(map.size(), 3u);

  expect_held_matches_in_use(map);
  map.tile(0, east).set(5, 5, true);
  map.free(east);
  expect_held_matches_in_use(map);
  EXPECT_EQ(map.neighbours(centre)[kE], TileMap::kEmptySlot);
  EXPECT_EQ(map.find({1, 0}), TileMap::kAbsent);
  EXPECT_EQ(map.size(), 2u);

  // The freed slot is reused, zeroed and relinked.
  const int32_t reused = map.create({0, -1});
  EXPECT_EQ(reused, east);
  EXPECT_TRUE(map.tile(0, reused).empty());
  EXPECT_EQ(map.neighbours(reused)[kS], centre);
  EXPECT_EQ(map.neighbours(centre)[kN], reused);
  EXPECT_EQ(map.coord(reused), (TileCoord{0, -1}));
}

// Each tile of a 5x5 block, half of it held at random, made beside the
// centre tile in each direction: its links, read from the centre's where
// they share neighbours and looked up elsewhere, are those a lookup of
// every neighbour gives.
TEST(TileMap, TileMadeBesideAHeldTileLinksAsOneMadeByCoordinate) {
  uint32_t seed = 12345;
  const auto coin = [&] {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 16 & 1) != 0;
  };
  for (int round = 0; round < 40; ++round) {
    for (int direction = 0; direction < kDirections; ++direction) {
      const TileCoord made{kDirectionDx[direction], kDirectionDy[direction]};
      std::vector<TileCoord> held;
      for (int64_t ty = -2; ty <= 2; ++ty) {
        for (int64_t tx = -2; tx <= 2; ++tx) {
          const TileCoord at{tx, ty};
          if (at == TileCoord{0, 0} || (!(at == made) && coin())) held.push_back(at);
        }
      }
      TileMap beside;
      TileMap looked_up;
      beside.reset_plane();
      looked_up.reset_plane();
      for (TileCoord at : held) {
        beside.create(at);
        looked_up.create(at);
      }
      const int32_t by_beside = beside.create(made, {beside.find({0, 0}), direction});
      const int32_t by_lookup = looked_up.create(made);
      for (int towards = 0; towards < kDirections; ++towards) {
        const int32_t a = beside.neighbours(by_beside)[towards];
        const int32_t b = looked_up.neighbours(by_lookup)[towards];
        ASSERT_EQ(a == TileMap::kEmptySlot, b == TileMap::kEmptySlot)
            << "made in direction " << direction << ", neighbour " << towards;
        if (a != TileMap::kEmptySlot) {
          EXPECT_EQ(beside.coord(a), looked_up.coord(b));
        }
      }
      expect_held_matches_in_use(beside);
    }
  }
}

TEST(TileMap, GrowsBySlabsWithStableAddressesAndReleasesEmptiedSlabs) {
  constexpr int64_t kTiles = 3 * TileMap::kSlabSlots + 10;
  TileMap map;
  map.reset_plane();
  std::vector<int32_t> slots;
  for (int64_t tx = 0; tx < kTiles; ++tx) slots.push_back(map.create({tx, 0}));
  const Tile* first = &map.tile(1, slots.front());
  for (int64_t tx = 0; tx < kTiles; ++tx) map.create({tx, 1});
  EXPECT_EQ(&map.tile(1, slots.front()), first);  // growing moved nothing
  EXPECT_EQ(map.slabs_mapped(), (2 * kTiles + 1 + TileMap::kSlabSlots - 1) / TileMap::kSlabSlots);
  // Links across the slab boundaries in both directions.
  for (int64_t tx = 1; tx < kTiles; ++tx) {
    const int32_t slot = map.find({tx, 0});
    EXPECT_EQ(map.neighbours(slot)[kW], map.find({tx - 1, 0}));
    EXPECT_EQ(map.neighbours(slot)[kS], map.find({tx, 1}));
    EXPECT_EQ(map.neighbours(slot)[kSW], map.find({tx - 1, 1}));
  }
  expect_held_matches_in_use(map);

  // Free every tile outside the first slab: all but one of the emptied
  // slabs go back, and the table shrinks to the slabs still mapped.
  for (int64_t ty = 0; ty < 2; ++ty) {
    for (int64_t tx = 0; tx < kTiles; ++tx) {
      const int32_t slot = map.find({tx, ty});
      if (slot >= TileMap::kSlabSlots) map.free(slot);
    }
  }
  map.release_empty_slabs();
  EXPECT_EQ(map.slabs_mapped(), 2u);
  EXPECT_EQ(map.slot_count(), 2u * TileMap::kSlabSlots);
  EXPECT_EQ(map.size(), static_cast<size_t>(TileMap::kSlabSlots - 1));
  expect_held_matches_in_use(map);
  EXPECT_EQ(map.neighbours(map.find({TileMap::kSlabSlots - 2, 0}))[kE], TileMap::kEmptySlot);

  // New tiles take the lowest free slot: a slot freed in the first slab
  // before the spare slab, and then the spare.
  const int32_t low = map.find({3, 0});
  map.tile(0, low).set(1, 1, true);
  map.summary(1, low).nonempty = 1;
  map.free(low);
  const int32_t reused = map.create({-5, -5});
  EXPECT_EQ(reused, low);
  EXPECT_TRUE(map.tile(0, reused).empty());
  EXPECT_EQ(map.summary(1, reused).nonempty, 0);
  EXPECT_EQ(map.create({-6, -5}) / TileMap::kSlabSlots, 1);
  expect_held_matches_in_use(map);

  // Emptying everything keeps one slab beside the first (which holds the
  // shared empty tile).
  std::vector<int32_t> all(map.held().begin(), map.held().end());
  for (int32_t slot : all) map.free(slot);
  map.release_empty_slabs();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_LE(map.slabs_mapped(), 2u);
  EXPECT_TRUE(map.tile(0, TileMap::kEmptySlot).empty());
  EXPECT_FALSE(map.in_use(TileMap::kEmptySlot));
}

// Tiles freed all over the map (a strip handing over columns, a soup dying
// down) leave every block of pairs partly used, and a block goes back only
// once empty: the pairs of the highest blocks move into the room below,
// keeping their bits, and their neighbours read them where they now lie.
TEST(TileMap, PairsFreedAllOverArePackedSoThatTheirBlocksGoBack) {
  constexpr int64_t kColumns = 64;
  constexpr int64_t kRows = 4 * TilePairPool::kBlockPairs / kColumns;
  TileMap map;
  map.reset_plane();
  for (int64_t ty = 0; ty < kRows; ++ty) {
    for (int64_t tx = 0; tx < kColumns; ++tx) {
      const int32_t slot = map.create({tx, ty});
      map.tile(0, slot).set(static_cast<int>(tx), static_cast<int>(ty), true);
      map.tile(1, slot).set(static_cast<int>(ty), static_cast<int>(tx), true);
    }
  }
  const size_t full = map.pair_blocks_mapped();
  EXPECT_GE(full, 4u);
  // Every other column goes: a tile of each in every block.
  for (int64_t ty = 0; ty < kRows; ++ty) {
    for (int64_t tx = 1; tx < kColumns; tx += 2) map.free(map.find({tx, ty}));
  }
  const uint64_t version = map.pairs_version();
  map.release_empty_slabs();
  // The pairs in use (the empty tile's too) fill whole blocks but one, and
  // one emptied block is kept for the next tiles made.
  const size_t needed =
      (map.size() + 1 + TilePairPool::kBlockPairs - 1) / TilePairPool::kBlockPairs;
  EXPECT_LT(needed + 1, full);
  EXPECT_LE(map.pair_blocks_mapped(), needed + 1);
  EXPECT_NE(map.pairs_version(), version);
  for (int64_t ty = 0; ty < kRows; ++ty) {
    for (int64_t tx = 0; tx < kColumns; tx += 2) {
      const int32_t slot = map.find({tx, ty});
      Tile expected[2];
      expected[0].set(static_cast<int>(tx), static_cast<int>(ty), true);
      expected[1].set(static_cast<int>(ty), static_cast<int>(tx), true);
      for (int parity = 0; parity < 2; ++parity) {
        EXPECT_TRUE(map.tile(parity, slot) == expected[parity]) << tx << "," << ty;
        const Tile* at[3][3];
        map.neighbourhood(parity, slot, at);
        EXPECT_EQ(at[1][1], &map.tile(parity, slot));
        if (ty > 0) {
          EXPECT_EQ(at[0][1], &map.tile(parity, map.find({tx, ty - 1})));
        }
        if (ty + 1 < kRows) {
          EXPECT_EQ(at[2][1], &map.tile(parity, map.find({tx, ty + 1})));
        }
      }
    }
  }
  expect_held_matches_in_use(map);
}

TEST(TileMap, RefusesTilesBeyondThePlaneRange) {
  TileMap map;
  map.reset_plane();
  EXPECT_EQ(map.create({kMaxTileCoordinate, 0}), TileMap::kAbsent);
  EXPECT_EQ(map.create({0, -kMaxTileCoordinate - 1}), TileMap::kAbsent);
  EXPECT_NE(map.create({kMaxTileCoordinate - 1, -kMaxTileCoordinate}), TileMap::kAbsent);
  EXPECT_EQ(map.size(), 1u);
}

TEST(TileMap, TorusNeighboursWrap) {
  TileMap map;
  map.reset_torus(3, 2);
  EXPECT_EQ(map.size(), 6u);
  const int32_t corner = map.find({0, 0});
  EXPECT_EQ(map.neighbours(corner)[kW], map.find({2, 0}));
  EXPECT_EQ(map.neighbours(corner)[kN], map.find({0, 1}));
  EXPECT_EQ(map.neighbours(corner)[kNW], map.find({2, 1}));
  EXPECT_EQ(map.neighbours(corner)[kSE], map.find({1, 1}));
  expect_held_matches_in_use(map);
}

TEST(TileMap, SingleTileTorusIsItsOwnNeighbour) {
  TileMap map;
  map.reset_torus(1, 1);
  const int32_t only = map.find({0, 0});
  for (int direction = 0; direction < kDirections; ++direction) {
    EXPECT_EQ(map.neighbours(only)[direction], only);
  }
  EXPECT_EQ(map.absent_neighbours(only), 0);
  expect_held_matches_in_use(map);
}

TEST(TileMap, DrainVisitsEveryTileHighestSlotFirstAndLeavesAnEmptyPlane) {
  TileMap map;
  map.reset_plane();
  constexpr int64_t kTiles = 2 * TileMap::kSlabSlots + 5;
  std::vector<int32_t> created;
  for (int64_t tx = 0; tx < kTiles; ++tx) {
    created.push_back(map.create({tx, 3}));
    map.tile(0, created.back()).rows[0] = static_cast<uint64_t>(tx) + 1;
  }
  map.free(created[7]);  // a hole: its slot is not visited
  // Shared tiles are drained like the others, their pairs read first.
  for (size_t i = 0; i < created.size(); i += 3) {
    if (i != 7) map.share(created[i]);
  }
  std::vector<int32_t> visited;
  map.drain([&](int32_t slot) {
    EXPECT_EQ(std::as_const(map).tile(0, slot).rows[0],
              static_cast<uint64_t>(map.coord(slot).tx) + 1);
    visited.push_back(slot);
  });
  EXPECT_EQ(visited.size(), static_cast<size_t>(kTiles - 1));
  EXPECT_TRUE(std::is_sorted(visited.rbegin(), visited.rend()));
  EXPECT_EQ(std::count(visited.begin(), visited.end(), created[7]), 0);
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.slabs_mapped(), 1u) << "only the empty tile's slab";
  EXPECT_EQ(map.pair_blocks_mapped(), 1u) << "only the empty tile's pair";
  EXPECT_EQ(map.shared_pairs(), 0u);
  EXPECT_EQ(map.find({0, 3}), TileMap::kAbsent);
  const int32_t again = map.create({0, 3});
  EXPECT_TRUE(map.tile(0, again).empty());
}

// Horizontal lines two rows apart: the spacefiller's agar, a still life.
Tile stripes(int first_row) {
  Tile tile;
  for (int row = first_row; row < kTileSize; row += 2) tile.rows[row] = ~uint64_t{0};
  return tile;
}

void fill(TileMap& map, int32_t slot, const Tile& tile) {
  map.tile(0, slot) = tile;
  map.tile(1, slot) = tile;
}

TEST(TileMap, TilesOfTheSameBitsShareOnePairUntilOneIsWritten) {
  TileMap map;
  map.reset_plane();
  const int32_t west = map.create({0, 0});
  const int32_t east = map.create({1, 0});
  const int32_t far = map.create({5, 5});
  const int32_t other = map.create({9, 9});
  for (int32_t slot : {west, east, far}) fill(map, slot, stripes(0));
  fill(map, other, stripes(1));
  for (int32_t slot : {west, east, far, other}) map.share(slot);
  const TileMap& held = map;
  EXPECT_EQ(map.shared_slots(), 4u);
  EXPECT_EQ(map.shared_pairs(), 2u);
  EXPECT_EQ(&held.tile(0, west), &held.tile(0, far));
  EXPECT_NE(&held.tile(0, west), &held.tile(0, other));
  EXPECT_TRUE(held.tile(1, other) == stripes(1));
  expect_held_matches_in_use(map);

  // A write takes a pair of its own; the tiles still sharing keep the bits,
  // and the neighbours' links follow the pair that moved.
  map.tile(1, east).set(3, 3, true);
  EXPECT_FALSE(map.is_shared(east));
  EXPECT_EQ(map.shared_slots(), 3u);
  EXPECT_TRUE(held.tile(1, west) == stripes(0));
  EXPECT_TRUE(held.tile(1, far) == stripes(0));
  EXPECT_TRUE(held.tile(1, east).get(3, 3));
  EXPECT_TRUE(held.tile(0, east) == stripes(0));
  const Tile* at[3][3];
  map.neighbourhood(1, west, at);
  EXPECT_TRUE(at[1][2]->get(3, 3));
  expect_held_matches_in_use(map);

  // Unsharing by hand, then sharing again, finds the pair still held.
  map.unshare(far);
  EXPECT_TRUE(held.tile(0, far) == stripes(0));
  map.share(far);
  EXPECT_EQ(&held.tile(0, west), &held.tile(0, far));
  EXPECT_EQ(map.shared_pairs(), 2u);

  // A pair goes with the last tile sharing it.
  map.free(west);
  EXPECT_EQ(map.shared_pairs(), 2u);
  map.free(far);
  map.free(other);
  EXPECT_EQ(map.shared_pairs(), 0u);
  EXPECT_EQ(map.shared_slots(), 0u);
  expect_held_matches_in_use(map);
}

// Tiles that share give their own pairs back, and the next tiles made take
// them: the pairs in use follow the distinct tiles, not the tiles held.
TEST(TileMap, SharingTilesGiveTheirPairsToTheNextOnesMade) {
  TileMap map;
  map.reset_plane();
  constexpr int64_t kTiles = 6 * TilePairPool::kBlockPairs;
  for (int64_t tx = 0; tx < kTiles; ++tx) {
    const int32_t slot = map.create({tx, 0});
    fill(map, slot, stripes(static_cast<int>(tx % 2)));
    map.share(slot);
  }
  EXPECT_EQ(map.shared_pairs(), 2u);
  EXPECT_EQ(map.shared_slots(), static_cast<size_t>(kTiles));
  EXPECT_EQ(map.pair_blocks_mapped(), 1u);
  expect_held_matches_in_use(map);
  // Written again, each takes a pair of its own.
  for (int32_t slot : std::vector<int32_t>(map.held().begin(), map.held().end())) {
    map.tile(0, slot).rows[1] ^= 1;
  }
  EXPECT_EQ(map.shared_pairs(), 0u);
  EXPECT_GE(map.pair_blocks_mapped(), 6u);
  expect_held_matches_in_use(map);
}

// Maps merged (strips joining) keep every tile's bits, shared or not, and
// where both held a pair of the same bits, both stay valid.
TEST(TileMap, AdoptingAMapKeepsItsSharedPairs) {
  TileMap map;
  TileMap other;
  map.reset_plane();
  other.reset_plane();
  for (int64_t tx = 0; tx < 10; ++tx) {
    fill(map, map.create({tx, 0}), stripes(0));
    fill(other, other.create({tx, 1}), stripes(0));
    fill(other, other.create({tx, 2}), tx % 2 == 0 ? stripes(1) : stripes(0));
  }
  for (int32_t slot : std::vector<int32_t>(map.held().begin(), map.held().end())) map.share(slot);
  for (int32_t slot : std::vector<int32_t>(other.held().begin(), other.held().end())) {
    other.share(slot);
  }
  const int32_t offset = map.adopt(other);
  EXPECT_GT(offset, 0);
  EXPECT_EQ(map.size(), 30u);
  EXPECT_EQ(map.shared_slots(), 30u);
  EXPECT_EQ(map.shared_pairs(), 3u) << "the other map's stripes(0) is held apart";
  expect_held_matches_in_use(map);
  for (int64_t tx = 0; tx < 10; ++tx) {
    EXPECT_TRUE(std::as_const(map).tile(1, map.find({tx, 1})) == stripes(0));
    EXPECT_TRUE(std::as_const(map).tile(0, map.find({tx, 2})) ==
                (tx % 2 == 0 ? stripes(1) : stripes(0)));
  }
  for (int32_t slot : std::vector<int32_t>(map.held().begin(), map.held().end())) map.free(slot);
  EXPECT_EQ(map.shared_pairs(), 0u);
}

// The pairs' version: unchanged by what moves no pair (finding, reading,
// writing an unshared tile), changed by each thing that may (making,
// freeing, sharing, unsharing, adopting, moving), and never one map's and
// another's alike.
TEST(TileMap, PairsVersionChangesWhenAPairMayHaveMoved) {
  TileMap map;
  TileMap other;
  map.reset_plane();
  other.reset_plane();
  EXPECT_NE(map.pairs_version(), other.pairs_version());
  std::vector<uint64_t> seen = {map.pairs_version(), other.pairs_version()};
  const auto expect_new = [&](const TileMap& changed, const char* what) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), changed.pairs_version()), 0) << what;
    seen.push_back(changed.pairs_version());
  };
  const int32_t first = map.create({0, 0});
  expect_new(map, "making a tile");
  const int32_t second = map.create({1, 0});
  fill(map, first, stripes(0));
  fill(map, second, stripes(0));
  expect_new(map, "making another");
  const uint64_t before_reads = map.pairs_version();
  EXPECT_EQ(map.find({1, 0}), second);
  map.tile(0, first).set(1, 1, true);
  map.tile(0, first).set(1, 1, false);
  EXPECT_EQ(map.pairs_version(), before_reads) << "finding and writing an unshared tile";
  map.share(first);
  expect_new(map, "sharing");
  map.share(first);
  EXPECT_EQ(map.pairs_version(), seen.back()) << "sharing a shared tile again";
  map.unshare(first);
  expect_new(map, "unsharing");
  map.share(second);
  map.tile(1, second).set(2, 2, true);
  expect_new(map, "writing a shared tile, which unshares it");
  map.free(second);
  expect_new(map, "freeing");
  fill(other, other.create({5, 5}), stripes(1));
  expect_new(other, "making a tile in the other map");
  map.adopt(other);
  expect_new(map, "adopting");
  expect_new(other, "being adopted");
  TileMap moved = std::move(map);
  expect_new(moved, "moved into");
  expect_new(map, "moved from");
}

// The population and the outermost tiles with cells, as the map keeps them
// from read to read, against a count of every held tile, through tiles
// made, written, emptied, freed (across slab boundaries), shared, written
// through kept addresses, and maps adopted and moved.
class LiveTally {
 public:
  explicit LiveTally(const TileMap& map) : map_(map) {}

  void expect_kept(int parity, const char* when) const {
    uint64_t population = 0;
    for (const int32_t slot : map_.held()) population += map_.tile(parity, slot).population();
    EXPECT_EQ(map_.population(parity), population) << when << ", parity " << parity;
    constexpr int64_t kAll = int64_t{1} << 60;
    expect_outermost(parity, -kAll, kAll, when);
    // A strip's columns: those of the tiles on its sides only.
    expect_outermost(parity, -3, 5, when);
    expect_outermost(parity, 2, 2, when);
  }

 private:
  void expect_outermost(int parity, int64_t first, int64_t last, const char* when) const {
    std::optional<std::array<int64_t, 4>> box;  // west, east, north, south
    const auto live_in_range = [&](int32_t slot) {
      const TileCoord at = map_.coord(slot);
      return at.tx >= first && at.tx <= last && map_.tile(parity, slot).population() != 0;
    };
    for (const int32_t slot : map_.held()) {
      if (!live_in_range(slot)) continue;
      const TileCoord at = map_.coord(slot);
      if (!box) box = std::array<int64_t, 4>{at.tx, at.tx, at.ty, at.ty};
      *box = {std::min((*box)[0], at.tx), std::max((*box)[1], at.tx), std::min((*box)[2], at.ty),
              std::max((*box)[3], at.ty)};
    }
    const std::optional<TileMap::TileBox> tiles = map_.live_tile_box(parity, first, last);
    ASSERT_EQ(tiles.has_value(), box.has_value()) << when << ", parity " << parity;
    if (!tiles) return;
    EXPECT_EQ((std::array<int64_t, 4>{tiles->west, tiles->east, tiles->north, tiles->south}), *box)
        << when << ", parity " << parity;
    // The sides of this box, and of a larger one (several maps' box) whose
    // west and south sides this map does not reach.
    const TileMap::TileBox larger{tiles->west - 1, tiles->east, tiles->north, tiles->south + 1};
    for (const TileMap::TileBox& sides : {*tiles, larger}) {
      std::vector<int32_t> expected;
      for (const int32_t slot : map_.held()) {
        const TileCoord at = map_.coord(slot);
        if (live_in_range(slot) && (at.tx == sides.west || at.tx == sides.east ||
                                    at.ty == sides.north || at.ty == sides.south)) {
          expected.push_back(slot);
        }
      }
      std::vector<int32_t> visited;
      map_.visit_live_on_sides(parity, first, last, sides,
                               [&](int32_t slot) { visited.push_back(slot); });
      std::sort(visited.begin(), visited.end());
      visited.erase(std::unique(visited.begin(), visited.end()), visited.end());
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(visited, expected) << when << ", parity " << parity << ", columns " << first << ".."
                                   << last << ", west side " << sides.west;
    }
  }

  const TileMap& map_;
};

TEST(TileMap, KeepsThePopulationAndTheOutermostLiveTilesFromReadToRead) {
  std::mt19937_64 random(2026);
  const auto pick = [&](int64_t below) {
    return static_cast<int64_t>(random() % static_cast<uint64_t>(below));
  };
  TileMap map;
  map.reset_plane();
  const auto held_slot = [&] { return map.held()[static_cast<size_t>(pick(map.size()))]; };
  const auto check = [&](const char* when) {
    for (int parity = 0; parity < 2; ++parity) LiveTally(map).expect_kept(parity, when);
  };
  check("an empty plane");
  for (int round = 0; round < 60; ++round) {
    // Enough tiles to cross slab boundaries (kSlabSlots each), on a field
    // small enough that the box's sides are often emptied and refilled.
    const int64_t side = round % 3 == 0 ? 40 : 24;
    for (int made = 0; made < 200; ++made) {
      const TileCoord at{pick(side) - side / 2, pick(side) - side / 2};
      if (map.find(at) == TileMap::kAbsent) map.create(at);
    }
    for (int writes = 0; writes < 300; ++writes) {
      const int32_t slot = held_slot();
      Tile& tile = map.tile(static_cast<int>(pick(2)), slot);
      if (pick(4) == 0) {
        tile = Tile{};
      } else {
        tile.set(static_cast<int>(pick(kTileSize)), static_cast<int>(pick(kTileSize)),
                 pick(3) != 0);
      }
    }
    if (round % 2 == 0) check("after writes");
    if (round % 5 == 1) {
      // Written through an address kept from before, as TorusBlocks writes.
      const int32_t slot = held_slot();
      Tile* kept = &map.tile(0, slot);
      map.population(0);
      kept->set(5, 5, !kept->get(5, 5));
      map.forget_counts();
      check("after a write through a kept address");
    }
    if (round % 7 == 3) {
      for (int32_t slot : std::vector<int32_t>(map.held().begin(), map.held().end())) {
        if (std::as_const(map).tile(0, slot) == std::as_const(map).tile(1, slot)) map.share(slot);
      }
      check("after sharing");
    }
    for (int freed = 0; freed < 150 && map.size() > 1; ++freed) map.free(held_slot());
    map.release_empty_slabs();
    check("after frees");
    if (round % 10 == 9) {
      TileMap other;
      other.reset_plane();
      for (int made = 0; made < 100; ++made) {
        const TileCoord at{1000 + 100 * round + pick(30), pick(30)};
        if (other.find(at) == TileMap::kAbsent) {
          other.tile(made % 2, other.create(at)).set(1, 2, true);
        }
      }
      LiveTally(other).expect_kept(1, "the map to be adopted");
      map.adopt(other);
      check("after adopting a map");
      TileMap moved = std::move(map);
      LiveTally(moved).expect_kept(0, "a map moved");
      map = std::move(moved);
      check("after moving back");
    }
  }
}

}  // namespace
}  // namespace gol::sparse
