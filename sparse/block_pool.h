// The bookkeeping TileMap's slabs and TilePairPool's blocks share: blocks
// of a fixed number of slots, mapped from a process-wide SlabArena as
// slots are needed and given back once emptied.
//
// Each block keeps its own record (BlockRecord) in its mapped memory, so a
// slot known only by its address finds its block's place and free slots
// there, and a block fresh from the arena (all zero) is an empty one with
// nothing to set up but its index.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/core/error.h"
#include "sparse/slab_arena.h"

namespace gol::sparse {

// Bit i set: block (or slab) i has room. The lowest such is filled first,
// so a world's tiles pack into the low blocks and the high ones drain.
class OpenBlocks {
 public:
  void set(size_t index, bool open) {
    const size_t word = index / 64;
    if (word >= bits_.size()) bits_.resize(word + 1, 0);
    const uint64_t bit = uint64_t{1} << (index % 64);
    bits_[word] = open ? (bits_[word] | bit) : (bits_[word] & ~bit);
  }
  // The lowest open index below `count`, or `count`.
  size_t lowest(size_t count) const {
    for (size_t word = 0; word < bits_.size(); ++word) {
      if (bits_[word] != 0) {
        const size_t found = word * 64 + static_cast<size_t>(std::countr_zero(bits_[word]));
        return found < count ? found : count;
      }
    }
    return count;
  }
  void clear() { bits_.clear(); }

 private:
  std::vector<uint64_t> bits_;
};

// What a block of kSlots slots records of itself. All-zero bytes, what the
// arena hands out, are the record of an empty block.
template <int kSlots>
struct BlockRecord {
  static_assert(kSlots <= 256, "free_stack holds local indices as bytes");
  static constexpr int kSlotCount = kSlots;

  bool has_room() const { return free_count > 0 || fresh < kSlots; }

  size_t index;   // the block's index in its pool, set when it is mapped or adopted
  int32_t used;   // slots in use
  int32_t fresh;  // slots from here on were never used and are still zero
  int32_t free_count;
  uint8_t free_stack[kSlots];  // local indices of slots given back, reused first
};

// Blocks of type Block, each holding its BlockRecord as Block::record,
// by index; the pool owns them and gives them back to the arena.
template <class Block>
class BlockPool {
 public:
  struct Taken {
    Block& block;
    size_t index;  // the block's
    int32_t at;    // the slot's, in the block
    // Used before: it holds what its last user left, where a fresh slot
    // is still zero.
    bool reused;
  };

  BlockPool() = default;
  ~BlockPool() { release_all(); }
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  BlockPool(BlockPool&& other) noexcept { *this = std::move(other); }
  // Moving hands the blocks over; a pool moved into gives its own back.
  BlockPool& operator=(BlockPool&& other) noexcept {
    if (this == &other) return *this;
    release_all();
    blocks_ = std::exchange(other.blocks_, {});
    open_ = std::exchange(other.open_, {});
    mapped_ = std::exchange(other.mapped_, 0);
    empty_ = std::exchange(other.empty_, 0);
    return *this;
  }

  // A slot of the lowest block with room, one given back before a fresh
  // one; a block is mapped where none has room.
  Taken take() {
    const size_t index = open_.lowest(blocks_.size());
    if (index == blocks_.size()) {
      blocks_.push_back(nullptr);
      open_.set(index, true);
    }
    if (blocks_[index] == nullptr) {
      blocks_[index] = static_cast<Block*>(arena_of<Block>().take());
      blocks_[index]->record.index = index;
      ++mapped_;
      ++empty_;
    }
    Block& block = *blocks_[index];
    auto& record = block.record;
    const bool reused = record.free_count > 0;
    const int32_t at = reused ? record.free_stack[--record.free_count] : record.fresh++;
    if (record.used++ == 0) --empty_;
    if (!record.has_room()) open_.set(index, false);
    return {block, index, at, reused};
  }
  // Returns slot `at` of block `index`. True when that emptied the block.
  bool give_back(size_t index, int32_t at) {
    GOL_DCHECK(index < blocks_.size() && blocks_[index] != nullptr && at >= 0 &&
               at < decltype(Block::record)::kSlotCount);
    auto& record = blocks_[index]->record;
    record.free_stack[record.free_count++] = static_cast<uint8_t>(at);
    open_.set(index, true);
    if (--record.used != 0) return false;
    ++empty_;
    return true;
  }
  // Gives block `index` back to the arena, whatever it still holds.
  void release(size_t index) {
    if (blocks_[index]->record.used == 0) --empty_;
    arena_of<Block>().give_back(blocks_[index]);
    blocks_[index] = nullptr;
    --mapped_;
  }
  // Gives back every empty block but the lowest: that one is the next
  // filled, so a count of slots hovering at a block's boundary does not
  // map and release a block each time it crosses.
  void release_empty() {
    if (empty_ <= 1) return;
    bool kept_one = false;
    for (size_t index = 0; index < blocks_.size(); ++index) {
      if (blocks_[index] == nullptr || blocks_[index]->record.used != 0) continue;
      if (kept_one) release(index);
      kept_one = true;
    }
    while (!blocks_.empty() && blocks_.back() == nullptr) {
      open_.set(blocks_.size() - 1, false);
      blocks_.pop_back();
    }
  }
  // Takes over another pool's blocks, slots in use and free alike, as the
  // blocks after this pool's, in their order.
  void adopt(BlockPool& other) {
    const size_t first = blocks_.size();
    for (size_t i = 0; i < other.blocks_.size(); ++i) {
      Block* const block = other.blocks_[i];
      blocks_.push_back(block);
      open_.set(first + i, block == nullptr || block->record.has_room());
      if (block != nullptr) block->record.index = first + i;
    }
    mapped_ += std::exchange(other.mapped_, 0);
    empty_ += std::exchange(other.empty_, 0);
    other.blocks_.clear();
    other.open_.clear();
  }
  // Gives every block back, whatever it holds.
  void release_all() {
    std::vector<void*> mapped;
    for (Block* block : blocks_) {
      if (block != nullptr) mapped.push_back(block);
    }
    arena_of<Block>().give_back_all(mapped);
    blocks_.clear();
    open_.clear();
    mapped_ = 0;
    empty_ = 0;
  }
  // Room for `count` blocks without growing the table.
  void reserve(size_t count) { blocks_.reserve(count); }

  // Block `index`, for index below count(); null where it was released.
  Block* block(size_t index) const { return blocks_[index]; }
  size_t count() const { return blocks_.size(); }
  // Blocks mapped now.
  size_t mapped() const { return mapped_; }
  // The lowest block with room (count() where none has): the next take()'s.
  size_t lowest_open() const { return open_.lowest(blocks_.size()); }

 private:
  std::vector<Block*> blocks_;
  OpenBlocks open_;
  size_t mapped_ = 0;
  size_t empty_ = 0;  // mapped blocks holding no slot
};

}  // namespace gol::sparse
