// The tile kernel instantiated with Google Highway, compiled once per
// instruction set and dispatched at run time to the best one the CPU has.
// AVX3_DL (Ice Lake and Zen 4 on: VBMI2's funnel shifts) is compiled only
// on request; its shifts take three ops off each row block.
#ifndef HWY_WANT_AVX3_DL
#define HWY_WANT_AVX3_DL
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/simd/tile_step_highway.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "cpu/simd/tile_step_backends.h"
#include "engine/core/error.h"

HWY_BEFORE_NAMESPACE();
namespace gol::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The kernel's vector-ops policy over Highway's full uint64_t vectors.
struct HighwayOps {
  using D = hn::ScalableTag<uint64_t>;
  using V = hn::Vec<D>;
  static constexpr size_t kLanes = hn::MaxLanes(D());
  static constexpr bool kTernaryLogic = HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3_DL
  static constexpr bool kFunnelShift = true;
  // vpshldq/vpshrdq: the upper/lower half of the 128-bit lane pair shifted.
  // The neighbour's rows are held in a register first: GCC folds their load
  // into the shift, and on AMD's Zen 5 the engine ran 13-34% slower with
  // that memory form than with AVX3's plain shifts, and up to 8% faster
  // than them without it (bench/RESULTS.md).
  static V ShiftInWest(V row, V west) {
    InRegister(west);
    return V{_mm512_shldi_epi64(row.raw, west.raw, 1)};
  }
  static V ShiftInEast(V row, V east) {
    InRegister(east);
    return V{_mm512_shrdi_epi64(row.raw, east.raw, 1)};
  }
  // An empty asm that takes `v` in a vector register and may change it, so
  // the compiler can no longer read it from memory at its use.
  static void InRegister(V& v) { asm("" : "+v"(v.raw)); }
#else
  static constexpr bool kFunnelShift = false;
#endif

  static V Load(const uint64_t* p) { return hn::LoadU(D(), p); }
  static void Store(V v, uint64_t* p) { hn::StoreU(v, D(), p); }
  static V Zero() { return hn::Zero(D()); }
  static V Not(V a) { return hn::Not(a); }
  static V And(V a, V b) { return hn::And(a, b); }
  static V Or(V a, V b) { return hn::Or(a, b); }
  static V Xor(V a, V b) { return hn::Xor(a, b); }
  static V AndNot(V a, V b) { return hn::AndNot(a, b); }
  template <int kBits>
  static V ShiftLeft(V a) {
    return hn::ShiftLeft<kBits>(a);
  }
  template <int kBits>
  static V ShiftRight(V a) {
    return hn::ShiftRight<kBits>(a);
  }
  static V Xor3(V a, V b, V c) { return hn::Xor3(a, b, c); }
  static V OrAnd(V a, V b, V c) { return hn::OrAnd(a, b, c); }

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  // vpternlogq immediates: the truth table over a = 0xF0, b = 0xCC, c = 0xAA.
  template <int kTable>
  static V Ternary(V a, V b, V c) {
    return V{_mm512_ternarylogic_epi64(a.raw, b.raw, c.raw, kTable)};
  }
  static V Majority(V a, V b, V c) { return Ternary<0xE8>(a, b, c); }
  static V XorAndNot(V a, V b, V c) { return Ternary<(0xF0 ^ 0xCC) & ~0xAA & 0xFF>(a, b, c); }
  static V AndOr(V a, V b, V c) { return Ternary<0xF0 & (0xCC | 0xAA)>(a, b, c); }
  // valignq shifts the concatenation hi:lo right by whole lanes.
  static V RowsAbove(V previous, V current) {
    return V{_mm512_alignr_epi64(current.raw, previous.raw, kLanes - 1)};
  }
  static V RowsBelow(V current, V next) { return V{_mm512_alignr_epi64(next.raw, current.raw, 1)}; }
  static bool AllZero(V a) { return _mm512_test_epi64_mask(a.raw, a.raw) == 0; }
  // In registers: through memory, the eight lanes' loads and ORs of each
  // stepped tile's change and live columns cost 2-7% of the sparse
  // workloads' time.
  static uint64_t OrLanes(V a) { return static_cast<uint64_t>(_mm512_reduce_or_epi64(a.raw)); }
  static uint64_t ZeroLanes(V a) { return _mm512_testn_epi64_mask(a.raw, a.raw); }
  static uint64_t EdgeLanes(V a) {
    return _mm512_test_epi64_mask(a.raw, _mm512_set1_epi64(static_cast<int64_t>(kEdgeColumns)));
  }
#else
  // Highway's IfVecThenElse wants whole-lane masks on some targets, so the
  // bitwise majority is spelled out.
  static V Majority(V a, V b, V c) { return hn::Or(hn::And(a, b), hn::And(c, hn::Xor(a, b))); }
  static V XorAndNot(V a, V b, V c) { return hn::AndNot(c, hn::Xor(a, b)); }
  static V AndOr(V a, V b, V c) { return hn::And(a, hn::Or(b, c)); }
  static uint64_t OrLanes(V a) {
    uint64_t lanes[kLanes];
    hn::StoreU(a, D(), lanes);
    uint64_t all = 0;
    for (size_t lane = 0; lane < kLanes; ++lane) all |= lanes[lane];
    return all;
  }
  // One vptest where there is one: a compare and a mask extraction cost
  // more where only whether the whole vector is zero matters.
#if HWY_TARGET == HWY_AVX2
  static bool AllZero(V a) { return _mm256_testz_si256(a.raw, a.raw); }
  // A compare and a mask extraction, with no store of the mask bits.
  static uint64_t ZeroLanes(V a) {
    const __m256i zero_lanes = _mm256_cmpeq_epi64(a.raw, _mm256_setzero_si256());
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(zero_lanes)));
  }
  // Bit 0 moved up beside bit 63, which the mask extraction reads.
  static uint64_t EdgeLanes(V a) {
    const __m256i edges = _mm256_or_si256(a.raw, _mm256_slli_epi64(a.raw, 63));
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(edges)));
  }
