// Anonymous memory for the grid's large blocks: mapped on a huge-page
// boundary where asked, and populated by one call rather than page by page.
//
// Why: in the dev host's VM, the first touch of each 4 KiB page costs
// several microseconds even after it was populated (a 3 MB table: 4 ms to
// populate and fill in small pages, 0.3 ms in huge ones), so a large table
// or slab chunk in huge pages costs a fraction of the same in small ones.
#pragma once

#include <cstddef>

namespace gol::sparse {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// The system's page size.
size_t page_bytes();

// `bytes` rounded up to a whole number of `unit`s.
constexpr size_t round_up(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

// `bytes` (a multiple of kHugePageBytes) of fresh zeroed memory starting on
// a kHugePageBytes boundary, advised into huge pages where `huge` (where the
// kernel has them off, ordinary pages: slower, as correct). Throws
// std::bad_alloc. Give it back with munmap(start, bytes).
char* map_aligned(size_t bytes, bool huge);

// Makes the pages of [start, start + bytes) present and written, so that
// none is first touched by a read (which would map the shared zero page,
// and the first store would fault again). False when memory ran out.
bool populate_for_write(char* start, size_t bytes);

// A populated block of `bytes` for a large table: whole huge pages from
// kHugePageBytes up, small pages below. Throws std::bad_alloc; give it
// back with unmap_populated(block, bytes).
void* map_populated(size_t bytes);
void unmap_populated(void* block, size_t bytes);

}  // namespace gol::sparse
