// The tiles of a world in a slot pool: two generations of every tile (the
// current one and the one before it), with each slot's eight neighbour
// slots cached so stepping never hashes.
// Slot 0 is a permanent empty tile that stands in for absent neighbours, so
// reading a neighbourhood takes no branches.
// On the plane, tiles are created and freed as activity moves; on a torus,
// every tile exists and neighbours wrap.
//
// Storage. Slots live in fixed-size slabs (kSlabSlots slots' metadata each)
// taken from a SlabArena (in huge pages where the kernel allows): growing
// takes one more slab and copies nothing, so the peak never holds the pool
// twice. Each slot's two generations are a pair from the map's
// TilePairPool, its own or, once the tile sleeps, one shared with every
// sleeping tile of the same bits (share(), tile_pairs.h); a pair's address
// changes only there and in unshare(). New tiles take the lowest free
// slot, so activity packs into the low slabs and the high ones drain;
// release_empty_slabs() returns emptied slabs (and blocks of pairs) to the
// system, keeping one of each mapped so a tile count hovering at a
// boundary does not map and unmap on every generation (and the process
// keeps up to four released blocks of each for the next map, see
// slab_arena.h).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "engine/core/tile.h"
#include "sparse/block_pool.h"
#include "sparse/coord_index.h"
#include "sparse/populated_allocator.h"
#include "sparse/tile_pairs.h"

namespace gol::sparse {

// The eight neighbour directions, clockwise from north. A tile's border
// "facing" a direction is its row 0 (N), column 63 (E), row 63 (S),
// column 0 (W), or the corner cell between two of them.
enum Direction : int { kN, kNE, kE, kSE, kS, kSW, kW, kNW };
inline constexpr int kDirections = 8;
inline constexpr std::array<int, kDirections> kDirectionDx = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::array<int, kDirections> kDirectionDy = {-1, -1, 0, 1, 1, 1, 0, -1};
constexpr int opposite(int direction) { return (direction + 4) & 7; }

// Bit d set: the border facing direction d has a set bit, given a tile's
// top row, bottom row and the OR of all its rows.
constexpr uint8_t border_bits(uint64_t top, uint64_t bottom, uint64_t columns) {
  constexpr uint64_t kWest = 1;
  constexpr uint64_t kEast = uint64_t{1} << (kTileSize - 1);
  return static_cast<uint8_t>((top != 0) << kN | ((top & kEast) != 0) << kNE |
                              ((columns & kEast) != 0) << kE | ((bottom & kEast) != 0) << kSE |
                              (bottom != 0) << kS | ((bottom & kWest) != 0) << kSW |
                              ((columns & kWest) != 0) << kW | ((top & kWest) != 0) << kNW);
}
// Bit d set: the tile has a live cell on its border facing direction d.
uint8_t border_occupancy(const Tile& tile);

// Plane tiles are kept within this many tiles of the origin, so every cell
// coordinate of a tile fits in int64_t; activity beyond it is dropped.
inline constexpr int64_t kMaxTileCoordinate = (int64_t{1} << 56);

class TileMap {
 public:
  static constexpr int32_t kAbsent = CoordIndex::kAbsent;
  // The shared empty tile: never stepped, written, listed or freed.
  static constexpr int32_t kEmptySlot = 0;
  // Slots per slab: 256 tiles of two generations are 256 KiB, small next to
  // the worlds worth releasing memory for, large enough that mapping one is
  // rare (a 16384-tile soup maps 65).
  static constexpr int kSlabBits = 8;
  static constexpr int32_t kSlabSlots = 1 << kSlabBits;

  // What neighbours and the scheduler know about one generation of a slot
  // without reading its 512 bytes.
  struct Summary {
    uint8_t border = 0;    // border_occupancy()
    uint8_t nonempty = 0;  // any live cell
  };

  TileMap();
  ~TileMap();
  TileMap(const TileMap&) = delete;
  TileMap& operator=(const TileMap&) = delete;
  // Moving hands the slabs over; a map moved into gives its own back.
  TileMap(TileMap&& other) noexcept;
  TileMap& operator=(TileMap&& other) noexcept;

  // An empty plane.
  void reset_plane();
  // A torus of tiles_x x tiles_y tiles, all present and empty.
  void reset_torus(int64_t tiles_x, int64_t tiles_y);
  // Room for `slots` tiles in the slab table and the coordinate index, so
  // loading a known number of tiles never rehashes.
  void reserve(size_t slots);

