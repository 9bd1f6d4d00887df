// Tile pairs owned by one slot or shared by many (see tile_pairs.h).
#include "sparse/tile_pairs.h"

#include <cstddef>
#include <cstring>
#include <utility>

#include "engine/core/error.h"
#include "sparse/slab_arena.h"

namespace gol::sparse {

// A page of header, then the pairs. The header also keeps the blocks'
// size off a power of two: blocks 256 KiB apart put the same pair of every
// block in the same sets of a 16-way 1 MiB L2 cache, and acorn-field ran
// 5% slower so.
struct PairBlock {
  BlockRecord<TilePairPool::kBlockPairs> record;
  alignas(4096) Tile tiles[2][TilePairPool::kBlockPairs];
};
static_assert(offsetof(PairBlock, tiles) == 4096, "the header is one page");
static_assert(sizeof(PairBlock) % 4096 == 0, "the arena's stride is the block's size");

namespace {

// The block holding `pair`: the arena carves blocks at its stride (the
// block's size) from chunks aligned to their size.
PairBlock* block_of(const Tile* pair) {
  constexpr uintptr_t kChunk = SlabArena::kChunkBytes;
  const auto at = reinterpret_cast<uintptr_t>(pair);
  const uintptr_t chunk = at & ~(kChunk - 1);
  return reinterpret_cast<PairBlock*>(chunk + (at - chunk) / sizeof(PairBlock) * sizeof(PairBlock));
}

// Where `pair` lies: its block's index in the pool, and its own in the block.
struct PairPlace {
  size_t block;
  int32_t at;
};
PairPlace place_of(const Tile* pair) {
  const PairBlock& block = *block_of(pair);
  return {block.record.index, static_cast<int32_t>(pair - block.tiles[0])};
}

}  // namespace

TilePairPool::TilePairPool() = default;

TilePairPool::~TilePairPool() = default;

TilePairPool::TilePairPool(TilePairPool&& other) noexcept
    : blocks_(std::move(other.blocks_)), in_use_(std::exchange(other.in_use_, 0)) {}

TilePairPool& TilePairPool::operator=(TilePairPool&& other) noexcept {
  blocks_ = std::move(other.blocks_);
  in_use_ = std::exchange(other.in_use_, 0);
  return *this;
}

Tile* TilePairPool::take() { return take_slot(true); }

Tile* TilePairPool::take_uncleared() { return take_slot(false); }

size_t TilePairPool::block_index(const Tile* pair) { return place_of(pair).block; }

Tile* TilePairPool::take_slot(bool clear) {
  const auto taken = blocks_.take();
  ++in_use_;
  Tile* const pair = taken.block.tiles[0] + taken.at;
  if (taken.reused && clear) {
    for (int parity = 0; parity < 2; ++parity) *pair_generation(pair, parity) = Tile{};
  }
  return pair;
}

void TilePairPool::give_back(Tile* pair) {
  const auto [block, at] = place_of(pair);
  blocks_.give_back(block, at);
  --in_use_;
}

void TilePairPool::give_back_draining(Tile* pair) {
  const auto [block, at] = place_of(pair);
  if (blocks_.give_back(block, at)) blocks_.release(block);
  --in_use_;
}

void TilePairPool::release_empty_blocks() { blocks_.release_empty(); }

void TilePairPool::adopt(TilePairPool& other) {
  blocks_.adopt(other.blocks_);
  in_use_ += std::exchange(other.in_use_, 0);
}

void TilePairPool::release_all() {
  blocks_.release_all();
  in_use_ = 0;
}

uint64_t SharedTiles::hash_of(const Tile* pair) {
  // Four independent lanes, so that the multiplies overlap.
  constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ull;
  uint64_t lanes[4] = {1, 2, 3, 4};
  for (int parity = 0; parity < 2; ++parity) {
    const uint64_t* rows = pair_generation(pair, parity)->rows.data();
    for (size_t row = 0; row < kTileSize; row += 4) {
      for (size_t lane = 0; lane < 4; ++lane) {
        lanes[lane] = (lanes[lane] ^ rows[row + lane]) * kMultiplier;
      }
    }
  }
  uint64_t hash = 0;
  for (const uint64_t lane : lanes) hash = (hash ^ (lane >> 29) ^ lane) * kMultiplier;
  return hash;
}

const Tile* SharedTiles::share(Tile* own, TilePairPool& pool) {
  const uint64_t hash = hash_of(own);
  const auto [found, made] = by_hash_.try_emplace(hash, own);
  if (!made) {
    const Tile* const held = found->second;
    bool same = true;
    for (int parity = 0; parity < 2 && same; ++parity) {
      same = *pair_generation(held, parity) == *pair_generation(own, parity);
    }
    if (same) {
      ++entries_.at(held).refs;
      pool.give_back(own);
      return held;
    }
  }
  // New bits (or bits whose hash another pair holds: that one keeps it).
  entries_.emplace(own, Entry{hash, 1});
  return own;
}

Tile* SharedTiles::release(const Tile* shared) {
  const auto entry = entries_.find(shared);
  GOL_DCHECK(entry != entries_.end());
  if (--entry->second.refs != 0) return nullptr;
  if (const auto found = by_hash_.find(entry->second.hash);
      found != by_hash_.end() && found->second == shared) {
    by_hash_.erase(found);
  }
  entries_.erase(entry);
  return const_cast<Tile*>(shared);
}

void SharedTiles::adopt(SharedTiles& other) {
  for (const auto& [hash, pair] : other.by_hash_) by_hash_.try_emplace(hash, pair);
  entries_.merge(other.entries_);
  other.clear();
}

void SharedTiles::clear() {
  by_hash_.clear();
  entries_.clear();
}

}  // namespace gol::sparse
