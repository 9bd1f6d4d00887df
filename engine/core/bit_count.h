// Counting set bits without std::popcount. The build has no -march (the
// SIMD kernels pick their instruction set at run time), so without
// -mpopcnt std::popcount is a call into libgcc per word, which made the
// population of a large world cost more than its loading (perf: 12% of a
// run of a 16384^2 soup's ash). This form is a few ALU operations that the
// compiler also vectorises over arrays.
#pragma once

#include <cstdint>

namespace gol {

constexpr int bit_count(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  return static_cast<int>((x * 0x0101010101010101u) >> 56);
}
static_assert(bit_count(0) == 0 && bit_count(~uint64_t{0}) == 64 && bit_count(0x5A) == 4 &&
              bit_count(uint64_t{1} << 63) == 1);

}  // namespace gol