  bool is_torus() const { return torus_; }
  // The torus's size in tiles (0 on the plane).
  int64_t tiles_x() const { return tiles_x_; }
  int64_t tiles_y() const { return tiles_y_; }
  int32_t find(TileCoord coord) const;
  // A held tile beside a tile to be made: `slot`'s neighbour in `direction`.
  struct Beside {
    int32_t slot;
    int direction;
  };
  static constexpr Beside kBesideNone = {kAbsent, 0};
  // Creates an empty tile (both generations zero) in the lowest free slot
  // and links it with its neighbours. Returns kAbsent, creating nothing,
  // outside the plane's range. Made `beside` a held tile, it takes the
  // neighbours they share from that tile's links: three to five of its
  // eight, each a coordinate lookup less.
  int32_t create(TileCoord coord, Beside beside = kBesideNone);
  // Unlinks and recycles a plane tile. Its slot keeps its coordinate and
  // neighbour links readable until release_empty_slabs().
  void free(int32_t slot);
  // Returns to the system every slab emptied by free(), but one, and
  // every block of pairs emptied but one. On the plane, where the free
  // pairs have grown by a slack (below) since the last packing (a moved
  // strip's columns, a soup dying down), the pairs of their own in the
  // highest blocks first move into the room below: freed pairs lie
  // scattered over the blocks, and a block goes back only once all of it
  // is free. Moving a pair changes its address, as sharing it does
  // (pairs_version()).
  void release_empty_slabs();
  // The slack: this many blocks' worth of pairs, or the pairs in use over
  // kPackSlackShare where that is more.
  static constexpr size_t kPackSlackBlocks = 2;
  static constexpr size_t kPackSlackShare = 16;
  // Takes over every tile of another plane map, none at a coordinate held
  // here, in place: its slabs join this map's (no tile is copied) and its
  // slot s becomes s + the returned offset, linked to the tiles here
  // beside it. `other` is left holding nothing, to be reset.
  int32_t adopt(TileMap& other);
  // Hands every held slot but the empty one to visit(slot), highest first,
  // and empties the plane: each slab, and each block of pairs, goes back
  // once its slots were visited, without unlinking or unindexing its tiles
  // one by one (the whole map is reset after). visit may read the slot,
  // nothing else here.
  template <class Visit>
  void drain(Visit visit);

  // Writing a tile whose pair is shared first gives it a pair of its own.
  // Every write goes through here, and marks the tile's count of cells
  // stale. Threads stepping one map write tiles of one slab at once: the
  // slab's mark is an atomic byte.
  Tile& tile(int parity, int32_t slot) {
    if (is_shared(slot)) unshare(slot);
    Slab& home = slab(slot);
    home.stale[parity][local(slot)] = 1;
    std::atomic_ref<uint8_t> written(home.written[parity]);
    if (written.load(std::memory_order_relaxed) == 0) {
      written.store(1, std::memory_order_relaxed);
    }
    return *pair_generation(home.pairs[local(slot)].own(), parity);
  }
  // Marks every tile's count stale: for writers through addresses kept
  // from call to call (TorusBlocks' tile lists), which tile() did not see.
  void forget_counts();
  // tile(parity, slot).population(), counted again only after a write.
  uint64_t population(int parity, int32_t slot) const {
    if (slab(slot).stale[parity][local(slot)] != 0) recount(parity, slot);
    return slab(slot).populations[parity][local(slot)];
  }
  // The live cells of generation `parity` in every held tile. Only the
  // tiles written since the last read are counted (slabs with none are
  // passed at a byte each): a log row every generation cost a pass over
  // every held tile, most of them asleep.
  uint64_t population(int parity) const;
  // In tile coordinates, inclusive.
  struct TileBox {
    int64_t west, east, north, south;
  };
  // The box around the held tiles of generation `parity` with live cells
  // in tile columns [first_column, last_column], nullopt where none. The
  // tiles with cells are kept by column and row from the first call on,
  // so later calls cost the tiles written since (and the tiles with cells
  // in rows with none in range), not the tiles held.
  std::optional<TileBox> live_tile_box(int parity, int64_t first_column, int64_t last_column) const;
  // visit(slot) for each held tile of generation `parity` with live cells
  // in columns [first_column, last_column] on a side of `sides` (a corner's
  // tile twice): the tiles whose cells make the sides of the cells' box,
  // given `sides` from live_tile_box() (or a larger box made of several
  // maps' boxes, whose sides this map may not reach).
  template <class Visit>
  void visit_live_on_sides(int parity, int64_t first_column, int64_t last_column,
                           const TileBox& sides, Visit visit) const;
  const Tile& tile(int parity, int32_t slot) const {
    return *pair_generation(slab(slot).pairs[local(slot)].get(), parity);
  }
  Summary& summary(int parity, int32_t slot) { return slab(slot).summaries[parity][local(slot)]; }
  const Summary& summary(int parity, int32_t slot) const {
    return slab(slot).summaries[parity][local(slot)];
  }
  // Neighbour slots indexed by Direction; kEmptySlot where no tile exists.
  const std::array<int32_t, kDirections>& neighbours(int32_t slot) const {
    return slab(slot).neighbours[local(slot)];
  }
  // Generation `parity` of the tile in `slot` and of its eight neighbours,
  // as at[dy + 1][dx + 1] (absent ones: the empty slot's). Read from the
  // neighbours' tile addresses kept with the links, not found slab by slab:
  // stepping reads one neighbourhood a tile a generation.
  void neighbourhood(int parity, int32_t slot, const Tile* (&at)[3][3]) const {
    const Slab& home = slab(slot);
    at[1][1] = pair_generation(home.pairs[local(slot)].get(), parity);
    const auto& neighbours = home.neighbour_tiles[local(slot)];
    for (int direction = 0; direction < kDirections; ++direction) {
      at[1 + kDirectionDy[direction]][1 + kDirectionDx[direction]] =
          pair_generation(neighbours[direction], parity);
    }
  }
  // Bit d set: no tile in direction d (neighbours(slot)[d] is kEmptySlot).
  uint8_t absent_neighbours(int32_t slot) const { return slab(slot).absent[local(slot)]; }
  TileCoord coord(int32_t slot) const { return slab(slot).coords[local(slot)]; }
  // A generation stamp the grid keeps for the slot (SparseGrid::changed_in).
  uint64_t& changed_in(int32_t slot) { return slab(slot).changed_in[local(slot)]; }
  uint64_t changed_in(int32_t slot) const { return slab(slot).changed_in[local(slot)]; }
  bool in_use(int32_t slot) const;

