// The public baseline for `gol bench --gpu-kernels`, used by the bench only:
// a re-implementation of the CUDA kernel of binary-banter/fast-game-of-life
// (github.com/binary-banter/fast-game-of-life, src/kernels/gol.cu, at commit
// b7d743e), with that project's settings: 32 threads a block, 16 rows a
// thread, 16 generations a launch. The repository carries no licence (no
// LICENSE file, none named in its Cargo.toml), so none of its code is copied:
// its algorithm is written anew here, in this project's words, and kept
// apart from our kernels.
//
// The algorithm. The field is stored column by column (a column is one
// 32-bit word wide, bit 31 the westmost cell). A block is one warp stacked
// vertically: each thread holds 16 consecutive rows of one column, the block
// 512 rows of which the middle 480 are stored after 16 generations. A
// thread keeps each row as two words shifted by half a word, so that they
// hold its 32 cells with 16 cells of the neighbouring columns on each side:
// the horizontal light cone of 16 generations stays inside the thread and
// no thread exchanges words sideways. Rows are read 4 at a time (16-byte
// loads of the west, own and east columns, spliced into the shifted pair
// with byte permutes). Once a generation each thread takes the row above
// its first and below its last from the neighbouring lanes by shuffles.
// The rule: the three-cell sums of the rows above and below, a full adder
// of the upper sum's low bit with the row's west and east neighbours, then
// four LOP3s; the original's four were found by a SAT solver, and these are
// ours (gpu/life_logic.cuh, the same count), so every word costs the same
// 2 shifts and 8 LOP3s.
//
// Differences, none of which changes the work: the original runs on a plane
// padded with dead cells; here the field is our torus, so rows and columns
// wrap where the original reads its padding, and rows past the field are not
// stored. The bench converts our row-major field into this layout (bits
// reversed, so the cells are the same) once, before timing.
#include <cuda_runtime.h>

#include "gpu/cuda_check.cuh"
#include "gpu/life_logic.cuh"
#include "gpu/public_baseline_kernel.cuh"

