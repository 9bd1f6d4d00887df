// Zeroed, page-aligned blocks of one size (TileMap's slabs), carved from
// 2 MiB-aligned chunks that the kernel may back with one huge page each.
//
// Why: a sparse world's active tiles are scattered over all its slabs, so
// each generation touches thousands of 4 KiB pages, more than the TLB
// holds; on the Zen 5 dev host that cost about a tenth of the
// spacefiller's time (bench/RESULTS.md). In huge pages the same tiles span
// a few dozen, and a growing world's first touches are 512 times fewer
// (page_mapping.h). That was timed with each run right after another; a
// huge page costs more to fault in where the host has taken the memory
// back, so the first chunks can be left small (TileMap leaves 64 MiB).
//
// Memory still follows the blocks in use: a chunk is unmapped once none of
// its blocks is held, and a block given back inside a chunk still in use
// returns its pages (MADV_DONTNEED). A few blocks given back are kept
// resident instead and handed out first, cleared: moving a world between
// grids gives back blocks from one as it takes them for the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "sparse/page_mapping.h"

namespace gol::sparse {

class SlabArena {
 public:
  static constexpr size_t kChunkBytes = kHugePageBytes;

  // Blocks of `block_bytes` (rounded up to whole pages); up to
  // `kept_blocks` given back stay resident for the next take(). While
  // fewer than `small_page_chunks` chunks are mapped, a new one is left in
  // small pages (see huge_from_).
  SlabArena(size_t block_bytes, size_t kept_blocks, size_t small_page_chunks = 0);
  ~SlabArena();  // unmaps every chunk, whatever is still held
  SlabArena(const SlabArena&) = delete;
  SlabArena& operator=(const SlabArena&) = delete;

  // A zeroed block with its pages present (so that no page is first
  // touched by a read). Throws std::bad_alloc when memory runs out.
  void* take();
  // Returns a block from take().
  void give_back(void* block);
  // Returns blocks from take() together: a chunk left holding none is
  // unmapped whole, where returning its blocks one by one would first
  // split its huge page to return each block's pages.
  void give_back_all(std::span<void* const> blocks);

  size_t blocks_per_chunk() const { return blocks_per_chunk_; }
  // Chunks mapped now, and blocks resident but not held.
  size_t chunks() const;
  size_t kept() const;

 private:
  struct Chunk {
    char* base = nullptr;
    uint32_t held = 0;  // bit i: block i is held
    uint32_t kept = 0;  // bit i: block i was given back and is still resident
  };
  char* block_at(const Chunk& chunk, int index) const {
    return chunk.base + static_cast<size_t>(index) * stride_;
  }
  // Under lock_: a resident block to clear, or a free one to populate.
  char* take_kept();
  char* take_free();
  // Under lock_: the first chunk whose base lies above `at`.
  std::vector<Chunk>::iterator chunk_after(const char* at);
  // The chunk holding `block`, under lock_.
  Chunk& chunk_of(const char* block);
  // Under lock_: marks `block` no longer held, kept if there is room;
  // true when it was kept.
  bool release(Chunk& chunk, const char* block);
  // Under lock_: takes the chunks holding and keeping nothing off the list
  // and returns their bases, to be unmapped once the lock is let go.
  std::vector<char*> take_empty_chunks();
  void populate(char* block);

  size_t stride_;
  size_t chunk_bytes_;
  size_t blocks_per_chunk_;
  size_t kept_limit_;
  // A chunk in a huge page is resident whole from its first block on, so
  // the chunk a world is filling holds up to 2 MiB it does not use.
  size_t huge_from_;
  mutable std::mutex lock_;
  std::vector<Chunk> chunks_;  // by base address
  size_t kept_count_ = 0;
};

}  // namespace gol::sparse
