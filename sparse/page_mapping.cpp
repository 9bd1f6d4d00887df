// Aligned, populated anonymous mappings (see page_mapping.h).
#include "sparse/page_mapping.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <new>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL
#endif

namespace gol::sparse {

size_t page_bytes() {
  const long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<size_t>(page) : 4096;
}

char* map_aligned(size_t bytes, bool huge) {
  const size_t span = bytes + kHugePageBytes;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  char* const start =
      reinterpret_cast<char*>(round_up(reinterpret_cast<uintptr_t>(raw), kHugePageBytes));
  const size_t head = static_cast<size_t>(start - static_cast<char*>(raw));
  if (head != 0) munmap(raw, head);
  if (span - head - bytes != 0) munmap(start + bytes, span - head - bytes);
  if (huge) madvise(start, bytes, MADV_HUGEPAGE);
  return start;
}

bool populate_for_write(char* start, size_t bytes) {
  if (madvise(start, bytes, MADV_POPULATE_WRITE) == 0) return true;
  if (errno != EINVAL) return false;
  // A kernel without MADV_POPULATE_WRITE: the first touch of each page a
  // write, as the populating call would have made it.
  for (size_t at = 0; at < bytes; at += page_bytes()) {
    static_cast<volatile char*>(static_cast<void*>(start))[at] = 0;
  }
  return true;
}

namespace {

// What map_populated() maps for `bytes`: whole huge pages from one up.
size_t mapped_bytes(size_t bytes) {
  return round_up(bytes, bytes >= kHugePageBytes ? kHugePageBytes : page_bytes());
}

}  // namespace

void* map_populated(size_t bytes) {
  if (bytes < kHugePageBytes) {
    void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (block == MAP_FAILED) throw std::bad_alloc();
    return block;
  }
  const size_t mapped = mapped_bytes(bytes);
  char* const block = map_aligned(mapped, true);
  if (!populate_for_write(block, mapped)) {
    munmap(block, mapped);
    throw std::bad_alloc();
  }
  return block;
}

void unmap_populated(void* block, size_t bytes) { munmap(block, mapped_bytes(bytes)); }

}  // namespace gol::sparse
