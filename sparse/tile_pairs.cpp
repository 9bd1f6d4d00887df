// Tile pairs owned by one slot or shared by many (see tile_pairs.h).
#include "sparse/tile_pairs.h"

#include <cstring>
#include <utility>

#include "engine/core/error.h"
#include "sparse/slab_arena.h"

namespace gol::sparse {
namespace {

// A page of header, then the pairs. The header also keeps the blocks'
// size off a power of two: blocks 256 KiB apart put the same pair of every
// block in the same sets of a 16-way 1 MiB L2 cache, and acorn-field ran
// 5% slower so.
struct PairBlock {
  Tile header[8];  // header[0].rows[0]: the block's index in its pool
  Tile tiles[2][TilePairPool::kBlockPairs];
};
static_assert(sizeof(PairBlock) % 4096 == 0, "the arena's stride is the block's size");

// The block holding `pair`: the arena carves blocks at its stride (the
// block's size) from chunks aligned to their size.
PairBlock* block_of(const Tile* pair) {
  constexpr uintptr_t kChunk = SlabArena::kChunkBytes;
  const auto at = reinterpret_cast<uintptr_t>(pair);
  const uintptr_t chunk = at & ~(kChunk - 1);
  return reinterpret_cast<PairBlock*>(chunk + (at - chunk) / sizeof(PairBlock) * sizeof(PairBlock));
}

uint64_t& block_index_of(const Tile* pair) { return block_of(pair)->header[0].rows[0]; }

}  // namespace

TilePairPool::~TilePairPool() { release_all(); }

TilePairPool::TilePairPool(TilePairPool&& other) noexcept { *this = std::move(other); }

TilePairPool& TilePairPool::operator=(TilePairPool&& other) noexcept {
  if (this == &other) return *this;
  release_all();
  blocks_ = std::move(other.blocks_);
  open_ = std::move(other.open_);
  mapped_ = other.mapped_;
  empty_ = other.empty_;
  other.forget_all();
  return *this;
}

Tile* TilePairPool::take() { return take_slot(true); }

Tile* TilePairPool::take_uncleared() { return take_slot(false); }

Tile* TilePairPool::take_slot(bool clear) {
  const size_t index = open_.lowest(blocks_.size());
  if (index == blocks_.size()) {
    blocks_.emplace_back();
    open_.set(index, true);
  }
  Block& block = blocks_[index];
  if (block.pairs == nullptr) {
    auto* const taken = static_cast<PairBlock*>(arena_of<PairBlock>().take());
    block.pairs = taken->tiles[0];
    block_index_of(block.pairs) = index;
    GOL_CHECK(taken->header[0].rows[0] == index);
    block.used = block.free_count = block.fresh = 0;
    ++mapped_;
    ++empty_;
  }
  Tile* pair;
  if (block.free_count > 0) {
    pair = block.pairs + block.free_stack[--block.free_count];
    if (clear) {
      for (int parity = 0; parity < 2; ++parity) *pair_generation(pair, parity) = Tile{};
    }
  } else {
    pair = block.pairs + block.fresh++;
  }
  if (block.used++ == 0) --empty_;
  if (block.free_count == 0 && block.fresh == kBlockPairs) open_.set(index, false);
  return pair;
}

void TilePairPool::give_back(Tile* pair) { give_back_to_block(pair); }

void TilePairPool::give_back_draining(Tile* pair) {
  Block& block = give_back_to_block(pair);
  if (block.used == 0) release_block(block);
}

TilePairPool::Block& TilePairPool::give_back_to_block(Tile* pair) {
  const auto index = static_cast<size_t>(block_index_of(pair));
  GOL_DCHECK(index < blocks_.size() && pair >= blocks_[index].pairs &&
             pair < blocks_[index].pairs + kBlockPairs);
  Block& block = blocks_[index];
  block.free_stack[block.free_count++] = static_cast<uint8_t>(pair - block.pairs);
  open_.set(index, true);
  if (--block.used == 0) ++empty_;
  return block;
}

void TilePairPool::release_block(Block& block) {
  arena_of<PairBlock>().give_back(block_of(block.pairs));
  block.pairs = nullptr;
  --mapped_;
  --empty_;
}

void TilePairPool::release_empty_blocks() {
  if (empty_ <= 1) return;
  bool kept_one = false;
  for (Block& block : blocks_) {
    if (block.pairs == nullptr || block.used != 0) continue;
    // The lowest empty block stays: it is the next one filled.
    if (!kept_one) {
      kept_one = true;
      continue;
    }
    release_block(block);
  }
  while (!blocks_.empty() && blocks_.back().pairs == nullptr) {
    open_.set(blocks_.size() - 1, false);
    blocks_.pop_back();
  }
}

void TilePairPool::adopt(TilePairPool& other) {
  const size_t first = blocks_.size();
  for (size_t i = 0; i < other.blocks_.size(); ++i) {
    const Block& block = other.blocks_[i];
    blocks_.push_back(block);
    const bool open = block.pairs == nullptr || block.free_count > 0 || block.fresh < kBlockPairs;
    open_.set(first + i, open);
    if (block.pairs != nullptr) block_index_of(block.pairs) = first + i;
  }
  mapped_ += other.mapped_;
  empty_ += other.empty_;
  other.forget_all();
}

void TilePairPool::release_all() {
  std::vector<void*> mapped;
  for (const Block& block : blocks_) {
    if (block.pairs != nullptr) mapped.push_back(block_of(block.pairs));
  }
  arena_of<PairBlock>().give_back_all(mapped);
  forget_all();
}

void TilePairPool::forget_all() {
  blocks_.clear();
  open_.clear();
  mapped_ = 0;
  empty_ = 0;
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