#else
#if HWY_TARGET == HWY_SSE4
  static bool AllZero(V a) { return _mm_testz_si128(a.raw, a.raw); }
#else
  static bool AllZero(V a) { return hn::AllTrue(D(), hn::Eq(a, hn::Zero(D()))); }
#endif
  static uint64_t ZeroLanes(V a) { return MaskBits(hn::Eq(a, hn::Zero(D()))); }
  static uint64_t EdgeLanes(V a) {
    return MaskBits(hn::Ne(hn::And(a, hn::Set(D(), kEdgeColumns)), hn::Zero(D())));
  }
  // Bit i set where lane i of `mask` is (at most 8 lanes of 64 bits here).
  static uint64_t MaskBits(hn::Mask<D> mask) {
    uint8_t bits[8] = {};
    hn::StoreMaskBits(D(), mask, bits);
    return bits[0];
  }
#endif
#if HWY_TARGET == HWY_SCALAR
  static V RowsAbove(V previous, V /*current*/) { return previous; }
  static V RowsBelow(V /*current*/, V next) { return next; }
#elif HWY_TARGET == HWY_AVX2
  // Join the halves that straddle the two vectors ([p2 p3 c0 c1] or
  // [c2 c3 n0 n1]), then shift by one lane within each 128-bit half.
  static V RowsAbove(V previous, V current) {
    const V straddle = hn::ConcatLowerUpper(D(), current, previous);
    return hn::CombineShiftRightBytes<8>(D(), current, straddle);
  }
  static V RowsBelow(V current, V next) {
    const V straddle = hn::ConcatLowerUpper(D(), next, current);
    return hn::CombineShiftRightBytes<8>(D(), straddle, current);
  }
#else
  static_assert(kLanes == 2, "128-bit targets hold two rows");
  static V RowsAbove(V previous, V current) {
    return hn::CombineShiftRightBytes<8>(D(), current, previous);
  }
  static V RowsBelow(V current, V next) {
    return hn::CombineShiftRightBytes<8>(D(), next, current);
  }
#endif
#endif
};

}  // namespace gol::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#define GOL_SIMD_NAMESPACE HWY_NAMESPACE
HWY_BEFORE_NAMESPACE();
#include "cpu/simd/tile_kernel-inl.h"
HWY_AFTER_NAMESPACE();

HWY_BEFORE_NAMESPACE();
namespace gol::cpu::HWY_NAMESPACE {

void StepTilesHighway(const TileBatch& batch, const Rule& rule) {
  StepTilesForRule<HighwayOps>(batch, rule);
}

}  // namespace gol::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <iterator>

