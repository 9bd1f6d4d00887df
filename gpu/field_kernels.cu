// Whole-field utilities: population counts, the plane border-band check and
// the random soup used for kernel timing.
#include <cuda_runtime.h>

#include "gpu/cuda_check.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/kernel_config.cuh"
#include "gpu/kernels.cuh"

namespace gol::gpu {
namespace {

constexpr int kReduceThreads = 256;
constexpr unsigned kFullMask = 0xffffffffu;

unsigned reduce_blocks(int64_t items) {
  const int64_t wanted = (items + kReduceThreads - 1) / kReduceThreads;
  return static_cast<unsigned>(wanted < 4096 ? (wanted > 0 ? wanted : 1) : 4096);
}

__device__ __forceinline__ void add_warp_total(unsigned long long value,
                                               unsigned long long* total) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(kFullMask, value, offset);
  if ((threadIdx.x & 31) == 0 && value != 0) atomicAdd(total, value);
}

__global__ void count_packed_kernel(const uint32_t* words, int64_t count,
                                    unsigned long long* total) {
  unsigned long long live = 0;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    live += __popc(words[i]);
  }
  add_warp_total(live, total);
}

__global__ void count_bytes_kernel(const uint8_t* cells, int64_t count, unsigned long long* total) {
  unsigned long long live = 0;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    live += cells[i];
  }
  add_warp_total(live, total);
}

// One warp a row: rows in the top or bottom band are scanned whole, the
// others only in their first and last band words.
__global__ void border_band_kernel(const uint32_t* words, int64_t width_words, int64_t height,
                                   unsigned long long* found) {
  constexpr int kBandWords = kPlaneBandCells / 32;
  const int64_t row = (int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (row >= height) return;
  const uint32_t* line = words + row * width_words;
  uint32_t any = 0;
  if (row < kPlaneBandCells || row >= height - kPlaneBandCells) {
    for (int64_t col = lane; col < width_words; col += 32) any |= line[col];
  } else if (lane < 2 * kBandWords) {
    const int64_t col = lane < kBandWords ? lane : width_words - 2 * kBandWords + lane;
    any = line[col];
  }
  if (any != 0) atomicOr(found, 1ull);
}

__device__ __forceinline__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void fill_random_kernel(uint32_t* words, int64_t count, uint64_t seed,
                                   int64_t first_index) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    words[i] = static_cast<uint32_t>(
        mix(seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(first_index + i)));
  }
}

// Waits for the stream and returns the counter's value.
__global__ void fill_random_bytes_kernel(uint8_t* cells, int64_t count, uint64_t seed) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    // Cell i is bit i % 32 of packed word i / 32, so both layouts start from
    // the same soup.
    const uint64_t word = mix(seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(i / 32));
    cells[i] = static_cast<uint8_t>((static_cast<uint32_t>(word) >> (i % 32)) & 1u);
  }
}

uint64_t read_counter(const DeviceBuffer<unsigned long long>& counter, cudaStream_t stream) {
  unsigned long long value = 0;
  GOL_CUDA_CHECK(
      cudaMemcpyAsync(&value, counter.get(), sizeof value, cudaMemcpyDeviceToHost, stream));
  GOL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return value;
}

DeviceBuffer<unsigned long long> zeroed_counter(cudaStream_t stream) {
  DeviceBuffer<unsigned long long> counter(1);
  GOL_CUDA_CHECK(cudaMemsetAsync(counter.get(), 0, counter.bytes(), stream));
  return counter;
}

}  // namespace

uint64_t count_live_packed(const uint32_t* words, int64_t word_count, cudaStream_t stream) {
  const DeviceBuffer<unsigned long long> total = zeroed_counter(stream);
  count_packed_kernel<<<reduce_blocks(word_count), kReduceThreads, 0, stream>>>(words, word_count,
                                                                                total.get());
  GOL_CUDA_CHECK_LAUNCH();
  return read_counter(total, stream);
}

uint64_t count_live_bytes(const uint8_t* cells, int64_t cell_count, cudaStream_t stream) {
  const DeviceBuffer<unsigned long long> total = zeroed_counter(stream);
  count_bytes_kernel<<<reduce_blocks(cell_count), kReduceThreads, 0, stream>>>(cells, cell_count,
                                                                               total.get());
  GOL_CUDA_CHECK_LAUNCH();
  return read_counter(total, stream);
}

bool border_band_live(const uint32_t* words, PackedFieldView field, cudaStream_t stream) {
  const DeviceBuffer<unsigned long long> found = zeroed_counter(stream);
  const int64_t threads = field.height * 32;
  border_band_kernel<<<static_cast<unsigned>((threads + kReduceThreads - 1) / kReduceThreads),
                       kReduceThreads, 0, stream>>>(words, field.width_words, field.height,
                                                    found.get());
  GOL_CUDA_CHECK_LAUNCH();
  return read_counter(found, stream) != 0;
}

void fill_random_packed(uint32_t* words, int64_t word_count, uint64_t seed, cudaStream_t stream,
                        int64_t first_index) {
  fill_random_kernel<<<reduce_blocks(word_count), kReduceThreads, 0, stream>>>(words, word_count,
                                                                               seed, first_index);
  GOL_CUDA_CHECK_LAUNCH();
}

}  // namespace gol::gpu

namespace gol::gpu {

void fill_random_bytes(uint8_t* cells, int64_t cell_count, uint64_t seed, cudaStream_t stream) {
  fill_random_bytes_kernel<<<reduce_blocks(cell_count), kReduceThreads, 0, stream>>>(
      cells, cell_count, seed);
  GOL_CUDA_CHECK_LAUNCH();
}

}  // namespace gol::gpu
