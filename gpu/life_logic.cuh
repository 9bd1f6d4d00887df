// Bit-sliced Life logic shared by the bit-packed kernels: 32 cells a word,
// each function written as three-input boolean expressions that the
// compiler maps onto single LOP3 instructions.
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

// B3/S23 from the row sums of the rows above, at and below, in eight LOP3s.
// The nine-cell sum S (centre included) is ones + 2*T with
// ones = xor3(bit0s), k = majority(bit0s) and T = x + k + 2*y, where
// x = xor3(bit1s), y = majority(bit1s). Alive next iff S == 3 (ones and
// T == 1) or S == 4 and alive now (not ones and T == 2). With u = x ^ k:
// T == 1 is u & ~y, and T == 2 is ~u & (x ^ y) (u == 0 means x == k).
struct ConwayLogic {
  __device__ __forceinline__ uint32_t operator()(RowSum above, RowSum mid, RowSum below,
                                                 uint32_t alive) const {
    constexpr uint8_t A = 0xf0, B = 0xcc, C = 0xaa;
    const uint32_t ones = lop3<kXor3>(above.bit0, mid.bit0, below.bit0);
    const uint32_t k = lop3<kMajority>(above.bit0, mid.bit0, below.bit0);
    const uint32_t x = lop3<kXor3>(above.bit1, mid.bit1, below.bit1);
    const uint32_t y = lop3<kMajority>(above.bit1, mid.bit1, below.bit1);
    const uint32_t u = x ^ k;
    // pick(u, y, x) = u ? ~y : x ^ y
    const uint32_t pick = lop3<static_cast<uint8_t>((A & ~B) | (~A & (C ^ B)))>(u, y, x);
    // gate(ones, u, alive) = ones ? u : alive & ~u
    const uint32_t gate = lop3<static_cast<uint8_t>((A & B) | (~A & C & ~B))>(ones, u, alive);
    return pick & gate;
  }
};

// Any Life-like rule: the nine-cell sum as four bit planes, then the birth
// and survival masks (bit n: n neighbours) applied value by value.
struct GenericLogic {
  uint32_t birth;
  uint32_t survival;

  __device__ __forceinline__ uint32_t operator()(RowSum above, RowSum mid, RowSum below,
                                                 uint32_t alive) const {
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
