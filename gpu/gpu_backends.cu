// The GPU backends (gpu, gpu-bitstep, gpu-naive), device discovery and
// the kernel-only torus timing behind gpu_backend.h.
#include <algorithm>
#include <chrono>
#include <string>

#include "engine/core/error.h"
#include "gpu/gpu_backend.h"
#include "gpu/kernel_config.cuh"
#include "gpu/packed_engine.cuh"
#include "gpu/public_baseline_kernel.cuh"

namespace gol::gpu {

void throw_cuda_error(cudaError_t error, const char* expression, const char* file, int line) {
  cudaGetLastError();  // clear a sticky launch error so later calls report their own
  throw RuntimeError("CUDA error at " + std::string(file) + ":" + std::to_string(line) + " in " +
                     expression + ": " + cudaGetErrorString(error));
}

namespace {

struct DeviceProbe {
  bool usable = false;
  std::string reason;
  std::string name;
};

// sm_90 machine code and compute_90 PTX run on compute capability 9.0 and up.
DeviceProbe probe_device() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    cudaGetLastError();
    return {false,
            std::string("no usable CUDA driver or device (") + cudaGetErrorString(error) + ")", ""};
  }
  if (count == 0) return {false, "no CUDA device found", ""};
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
    cudaGetLastError();
    return {false, "cannot query CUDA device 0", ""};
  }
  if (properties.major < 9) {
    return {false,
            std::string(properties.name) + " has compute capability " +
                std::to_string(properties.major) + "." + std::to_string(properties.minor) +
                "; this build needs 9.0 or later",
            properties.name};
  }
  return {true, "", properties.name};
}

const DeviceProbe& device_probe() {
  static const DeviceProbe probe = probe_device();
  return probe;
}

void require_device() {
  if (!device_available()) {
    throw RuntimeError("no usable GPU: " + device_unavailable_reason());
  }
}

class PackedBackend final : public Backend {
 public:
  PackedBackend(std::string name, PackedKernel kernel) : name_(std::move(name)), engine_(kernel) {}
  std::string name() const override { return name_; }
  void load(const CellSet& cells, const Rule& rule, const Topology& topology) override {
    engine_.load(cells, rule, topology);
  }
  void step(uint64_t generations) override { engine_.step(generations); }
  uint64_t population() const override { return engine_.population(); }
  CellSet cells() const override { return engine_.cells(); }
  BackendStats stats() const override { return engine_.stats(); }

 private:
  std::string name_;
  PackedEngine engine_;
};

// One byte a cell on a torus: the first step of the published progression.
class NaiveBackend final : public Backend {
 public:
  std::string name() const override { return "gpu-naive"; }

  void load(const CellSet& cells, const Rule& rule, const Topology& topology) override {
    if (!topology.is_torus()) {
      throw InputError("backend gpu-naive runs only on a torus (use --torus WxH or backend gpu)");
    }
    rule_ = rule;
    width_ = topology.width;
    height_ = topology.height;
    stats_ = {};
    std::vector<uint8_t> host(static_cast<size_t>(width_ * height_), 0);
    for (const Cell& c : cells.wrapped(width_, height_).cells()) {
      host[static_cast<size_t>(c.y * width_ + c.x)] = 1;
    }
    const auto start = std::chrono::steady_clock::now();
    current_ = DeviceBuffer<uint8_t>(host.size());
    next_ = DeviceBuffer<uint8_t>(host.size());
    GOL_CUDA_CHECK(cudaMemcpy(current_.get(), host.data(), host.size(), cudaMemcpyHostToDevice));
    stats_.transfer_seconds += seconds_since(start);
  }

  void step(uint64_t generations) override {
    EventTimer timer;
    timer.start(stream_.get());
    for (uint64_t g = 0; g < generations; ++g) {
      stats_.cells_computed +=
          launch_naive(current_.get(), next_.get(), width_, height_, rule_, stream_.get());
      std::swap(current_, next_);
    }
    timer.stop(stream_.get());
    stats_.device_seconds += timer.seconds();
  }

  uint64_t population() const override {
    return count_live_bytes(current_.get(), width_ * height_, stream_.get());
  }

  CellSet cells() const override {
    std::vector<uint8_t> host(static_cast<size_t>(width_ * height_));
    const auto start = std::chrono::steady_clock::now();
    GOL_CUDA_CHECK(cudaMemcpy(host.data(), current_.get(), host.size(), cudaMemcpyDeviceToHost));
    stats_.transfer_seconds += seconds_since(start);
    CellSet cells;
    for (int64_t y = 0; y < height_; ++y) {
      for (int64_t x = 0; x < width_; ++x) {
        if (host[static_cast<size_t>(y * width_ + x)]) cells.set(x, y);
      }
    }
    return cells;
  }

  BackendStats stats() const override { return stats_; }

 private:
  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  Rule rule_;
  int64_t width_ = 0;
  int64_t height_ = 0;
  Stream stream_;
  DeviceBuffer<uint8_t> current_;
  DeviceBuffer<uint8_t> next_;
  mutable BackendStats stats_;
};