namespace gol::cpu {
namespace {

struct TargetEntry {
  int64_t target;
  decltype(&HWY_STATIC_DISPATCH(StepTilesHighway)) step;
};

// The targets foreach_target.h compiled, best first. Listed here rather
// than through HWY_EXPORT and hwy::SupportedTargets(), so that gol does not
// load libhwy: its initialiser measures the timer's resolution, 5.5 ms of
// every process start on the dev machine (a third of gol's start), for a
// timer gol never reads. Only the headers are used.
constexpr TargetEntry kCompiledTargets[] = {
#if HWY_ARCH_X86
#if HWY_TARGETS & HWY_AVX3_DL
    {HWY_AVX3_DL, &N_AVX3_DL::StepTilesHighway},
#endif
#if HWY_TARGETS & HWY_AVX3
    {HWY_AVX3, &N_AVX3::StepTilesHighway},
#endif
#if HWY_TARGETS & HWY_AVX2
    {HWY_AVX2, &N_AVX2::StepTilesHighway},
#endif
#if HWY_TARGETS & HWY_SSE4
    {HWY_SSE4, &N_SSE4::StepTilesHighway},
#endif
#if HWY_TARGETS & HWY_SSSE3
    {HWY_SSSE3, &N_SSSE3::StepTilesHighway},
#endif
#if HWY_TARGETS & HWY_EMU128
    {HWY_EMU128, &N_EMU128::StepTilesHighway},
#endif
#if HWY_TARGETS & HWY_SCALAR
    {HWY_SCALAR, &N_SCALAR::StepTilesHighway},
#endif
#else
    {HWY_STATIC_TARGET, &HWY_STATIC_DISPATCH(StepTilesHighway)},
#endif
};

#if HWY_ARCH_X86
// Whether this CPU (and its operating system, which must save the wider
// registers: __builtin_cpu_supports checks that too) has every instruction
// set Highway compiles `target` with (its HWY_TARGET_STR), so that no
// instruction the compiler chose for the target can fault. One exception:
// Highway 1.0's AVX3_DL string enables AVX-VNNI, the VEX form that only
// Alder Lake and Zen 5 on have, where AVX3_DL's CPUs (Ice Lake, Zen 4)
// have AVX-512 VNNI. Asking for AVX-VNNI kept Zen 4 on AVX3, 4-10% slower
// in the engine; the kernel holds no VNNI instruction of either form (the
// test cpu.AvxDlKernelHoldsNoVnni disassembles it), so AVX-512 VNNI is
// what is asked for.
bool cpu_runs(int64_t target) {
  __builtin_cpu_init();
  const bool ssse3 = __builtin_cpu_supports("sse2") && __builtin_cpu_supports("ssse3");
  const bool sse4 = ssse3 && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2") &&
                    __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("aes");
  const bool avx2 = sse4 && __builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") &&
                    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                    __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
  const bool avx3 = avx2 && __builtin_cpu_supports("avx512f") &&
                    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                    __builtin_cpu_supports("avx512bw");
  const bool avx3_dl =
      avx3 && __builtin_cpu_supports("vpclmulqdq") && __builtin_cpu_supports("avx512vbmi") &&
      __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("vaes") &&
      __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bitalg") &&
      __builtin_cpu_supports("avx512vpopcntdq");
  switch (target) {
    case HWY_AVX3_DL:
      return avx3_dl;
    case HWY_AVX3:
      return avx3;
    case HWY_AVX2:
      return avx2;
    case HWY_SSE4:
      return sse4;
    case HWY_SSSE3:
      return ssse3;
    default:
      return true;  // the portable targets (EMU128, SCALAR)
  }
}
#else
bool cpu_runs(int64_t /*target*/) { return true; }  // the static target alone
#endif

std::vector<TargetEntry> find_runnable_targets() {
  std::vector<TargetEntry> entries;
  std::copy_if(std::begin(kCompiledTargets), std::end(kCompiledTargets),
               std::back_inserter(entries),
               [](const TargetEntry& entry) { return cpu_runs(entry.target); });
  GOL_CHECK(!entries.empty());  // the portable target runs everywhere
  return entries;
}

const std::vector<TargetEntry>& runnable_targets() {
  static const std::vector<TargetEntry> entries = find_runnable_targets();
  return entries;
}

// The kernel step_tiles_highway runs: the best target this CPU runs.
const TargetEntry& dispatched_target() { return runnable_targets().front(); }

}  // namespace

void step_tiles_highway(const TileBatch& batch, const Rule& rule) {
  dispatched_target().step(batch, rule);
}

std::string highway_target_name() { return hwy::TargetName(dispatched_target().target); }

std::vector<std::string> highway_targets_supported() {
  std::vector<std::string> names;
  for (const TargetEntry& entry : runnable_targets()) {
    names.emplace_back(hwy::TargetName(entry.target));
  }
  return names;
}

std::vector<std::string> highway_targets_compiled() {
  std::vector<std::string> names;
  for (const TargetEntry& entry : kCompiledTargets)
    names.emplace_back(hwy::TargetName(entry.target));
  return names;
}

void step_tiles_highway_target(const TileBatch& batch, const Rule& rule, size_t target_index) {
  const std::vector<TargetEntry>& entries = runnable_targets();
  GOL_CHECK(target_index < entries.size());
  entries[target_index].step(batch, rule);
}

}  // namespace gol::cpu
#endif  // HWY_ONCE