  // One past the highest slot any tile may hold: the range of slot-indexed
  // tables. It shrinks again when the top slabs are released.
  size_t slot_count() const { return slabs_.count() * kSlabSlots; }
  // Tiles held now.
  size_t size() const { return index_.size(); }
  // How many tiles it holds before its coordinate index grows.
  size_t room() const { return index_.room(); }
  // The slots of the tiles held now, in no particular order: what passes
  // over the whole world walk, so they cost the tiles held, not the slots.
  std::span<const int32_t> held() const { return held_; }
  // Slabs mapped now (each kSlabSlots slots), for memory accounting.
  size_t slabs_mapped() const { return slabs_.mapped(); }
  // Blocks of tile pairs mapped now (each TilePairPool::kBlockPairs).
  size_t pair_blocks_mapped() const { return pool_.blocks_mapped(); }
  // Changes whenever a slot's pair may have moved (a tile made, freed,
  // shared or unshared, maps moved or merged), and is never the same for
  // two maps: a caller that keeps the tiles' addresses (TorusBlocks) reads
  // them again only when it changes.
  uint64_t pairs_version() const { return pairs_version_; }

  // Points the plane tile in `slot` at the shared pair holding its bits, and
  // gives its own pair back. Until unshare(), the tile must not be written
  // (tile()'s writable form unshares) and any pointer to its bits, but
  // those neighbourhood() hands out from now on, is stale.
  void share(int32_t slot);
  // Gives the tile in `slot` a pair of its own again, holding the same bits.
  void unshare(int32_t slot);
  bool is_shared(int32_t slot) const { return slab(slot).pairs[local(slot)].shared(); }
  // Slots whose pair is shared, and distinct shared pairs.
  size_t shared_slots() const { return shared_slots_; }
  size_t shared_pairs() const { return shared_.size(); }

 private:
  // A slot's pair, and whether SharedTiles holds it (the address's low
  // bit: tiles are 64-byte aligned), in one word, so that stepping a tile
  // reads one cache line for its pair, not one for the pair and one for a
  // flag.
  class PairRef {
   public:
    PairRef() = default;
    PairRef(const Tile* pair, bool shared)
        : bits_(reinterpret_cast<uintptr_t>(pair) | static_cast<uintptr_t>(shared)) {}
    Tile* get() const { return reinterpret_cast<Tile*>(bits_ & ~uintptr_t{1}); }
    // The pair of a slot known not to share.
    Tile* own() const { return reinterpret_cast<Tile*>(bits_); }
    bool shared() const { return (bits_ & 1) != 0; }

   private:
    uintptr_t bits_ = 0;
  };
  // One slab: the slots' metadata, so a slab is mapped (its pages populated
  // at once) and released as one block. All-zero bytes are a valid empty
  // slab (every field is a plain integer or pointer), which is what a fresh
  // anonymous mapping holds, so a fresh slot needs no clearing; a reused
  // one is cleared when it is allocated. Its record (BlockRecord: which of
  // its slots are free) is kept by slabs_.
  struct Slab {
    PairRef pairs[kSlabSlots];
    Summary summaries[2][kSlabSlots];
    std::array<int32_t, kDirections> neighbours[kSlabSlots];
    std::array<const Tile*, kDirections> neighbour_tiles[kSlabSlots];  // their pairs
    uint8_t absent[kSlabSlots];                                        // absent_neighbours()
    TileCoord coords[kSlabSlots];
    uint64_t changed_in[kSlabSlots];
    uint32_t populations[2][kSlabSlots];  // population(): the count, stale or not
    uint8_t stale[2][kSlabSlots];         // written since counted
    uint8_t written[2];                   // a slot's stale mark set since the last count
    int32_t held_position[kSlabSlots];    // index in held_ while in use
    uint8_t in_use[kSlabSlots];
    BlockRecord<kSlabSlots> record;  // used: slots holding a tile, the empty one's included
  };