std::string describe(TorusKernel kernel, PackedFieldView field) {
  switch (kernel) {
    case TorusKernel::kMultiStep:
      return "multi-step: " + describe_multistep(field, Rule::conway());
    case TorusKernel::kPublicBaseline:
      return "public: binary-banter/fast-game-of-life's kernel re-implemented, 32 threads a "
             "block, 16 rows a thread, 16 generations a launch";
    case TorusKernel::kBitStep:
      return "bit-step: one 32-bit word a thread, one generation a launch";
    case TorusKernel::kNaive:
      return "naive: one byte a cell, one generation a launch";
  }
  return "";
}

// Runs `generations` of a packed torus already on the device (in the public
// kernel's own layout for kPublicBaseline).
uint64_t run_packed_torus(TorusKernel kernel, DeviceBuffer<uint32_t>& current,
                          DeviceBuffer<uint32_t>& next, PackedFieldView field, uint64_t generations,
                          cudaStream_t stream) {
  uint64_t computed = 0;
  const Rule conway = Rule::conway();
  while (generations > 0) {
    int batch = 1;
    switch (kernel) {
      case TorusKernel::kMultiStep:
        batch = static_cast<int>(std::min<uint64_t>(generations, kMultiStepGenerations));
        computed +=
            launch_multistep(current.get(), next.get(), field, Edge::kTorus, batch, conway, stream);
        break;
      case TorusKernel::kPublicBaseline:
        batch = static_cast<int>(std::min<uint64_t>(generations, kPublicBaselineGenerations));
        computed += launch_public_baseline(current.get(), next.get(), field, batch, stream);
        break;
      case TorusKernel::kBitStep:
      case TorusKernel::kNaive:  // byte fields run in run_byte_torus, never here
        computed += launch_bitstep(current.get(), next.get(), field, Edge::kTorus, conway, stream);
        break;
    }
    std::swap(current, next);
    generations -= static_cast<uint64_t>(batch);
  }
  return computed;
}

uint64_t run_byte_torus(DeviceBuffer<uint8_t>& current, DeviceBuffer<uint8_t>& next, int64_t width,
                        int64_t height, uint64_t generations, cudaStream_t stream) {
  uint64_t computed = 0;
  for (uint64_t g = 0; g < generations; ++g) {
    computed += launch_naive(current.get(), next.get(), width, height, Rule::conway(), stream);
    std::swap(current, next);
  }
  return computed;
}

}  // namespace

bool device_available() { return device_probe().usable; }
std::string device_unavailable_reason() { return device_probe().reason; }

std::unique_ptr<Backend> make_gpu_backend() {
  require_device();
  return std::make_unique<PackedBackend>("gpu", PackedKernel::kMultiStep);
}
std::unique_ptr<Backend> make_gpu_bitstep_backend() {
  require_device();
  return std::make_unique<PackedBackend>("gpu-bitstep", PackedKernel::kBitStep);
}
std::unique_ptr<Backend> make_gpu_naive_backend() {
  require_device();
  return std::make_unique<NaiveBackend>();
}

double GpuKernelTiming::median_seconds() const {
  if (seconds.empty()) return 0;
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
}

double GpuKernelTiming::cell_updates_per_second() const {
  const double median = median_seconds();
  if (median <= 0) return 0;
  return static_cast<double>(width) * static_cast<double>(height) *
         static_cast<double>(generations) / median;
}

GpuKernelTiming time_torus_kernel(int64_t width, int64_t height, uint64_t generations, int repeats,
                                  uint64_t seed, TorusKernel kernel) {
  require_device();
  const Topology topology = Topology::torus(width, height);  // validates the size
  GpuKernelTiming timing;
  timing.device = device_probe().name;
  const PackedFieldView field{width / 32, height};
  timing.kernel = describe(kernel, field);
  timing.width = topology.width;
  timing.height = topology.height;
  timing.generations = generations;
  Stream stream;
  EventTimer timer;
  if (kernel == TorusKernel::kNaive) {
    const int64_t cells = width * height;
    DeviceBuffer<uint8_t> current(static_cast<size_t>(cells));
    DeviceBuffer<uint8_t> next(current.size());
    fill_random_bytes(current.get(), cells, seed, stream.get());
    run_byte_torus(current, next, width, height, generations, stream.get());  // warm-up
    for (int r = 0; r < repeats; ++r) {
      timer.start(stream.get());
      timing.cells_computed =
          run_byte_torus(current, next, width, height, generations, stream.get());
      timer.stop(stream.get());
      timing.seconds.push_back(timer.seconds());
    }
    timing.final_population = count_live_bytes(current.get(), width * height, stream.get());
    return timing;
  }
  DeviceBuffer<uint32_t> current(static_cast<size_t>(field.word_count()));
  DeviceBuffer<uint32_t> next(current.size());
  fill_random_packed(current.get(), field.word_count(), seed, stream.get());
  if (kernel == TorusKernel::kPublicBaseline) {
    to_public_baseline_layout(current.get(), next.get(), field, stream.get());
    std::swap(current, next);
  }
  run_packed_torus(kernel, current, next, field, generations, stream.get());  // warm-up
  for (int r = 0; r < repeats; ++r) {
    timer.start(stream.get());
    timing.cells_computed =
        run_packed_torus(kernel, current, next, field, generations, stream.get());
    timer.stop(stream.get());
    timing.seconds.push_back(timer.seconds());
  }
  timing.final_population = count_live_packed(current.get(), field.word_count(), stream.get());
  return timing;
}

}  // namespace gol::gpu
