// TileMap: neighbour links on create and free, slot reuse, torus wrapping
// and border occupancy bits.
#include "sparse/tile_map.h"

#include <gtest/gtest.h>

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

  map.free(east);
  EXPECT_EQ(map.neighbours(centre)[kE], TileMap::kEmptySlot);
  EXPECT_EQ(map.find({1, 0}), TileMap::kAbsent);
  EXPECT_EQ(map.size(), 2u);

  // The freed slot is reused, zeroed and relinked.
  map.tile(0, east).set(5, 5, true);
  const int32_t reused = map.create({0, -1});
  EXPECT_EQ(reused, east);
  EXPECT_TRUE(map.tile(0, reused).empty());
  EXPECT_EQ(map.neighbours(reused)[kS], centre);
  EXPECT_EQ(map.neighbours(centre)[kN], reused);
  EXPECT_EQ(map.coord(reused), (TileCoord{0, -1}));
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
}

TEST(TileMap, SingleTileTorusIsItsOwnNeighbour) {
  TileMap map;
  map.reset_torus(1, 1);
  const int32_t only = map.find({0, 0});
  for (int direction = 0; direction < kDirections; ++direction) {
    EXPECT_EQ(map.neighbours(only)[direction], only);
  }
}

}  // namespace
}  // namespace gol::sparse
