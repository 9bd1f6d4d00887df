// Where TileMap keeps its tiles' two generations: each slot points at a
// pair of tiles in a TilePairPool, its own or one it shares with every
// sleeping tile that holds the same two generations (SharedTiles).
//
// Why share: a world that fills space with an agar (the spacefiller's
// stripes) holds tens of thousands of sleeping tiles with the same bits.
// Held once each, they were two thirds of the spacefiller's peak, and on
// the dev host each new page costs about 5 us on first touch
// (bench/RESULTS.md). A shared pair is only ever read: a slot about to be
// written takes a pair of its own again (TileMap::unshare).
//
// Why a pool apart from the slots' slabs: a slot whose pair is shared gives
// its own pair back, and the next tile made anywhere takes it, so the pairs
// in use follow the tiles that are awake or unlike any other, not the
// tiles held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "engine/core/tile.h"
#include "sparse/block_pool.h"

namespace gol::sparse {

// A block of a TilePairPool's pairs (tile_pairs.cpp).
struct PairBlock;

// Pairs of tiles in blocks of kBlockPairs from a process-wide SlabArena. A
// pair is named by its generation 0; its generation 1 lies kPairStride
// tiles on (pair_generation()). A block holds its pairs' generations 0 in
// one half and 1 in the other, as a slab of slots did: stepping reads one
// generation of neighbouring tiles, and the lines a prefetcher brings in
// beside a tile are then other tiles' same generation. (With each pair's
// generations side by side, acorn-field's kernel time rose 15%.)
//
// A block's first page is its header (its BlockRecord: which block it is
// and which pairs are free), so giving a pair back finds its block from its
// address alone. Blocks emptied are given back to the system by
// release_empty_blocks().
class TilePairPool {
 public:
  static constexpr int kBlockPairs = 256;
  static constexpr ptrdiff_t kPairStride = kBlockPairs;

  TilePairPool();
  ~TilePairPool();
  TilePairPool(const TilePairPool&) = delete;
  TilePairPool& operator=(const TilePairPool&) = delete;
  TilePairPool(TilePairPool&& other) noexcept;
  TilePairPool& operator=(TilePairPool&& other) noexcept;

  // A pair of empty tiles.
  Tile* take();
  // A pair whose bits the caller overwrites at once.
  Tile* take_uncleared();
  void give_back(Tile* pair);
  // give_back(), and the pair's block back to the system if that emptied
  // it: for a pool being emptied, whose memory should move into another
  // as it goes.
  void give_back_draining(Tile* pair);
  // Gives every emptied block but the lowest back to the system.
  void release_empty_blocks();
  // Takes over another pool's blocks, their pairs in use and free alike.
  void adopt(TilePairPool& other);
  // Gives back every block, whatever is still in use.
  void release_all();
  size_t blocks_mapped() const { return blocks_.mapped(); }
  // Pairs taken and not given back.
  size_t pairs_in_use() const { return in_use_; }
  // The index of the block holding `pair`, and that of the block the next
  // take() fills (the lowest with room): a pair in a block above it can
  // move down, so that the blocks above empty.
  static size_t block_index(const Tile* pair);
  size_t lowest_open_block() const { return blocks_.lowest_open(); }

 private:
  Tile* take_slot(bool clear);

  BlockPool<PairBlock> blocks_;
  size_t in_use_ = 0;
};

// Generation `parity` of the pair named by `pair`.
inline Tile* pair_generation(Tile* pair, int parity) {
  return pair + parity * TilePairPool::kPairStride;
}
inline const Tile* pair_generation(const Tile* pair, int parity) {
  return pair + parity * TilePairPool::kPairStride;
}
inline void copy_pair(const Tile* from, Tile* to) {
  for (int parity = 0; parity < 2; ++parity) {
    *pair_generation(to, parity) = *pair_generation(from, parity);
  }
}

// Pool pairs held once for every slot with the same bits, counted by
// reference.
class SharedTiles {
 public:
  // The shared pair with the bits of `own` (a pair from `pool`), with one
  // more reference: one already shared, with `own` given back, or `own`
  // itself, shared from now on.
  const Tile* share(Tile* own, TilePairPool& pool);
  // Drops a reference from share(). Returns the pair, now the caller's own,
  // when that was its last reference, and null otherwise.
  Tile* release(const Tile* shared);
  // Takes over another set's pairs (its pool is adopted alongside). Where
  // both hold the same bits, the other's pair stays shared by its slots
  // but is not found by share().
  void adopt(SharedTiles& other);
  // Forgets every pair (the pool is released alongside).
  void clear();
  // Distinct pairs held.
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint64_t hash;
    uint32_t refs;
  };
  static uint64_t hash_of(const Tile* pair);

  std::unordered_map<uint64_t, const Tile*> by_hash_;
  std::unordered_map<const Tile*, Entry> entries_;  // every pair, found by share() or not
};

}  // namespace gol::sparse