  static int32_t local(int32_t slot) { return slot & (kSlabSlots - 1); }
  // The index's reading of a held slot's coordinate.
  auto coords() const {
    return [this](int32_t slot) { return coord(slot); };
  }
  Slab& slab(int32_t slot) const { return *slabs_.block(static_cast<size_t>(slot) >> kSlabBits); }
  TileCoord neighbour_coord(TileCoord coord, int direction) const;
  // The held tile in `direction` from the tile to be made at `coord`, or
  // kAbsent.
  int32_t neighbour_slot(TileCoord coord, int direction, Beside beside) const;
  int32_t allocate_slot(TileCoord coord);
  // Gives back the slot's pair, its own or its share of one (draining: see
  // TilePairPool::give_back_draining).
  void release_pair(int32_t slot, bool draining = false);
  // Points the neighbours' links at the slot's pair, after it moved.
  void relink_pair(int32_t slot);
  void release_all();
  // A version no map has held (see pairs_version()), or the next of this
  // map's.
  void start_pairs_era();
  void note_pairs_moved();
  // Links `slot` and the tile in `direction` from it both ways.
  void link(int32_t slot, int direction, int32_t other);
  // Forgets every tile, its slab already given back or taken over (by a
  // move, or by adopt()).
  void forget_all();

  // Counts the slots marked stale in `parity` again, adjusting the total
  // and the lines.
  void count_written(int parity) const;
  uint64_t count_every_tile(int parity) const;
  void recount(int parity, int32_t slot) const;
  // The tiles of one generation with live cells, by tile column and row.
  struct LiveLines {
    std::map<int64_t, std::vector<int32_t>> columns;
    std::map<int64_t, std::vector<int32_t>> rows;
  };
  void keep_lines() const;
  void add_to_lines(int parity, int32_t slot) const;
  void remove_from_lines(int parity, int32_t slot) const;
  void drop_lines() const;
  // A slot's count of cells leaves the totals (it is being freed).
  void uncount(int32_t slot);
  // Moves the pairs of their own in blocks above the lowest with room
  // into the room below, highest first (see release_empty_slabs()).
  void pack_pairs();
  size_t free_pairs() const;

  bool torus_ = false;
  int64_t tiles_x_ = 0;
  int64_t tiles_y_ = 0;
  BlockPool<Slab> slabs_;
  PopulatedVector<int32_t> held_;
  CoordIndex index_;
  TilePairPool pool_;
  size_t packed_free_ = 0;  // free_pairs() after the last packing, or less since
  SharedTiles shared_;
  size_t shared_slots_ = 0;
  uint64_t pairs_version_ = 0;
  // The sum of every held slot's kept count, stale or not, by generation.
  mutable std::array<uint64_t, 2> populations_{};
  mutable std::array<LiveLines, 2> lines_;
  mutable bool lines_kept_ = false;
};

template <class Visit>
void TileMap::visit_live_on_sides(int parity, int64_t first_column, int64_t last_column,
                                  const TileBox& sides, Visit visit) const {
  const LiveLines& lines = lines_[parity];
  for (const int64_t column : {sides.west, sides.east}) {
    if (column < first_column || column > last_column) continue;
    if (const auto found = lines.columns.find(column); found != lines.columns.end()) {
      for (const int32_t slot : found->second) visit(slot);
    }
  }
  for (const int64_t row : {sides.north, sides.south}) {
    const auto found = lines.rows.find(row);
    if (found == lines.rows.end()) continue;
    for (const int32_t slot : found->second) {
      const int64_t tx = coord(slot).tx;
      if (tx >= first_column && tx <= last_column) visit(slot);
    }
  }
}

template <class Visit>
void TileMap::drain(Visit visit) {
  for (size_t slab_index = slabs_.count(); slab_index-- > 0;) {
    const Slab* const slab = slabs_.block(slab_index);
    if (slab == nullptr) continue;
    for (int32_t at = kSlabSlots; at-- > 0;) {
      const auto slot = static_cast<int32_t>(slab_index * kSlabSlots) + at;
      if (slot != kEmptySlot && slab->in_use[at] != 0) {
        visit(slot);
        release_pair(slot, true);
      }
    }
    slabs_.release(slab_index);
  }
  reset_plane();
}

}  // namespace gol::sparse
