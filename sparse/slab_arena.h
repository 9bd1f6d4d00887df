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

// TileMap's slabs and TilePairPool's blocks come from SlabArenas, not the
// heap: glibc serves blocks of their size from its heap once any mmapped
// block was freed (its mmap threshold rises), and a hole in the heap is
// rarely returned to the system. The arena populates a block's pages at
// once, which costs less than a fault for each page as slots are first
// used (the spacefiller, one thread: 1.25 -> 1.15 s, bench/RESULTS.md), and
// means no page is first touched by a read: that would map the shared zero
// page, and the kernel's first store into it would fault again and flush
// every thread's TLB. It places blocks in huge pages where the kernel
// allows.
//
// A few released blocks are kept for the next map (cleared, which costs a
// fraction of unmapping one and populating another): moving a world
// between grids (GridStepper's strips) releases blocks from one as it fills
// another. Kept few, so that memory still follows the tiles held.
inline constexpr size_t kKeptArenaBlocks = 4;

// Each arena's first 32 chunks (64 MiB) stay in small pages, the rest are
// huge. A huge page costs more to fault in where the host has taken back
// the memory a finished process freed (the Zen 5 dev host, a Firecracker
// guest that reports free pages): the spacefiller, 30 chunks, ran in
// 0.38-0.39 s with them small and 0.39-0.48 s with all but the first huge,
// each run 2.5 s after the last (bench/RESULTS.md). Only right after a run
// of its own, whose freed huge pages the guest still held, did huge pages
// win (0.39-0.41 s against 0.42-0.46 s), and the bench takes its engines in
// turns, as a user runs one pattern at a time. Small pages also keep a
// small world to the blocks it uses (the switch engine's peak: 7.3 MiB with
// every chunk small, 8.7 MiB with every chunk huge). Beyond 64 MiB, four
// times the TLB's reach in small pages, chunks are huge again; no world
// that large was timed both ways on this host.
inline constexpr size_t kSmallPageArenaChunks = 32;

// The arena for blocks of sizeof(Block), one for every map in the process,
// never destroyed: a map held by a static object may outlive any other
// static.
template <class Block>
SlabArena& arena_of() {
  static SlabArena* const arena =
      new SlabArena(sizeof(Block), kKeptArenaBlocks, kSmallPageArenaChunks);
  return *arena;
}

}  // namespace gol::sparse
