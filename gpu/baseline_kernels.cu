// The one-generation-a-launch baselines of the published progression: a
// naive byte-a-cell kernel and a bit-packed kernel reading its nine words
// from global memory.
#include <cuda_runtime.h>

#include "gpu/cuda_check.cuh"
#include "gpu/kernel_config.cuh"
#include "gpu/kernels.cuh"
#include "gpu/life_logic.cuh"

namespace gol::gpu {
namespace {

__device__ __forceinline__ int64_t wrap_once(int64_t index, int64_t extent) {
  return index < 0 ? index + extent : (index >= extent ? index - extent : index);
}

// Word (row, col) of the field, with neighbours beyond the edge wrapped
// (torus) or dead. row and col are at most one step outside the field.
__device__ __forceinline__ uint32_t word_at(const uint32_t* field, int64_t row, int64_t col,
                                            int64_t width_words, int64_t height, bool torus) {
  if (torus) return field[wrap_once(row, height) * width_words + wrap_once(col, width_words)];
  if (row < 0 || row >= height || col < 0 || col >= width_words) return 0u;
  return field[row * width_words + col];
}

template <class Logic>
__global__ void bitstep_kernel(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst,
                               int64_t width_words, int64_t height, bool torus, Logic logic) {
  const int64_t col = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t row = int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (col >= width_words || row >= height) return;
  RowSum above{}, below{};
  uint32_t west = 0, centre = 0, east = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    const uint32_t left = word_at(src, row + dy, col - 1, width_words, height, torus);
    const uint32_t mid = word_at(src, row + dy, col, width_words, height, torus);
    const uint32_t right = word_at(src, row + dy, col + 1, width_words, height, torus);
    if (dy == 0) {
      west = west_of(left, mid);
      centre = mid;
      east = east_of(mid, right);
    } else {
      (dy < 0 ? above : below) = row_sum(west_of(left, mid), mid, east_of(mid, right));
    }
  }
  dst[row * width_words + col] = logic(above, below, west, east, centre);
}

__global__ void naive_kernel(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst,
                             int64_t width, int64_t height, uint32_t birth, uint32_t survival) {
  const int64_t x = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t y = int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int neighbours = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      neighbours += src[wrap_once(y + dy, height) * width + wrap_once(x + dx, width)];
    }
  }
  const uint32_t mask = src[y * width + x] ? survival : birth;
  dst[y * width + x] = static_cast<uint8_t>((mask >> neighbours) & 1u);
}

dim3 grid_for(int64_t columns, int64_t rows, dim3 block) {
  return dim3(static_cast<unsigned>((columns + block.x - 1) / block.x),
              static_cast<unsigned>((rows + block.y - 1) / block.y));
}

}  // namespace

uint64_t launch_bitstep(const uint32_t* src, uint32_t* dst, PackedFieldView field, Edge edge,
                        const Rule& rule, cudaStream_t stream) {
  const dim3 block(kBitStepBlockX, kBitStepBlockY);
  const dim3 grid = grid_for(field.width_words, field.height, block);
  const bool torus = edge == Edge::kTorus;
  if (rule.is_conway()) {
    bitstep_kernel<<<grid, block, 0, stream>>>(src, dst, field.width_words, field.height, torus,
                                               ConwayLogic{});
  } else {
    bitstep_kernel<<<grid, block, 0, stream>>>(src, dst, field.width_words, field.height, torus,
                                               GenericLogic{rule.birth, rule.survival});
  }
  GOL_CUDA_CHECK_LAUNCH();
  return static_cast<uint64_t>(field.word_count()) * 32;
}

uint64_t launch_naive(const uint8_t* src, uint8_t* dst, int64_t width, int64_t height,
                      const Rule& rule, cudaStream_t stream) {
  const dim3 block(kNaiveBlockX, kNaiveBlockY);
  naive_kernel<<<grid_for(width, height, block), block, 0, stream>>>(src, dst, width, height,
                                                                     rule.birth, rule.survival);
  GOL_CUDA_CHECK_LAUNCH();
  return static_cast<uint64_t>(width * height);
}

}  // namespace gol::gpu
