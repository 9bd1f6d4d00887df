// What the kernel holds for a block of memory: its resident pages and
// whether its mapping is advised for huge pages, for the tests of the
// grid's own mappings.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gol::sparse {

// Pages of [block, block + bytes) present in memory; SIZE_MAX where mincore
// fails, so that a test expecting none present cannot pass on a failure.
inline size_t resident_pages(const void* block, size_t bytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<uintptr_t>(block) / page * page;
  const size_t span = reinterpret_cast<uintptr_t>(block) + bytes - start;
  std::vector<unsigned char> present((span + page - 1) / page);
  if (mincore(reinterpret_cast<void*>(start), span, present.data()) != 0) return SIZE_MAX;
  size_t count = 0;
  for (unsigned char flags : present) count += flags & 1u;
  return count;
}

// Whether the mapping holding `at` is advised for huge pages (the "hg" of
// its VmFlags in /proc/self/smaps); false where no mapping holds it.
inline bool advised_huge(const void* at) {
  std::ifstream smaps("/proc/self/smaps");
  const auto address = reinterpret_cast<uintptr_t>(at);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = address >= begin && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.find(" hg") != std::string::npos;
    }
  }
  return false;
}

}  // namespace gol::sparse
