// Blocks for TileMap's slabs from huge-page-sized chunks (see slab_arena.h).
#include "sparse/slab_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include "engine/core/error.h"
#include "sparse/page_mapping.h"

namespace gol::sparse {
namespace {

constexpr size_t kMaxBlocksPerChunk = 32;  // Chunk's bit masks

}  // namespace

SlabArena::SlabArena(size_t block_bytes, size_t kept_blocks, size_t small_page_chunks)
    : stride_(round_up(block_bytes, page_bytes())),
      chunk_bytes_(std::max(kChunkBytes, round_up(stride_, kChunkBytes))),
      blocks_per_chunk_(std::min(kMaxBlocksPerChunk, chunk_bytes_ / stride_)),
      kept_limit_(kept_blocks),
      huge_from_(small_page_chunks) {
  GOL_CHECK(block_bytes > 0);
}

SlabArena::~SlabArena() {
  for (const Chunk& chunk : chunks_) munmap(chunk.base, chunk_bytes_);
}

size_t SlabArena::chunks() const {
  const std::lock_guard<std::mutex> hold(lock_);
  return chunks_.size();
}

size_t SlabArena::kept() const {
  const std::lock_guard<std::mutex> hold(lock_);
  return kept_count_;
}

char* SlabArena::take_kept() {
  if (kept_count_ == 0) return nullptr;
  for (Chunk& chunk : chunks_) {
    if (chunk.kept == 0) continue;
    const int index = std::countr_zero(chunk.kept);
    chunk.kept &= chunk.kept - 1;
    chunk.held |= uint32_t{1} << index;
    --kept_count_;
    return block_at(chunk, index);
  }
  return nullptr;
}

char* SlabArena::take_free() {
  const uint32_t all =
      blocks_per_chunk_ == 32 ? ~uint32_t{0} : (uint32_t{1} << blocks_per_chunk_) - 1;
  // The lowest chunk with room, so that use packs low and high chunks empty.
  for (Chunk& chunk : chunks_) {
    const uint32_t open = all & ~(chunk.held | chunk.kept);
    if (open == 0) continue;
    const int index = std::countr_zero(open);
    chunk.held |= uint32_t{1} << index;
    return block_at(chunk, index);
  }
  return nullptr;
}

std::vector<SlabArena::Chunk>::iterator SlabArena::chunk_after(const char* at) {
  return std::upper_bound(
      chunks_.begin(), chunks_.end(), at,
      [](const char* address, const Chunk& chunk) { return address < chunk.base; });
}

SlabArena::Chunk& SlabArena::chunk_of(const char* block) {
  const auto after = chunk_after(block);
  GOL_CHECK(after != chunks_.begin());
  Chunk& chunk = *(after - 1);
  GOL_CHECK(block < chunk.base + blocks_per_chunk_ * stride_);
  return chunk;
}

void SlabArena::populate(char* block) {
  if (populate_for_write(block, stride_)) return;
  give_back(block);
  throw std::bad_alloc();
}

void* SlabArena::take() {
  char* block = nullptr;
  bool kept = false;
  bool huge = false;
  {
    const std::lock_guard<std::mutex> hold(lock_);
    block = take_kept();
    kept = block != nullptr;
    if (!kept) block = take_free();
    huge = chunks_.size() >= huge_from_;
  }
  // Outside the lock from here: the block is marked held, so no other
  // thread takes it.
  if (kept) {
    std::memset(block, 0, stride_);
    return block;
  }
  if (block == nullptr) {
    char* const base = map_aligned(chunk_bytes_, huge);
    const std::lock_guard<std::mutex> hold(lock_);
    const Chunk chunk{base, 1, 0};
    chunks_.insert(chunk_after(base), chunk);
    block = base;
  }
  populate(block);
  return block;
}

bool SlabArena::release(Chunk& chunk, const char* block) {
  const auto bit = uint32_t{1} << ((block - chunk.base) / static_cast<ptrdiff_t>(stride_));
  GOL_CHECK((chunk.held & bit) != 0);
  chunk.held &= ~bit;
  if (kept_count_ == kept_limit_) return false;
  chunk.kept |= bit;
  ++kept_count_;
  return true;
}

std::vector<char*> SlabArena::take_empty_chunks() {
  std::vector<char*> empty;
  std::erase_if(chunks_, [&](const Chunk& chunk) {
    if (chunk.held != 0 || chunk.kept != 0) return false;
    empty.push_back(chunk.base);
    return true;
  });
  return empty;
}

void SlabArena::give_back(void* given) { give_back_all(std::span<void* const>(&given, 1)); }

void SlabArena::give_back_all(std::span<void* const> blocks) {
  std::vector<char*> empty;
  {
    const std::lock_guard<std::mutex> hold(lock_);
    std::vector<char*> released;
    for (void* given : blocks) {
      char* const block = static_cast<char*>(given);
      if (!release(chunk_of(block), block)) released.push_back(block);
    }
    for (char* block : released) {
      // A chunk still in use returns this block's pages; an unused one is
      // unmapped below. Under the lock: once it is let go, another thread
      // may take this block and populate it, which a late MADV_DONTNEED
      // would wipe.
      const Chunk& chunk = chunk_of(block);
      if (chunk.held != 0 || chunk.kept != 0) madvise(block, stride_, MADV_DONTNEED);
    }
    empty = take_empty_chunks();
  }
  for (char* base : empty) munmap(base, chunk_bytes_);
}

}  // namespace gol::sparse
