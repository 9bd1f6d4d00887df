// Bit-sliced Life logic shared by the bit-packed kernels: 32 cells a word,
// each function written as three-input boolean expressions that map onto
// single LOP3 instructions.
#pragma once

#include <cstdint>

namespace gol::gpu {

// One LOP3: the boolean function of three inputs whose truth table is
// kTable, read as f(0xf0, 0xcc, 0xaa) (the PTX convention). Written out
// because the compiler otherwise splits some three-input functions in two.
template <uint8_t kTable>
__device__ __forceinline__ uint32_t lop3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t result;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(result) : "r"(a), "r"(b), "r"(c), "n"(kTable));
  return result;
}

constexpr uint8_t kXor3 = 0xf0 ^ 0xcc ^ 0xaa;
constexpr uint8_t kMajority = (0xf0 & 0xcc) | (0xf0 & 0xaa) | (0xcc & 0xaa);

// The horizontal three-cell sum (west + centre + east) of one row as a
// two-bit number per cell: bit0 = xor3, bit1 = majority.
struct RowSum {
  uint32_t bit0;
  uint32_t bit1;
};

__device__ __forceinline__ RowSum row_sum(uint32_t west, uint32_t centre, uint32_t east) {
  return {lop3<kXor3>(west, centre, east), lop3<kMajority>(west, centre, east)};
}

// West and east neighbour planes of `centre`, given the words to its left
// and right: bit i of the result is the cell at i-1 (west) or i+1 (east).
__device__ __forceinline__ uint32_t west_of(uint32_t left_word, uint32_t centre) {
  return __funnelshift_l(left_word, centre, 1);
}
__device__ __forceinline__ uint32_t east_of(uint32_t centre, uint32_t right_word) {
  return __funnelshift_r(centre, right_word, 1);
}

// The rules take the three-cell sums of the rows above and below, the west
// and east neighbour planes of the cell's own row and the cell itself: each
// row's sum is computed once and serves the rows above and below it, so a
// word costs 2 SHF + 2 LOP3 for its row planes plus what the rule adds.
//
// B3/S23 in six LOP3s. The eight-neighbour count is N = L + 2H with
// L = a + b0 and H = m + t1 + b1, where a = xor3(t0, west, east) and
// m = majority(t0, west, east) (t0/t1, b0/b1: the above/below sums' bits).
// Alive next iff N == 3 (L == 1, H == 1) or alive and N == 2 (L == 0 and
// H == 1, or L == 2 and H == 0). With one = [H == 1],
// lone = alive & ~m & ~b1 (alive, and H is t1 alone) and
// edge = [L == 2] | (~alive & [L == 0]), the result is
// one ? ~edge : lone & edge (when H != 1 and lone, H is 0, and edge with
// alive means L == 2). The network of the last four was found by a SAT
// search for the fewest LOP3s over (a, m, t1, b0, b1, alive): three do
// not suffice. 8 LOP3 a word in all instead of the 10 of summing the
// three rows' sums bit-plane by bit-plane (65536^2 on the H100: see
// bench/RESULTS.md).
struct ConwayLogic {
  __device__ __forceinline__ uint32_t operator()(RowSum above, RowSum below, uint32_t west,
                                                 uint32_t east, uint32_t alive) const {
    constexpr uint8_t A = 0xf0, B = 0xcc, C = 0xaa;
    const uint32_t a = lop3<kXor3>(above.bit0, west, east);
    const uint32_t m = lop3<kMajority>(above.bit0, west, east);
    const uint32_t lone = lop3<static_cast<uint8_t>(~A & ~B & C)>(m, below.bit1, alive);
    const uint32_t one = lop3<static_cast<uint8_t>((A & ~B & ~C) | (~A & B & ~C) | (~A & ~B & C))>(
        m, above.bit1, below.bit1);
    const uint32_t edge =
        lop3<static_cast<uint8_t>((A & B) | (~A & ~B & ~C))>(a, below.bit0, alive);
    // one ? ~edge : lone & edge, as f(lone, one, edge)
    return lop3<static_cast<uint8_t>((B & ~C) | (~B & A & C))>(lone, one, edge);
  }
};

// Any Life-like rule: the nine-cell sum as four bit planes, then the birth
// and survival masks (bit n: n neighbours) applied value by value.
struct GenericLogic {
  uint32_t birth;
  uint32_t survival;

  __device__ __forceinline__ uint32_t operator()(RowSum above, RowSum below, uint32_t west,
                                                 uint32_t east, uint32_t alive) const {
    const RowSum mid = row_sum(west, alive, east);
    const uint32_t s0 = above.bit0 ^ mid.bit0 ^ below.bit0;
    const uint32_t k =
        (above.bit0 & mid.bit0) | (above.bit0 & below.bit0) | (mid.bit0 & below.bit0);
    const uint32_t x = above.bit1 ^ mid.bit1 ^ below.bit1;
    const uint32_t y =
        (above.bit1 & mid.bit1) | (above.bit1 & below.bit1) | (mid.bit1 & below.bit1);
    const uint32_t s1 = x ^ k;
    const uint32_t carry = x & k;
    const uint32_t s2 = y ^ carry;
    const uint32_t s3 = y & carry;
    uint32_t next = 0;
    for (int sum = 0; sum <= 9; ++sum) {
      const uint32_t equal = ((sum & 1) ? s0 : ~s0) & ((sum & 2) ? s1 : ~s1) &
                             ((sum & 4) ? s2 : ~s2) & ((sum & 8) ? s3 : ~s3);
      // A dead cell has `sum` neighbours, a live one sum - 1.
      const uint32_t born = ((birth >> sum) & 1u) ? ~alive : 0u;
      const uint32_t kept = (sum > 0 && ((survival >> (sum - 1)) & 1u)) ? alive : 0u;
      next |= equal & (born | kept);
    }
    return next;
  }
};

}  // namespace gol::gpu
