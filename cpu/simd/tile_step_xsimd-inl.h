// The tile kernel's xsimd policy and entry point, compiled by one .cpp file
// per instruction set (each with its own compiler flags and its own
// GOL_SIMD_NAMESPACE, so no two copies share a symbol).
#pragma once

#include <xsimd/xsimd.hpp>

#include "cpu/simd/tile_step_backends.h"

namespace gol::cpu::GOL_SIMD_NAMESPACE {

// The kernel's vector-ops policy over xsimd batches of uint64_t. Every
// operation is xsimd's; the values the kernel keeps are the batches' native
// registers, which GCC keeps in registers across the band loop, where it
// kept xsimd::batch objects on the stack (the partly stepped tile then took
// 2.6 times Highway's time, `gol bench --cpu-kernels`). Wrapped in a struct,
// as Highway's are, they went back to the stack (AVX2: 733 stack accesses
// in the kernel against 315).
template <class Arch>
struct XsimdOps {
  using B = xsimd::batch<uint64_t, Arch>;
  using V = typename B::register_type;
  static constexpr size_t kLanes = B::size;
  static constexpr bool kTernaryLogic = false;  // no ternary-logic op in xsimd
  static constexpr bool kFunnelShift = false;   // nor a funnel shift

  static V Load(const uint64_t* p) { return B::load_unaligned(p); }
  static void Store(V v, uint64_t* p) { B(v).store_unaligned(p); }
  static V Zero() { return B(uint64_t{0}); }
  static V Not(V a) { return ~B(a); }
  static V And(V a, V b) { return B(a) & B(b); }
  static V Or(V a, V b) { return B(a) | B(b); }
  static V Xor(V a, V b) { return B(a) ^ B(b); }
  // Spelled out: xsimd's bitwise_andnot operand order differs between versions.
  static V AndNot(V a, V b) { return ~B(a) & B(b); }
  template <int kBits>
  static V ShiftLeft(V a) {
    return B(a) << kBits;
  }
  template <int kBits>
  static V ShiftRight(V a) {
    return B(a) >> kBits;
  }
  static V Xor3(V a, V b, V c) { return B(a) ^ B(b) ^ B(c); }
  // One vptest (ptest with SSE4.1), as the Highway policy does.
  static bool AllZero(V a) {
#if XSIMD_WITH_AVX512F
    return _mm512_test_epi64_mask(a, a) == 0;
#elif XSIMD_WITH_AVX2
    return _mm256_testz_si256(a, a);
#else
    return xsimd::all(B(a) == B(uint64_t{0}));
#endif
  }
  static uint64_t OrLanes(V a) {
#if XSIMD_WITH_AVX512F
    return static_cast<uint64_t>(_mm512_reduce_or_epi64(a));
#else
    alignas(64) uint64_t lanes[kLanes];
    B(a).store_aligned(lanes);
    uint64_t all = 0;
    for (size_t lane = 0; lane < kLanes; ++lane) all |= lanes[lane];
    return all;
#endif
  }
  static uint64_t ZeroLanes(V a) {
#if XSIMD_WITH_AVX512F
    return _mm512_testn_epi64_mask(a, a);
#elif XSIMD_WITH_AVX2
    const __m256i zero_lanes = _mm256_cmpeq_epi64(a, _mm256_setzero_si256());
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(zero_lanes)));
#else
    // SSE2 has no 64-bit compare.
    return LaneBits(a, [](uint64_t lane) { return lane == 0; });
#endif
  }
  static uint64_t EdgeLanes(V a) {
#if XSIMD_WITH_AVX512F
    return _mm512_test_epi64_mask(a, _mm512_set1_epi64(static_cast<int64_t>(kEdgeColumns)));
#elif XSIMD_WITH_AVX2
    // Bit 0 moved up beside bit 63, which the mask extraction reads.
    const __m256i edges = _mm256_or_si256(a, _mm256_slli_epi64(a, 63));
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(edges)));
#else
    return LaneBits(a, [](uint64_t lane) { return (lane & kEdgeColumns) != 0; });
#endif
  }
  static V OrAnd(V a, V b, V c) { return B(a) | (B(b) & B(c)); }
  static V Majority(V a, V b, V c) { return (B(a) & B(b)) | (B(c) & (B(a) ^ B(b))); }
  static V XorAndNot(V a, V b, V c) { return AndNot(c, B(a) ^ B(b)); }
  static V AndOr(V a, V b, V c) { return B(a) & (B(b) | B(c)); }

  // xsimd has no whole-register lane shift; these are the native ones.
  static V RowsAbove(V previous, V current) { return JoinShifted<kLanes - 1>(previous, current); }
  static V RowsBelow(V current, V next) { return JoinShifted<1>(current, next); }

 private:
  // Bit i set where `test` holds for lane i, lane by lane: where no vector
  // instruction answers it.
  template <class Test>
  static uint64_t LaneBits(V a, Test test) {
    alignas(16) uint64_t lanes[kLanes];
    B(a).store_aligned(lanes);
    uint64_t bits = 0;
    for (size_t lane = 0; lane < kLanes; ++lane) bits |= uint64_t{test(lanes[lane])} << lane;
    return bits;
  }

  // Lanes [kShift, kShift + kLanes) of the concatenation lo:hi.
  template <size_t kShift>
  static V JoinShifted(V lo, V hi) {
    // The including file's compiler flags decide which registers exist.
#if XSIMD_WITH_AVX512F
    return V(_mm512_alignr_epi64(hi, lo, kShift));
#elif XSIMD_WITH_AVX2
    const __m256i straddle = _mm256_permute2x128_si256(lo, hi, 0x21);
    return kShift == 1 ? V(_mm256_alignr_epi8(straddle, lo, 8))
                       : V(_mm256_alignr_epi8(hi, straddle, 8));
#else
    static_assert(kLanes == 2, "SSE registers hold two rows");
    return V(_mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(lo), _mm_castsi128_pd(hi), 1)));
#endif
  }
};

}  // namespace gol::cpu::GOL_SIMD_NAMESPACE

// A native register as a template argument loses its may_alias attribute,
// which the kernel never needs: it reads and writes rows through Load and
// Store only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#include "cpu/simd/tile_kernel-inl.h"

namespace gol::cpu::GOL_SIMD_NAMESPACE {

// This file's copy of the kernel for the instruction set `Arch`, which the
// including .cpp file's compiler flags must enable.
template <class Arch>
void StepTilesXsimd(const TileBatch& batch, const Rule& rule) {
  StepTilesForRule<XsimdOps<Arch>>(batch, rule);
}

}  // namespace gol::cpu::GOL_SIMD_NAMESPACE
#pragma GCC diagnostic pop