namespace gol::gpu {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kThreads = 32;
constexpr int kRows = 16;
constexpr int kGens = 16;
constexpr int kBlockRows = kThreads * kRows;
constexpr int kInteriorRows = kBlockRows - 2 * kGens;

// The 32 bits made of the low half of `west_word` then the high half of
// `east_word` (bit 31 westmost): one PRMT.
__device__ __forceinline__ uint32_t splice(uint32_t west_word, uint32_t east_word) {
  return __byte_perm(east_word, west_word, 0x5432);
}

// Rows reach at most a block (512 rows) past the field, so on fields of 512
// rows or more one add or subtract wraps them: no division where the
// original reads its padding.
__device__ __forceinline__ int64_t wrap(int64_t index, int64_t extent) {
  while (index < 0) index += extent;
  while (index >= extent) index -= extent;
  return index;
}

// A row held as two shifted words, with bit 31 westmost: the west and east
// neighbour planes of each and its three-cell sums.
struct PairPlanes {
  uint32_t west[2];
  uint32_t east[2];
  RowSum sum[2];
};

__device__ __forceinline__ PairPlanes pair_planes(uint32_t left, uint32_t right) {
  PairPlanes p;
  p.west[0] = left >> 1;
  p.east[0] = __funnelshift_l(right, left, 1);
  p.west[1] = __funnelshift_r(right, left, 1);
  p.east[1] = right << 1;
  p.sum[0] = row_sum(p.west[0], left, p.east[0]);
  p.sum[1] = row_sum(p.west[1], right, p.east[1]);
  return p;
}

__global__ void __launch_bounds__(kThreads)
    public_baseline_kernel(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst,
                           int64_t columns, int64_t height, int generations) {
  const int lane = threadIdx.x;
  const int64_t column = blockIdx.x;
  const int64_t west_column = column == 0 ? columns - 1 : column - 1;
  const int64_t east_column = column == columns - 1 ? 0 : column + 1;
  const int64_t first_row = int64_t{blockIdx.y} * kInteriorRows - kGens + int64_t{lane} * kRows;

  // Rows 1..16 are the thread's; 0 and 17 come from the lanes above and below.
  uint32_t left[kRows + 2];
  uint32_t right[kRows + 2];
#pragma unroll
  for (int q = 0; q < kRows / 4; ++q) {
    const int64_t row = wrap(first_row + 4 * q, height);  // 4-row groups never straddle the wrap
    const uint4 w = *reinterpret_cast<const uint4*>(src + west_column * height + row);
    const uint4 m = *reinterpret_cast<const uint4*>(src + column * height + row);
    const uint4 e = *reinterpret_cast<const uint4*>(src + east_column * height + row);
    const uint32_t west_words[4] = {w.x, w.y, w.z, w.w};
    const uint32_t own_words[4] = {m.x, m.y, m.z, m.w};
    const uint32_t east_words[4] = {e.x, e.y, e.z, e.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      left[4 * q + j + 1] = splice(west_words[j], own_words[j]);
      right[4 * q + j + 1] = splice(own_words[j], east_words[j]);
    }
  }

  for (int gen = 0; gen < generations; ++gen) {
    left[0] = __shfl_up_sync(kFullMask, left[kRows], 1);
    right[0] = __shfl_up_sync(kFullMask, right[kRows], 1);
    left[kRows + 1] = __shfl_down_sync(kFullMask, left[1], 1);
    right[kRows + 1] = __shfl_down_sync(kFullMask, right[1], 1);
    PairPlanes above = pair_planes(left[0], right[0]);
    PairPlanes current = pair_planes(left[1], right[1]);
    uint32_t next_left[kRows];
    uint32_t next_right[kRows];
#pragma unroll
    for (int i = 1; i <= kRows; ++i) {
      const PairPlanes below = pair_planes(left[i + 1], right[i + 1]);
      const ConwayLogic logic;
      next_left[i - 1] =
          logic(above.sum[0], below.sum[0], current.west[0], current.east[0], left[i]);
      next_right[i - 1] =
          logic(above.sum[1], below.sum[1], current.west[1], current.east[1], right[i]);
      above = current;
      current = below;
    }
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      left[i + 1] = next_left[i];
      right[i + 1] = next_right[i];
    }
  }

#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const int local_row = lane * kRows + i;
    const int64_t row = first_row + i;
    if (local_row < kGens || local_row >= kBlockRows - kGens || row >= height) continue;
    dst[column * height + row] = splice(left[i + 1], right[i + 1]);
  }
}

__global__ void to_column_major_kernel(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst,
                                       int64_t width_words, int64_t height) {
  const int64_t col = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t row = int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (col >= width_words || row >= height) return;
  dst[col * height + row] = __brev(src[row * width_words + col]);
}

}  // namespace

uint64_t launch_public_baseline(const uint32_t* src, uint32_t* dst, PackedFieldView field,
                                int generations, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(field.width_words),
                  static_cast<unsigned>((field.height + kInteriorRows - 1) / kInteriorRows));
  public_baseline_kernel<<<grid, kThreads, 0, stream>>>(src, dst, field.width_words, field.height,
                                                        generations);
  GOL_CUDA_CHECK_LAUNCH();
  return uint64_t{grid.x} * grid.y * kBlockRows * 64 * static_cast<uint64_t>(generations);
}

void to_public_baseline_layout(const uint32_t* src, uint32_t* dst, PackedFieldView field,
                               cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((field.width_words + block.x - 1) / block.x),
                  static_cast<unsigned>((field.height + block.y - 1) / block.y));
  to_column_major_kernel<<<grid, block, 0, stream>>>(src, dst, field.width_words, field.height);
  GOL_CUDA_CHECK_LAUNCH();
}

}  // namespace gol::gpu
