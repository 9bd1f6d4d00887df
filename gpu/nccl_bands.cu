// The NCCL band run behind nccl_bands.h. Device i holds band i as a strip
// (halo, band, halo; gpu/band_plan.h) in two buffers. A round of up to
// kBandHaloRows generations, on every device:
//   1. the compute stream steps the two edge windows, which yield the band's
//      first and last kBandHaloRows rows: the neighbours' next halos;
//   2. the exchange stream waits for them, and NCCL sends them to the bands
//      above and below and receives this band's next halos, device to
//      device, all bands in one group;
//   3. meanwhile the compute stream steps the interior window.
// The next round's edges wait for the halos. The windows and the received
// halos write disjoint rows of the next buffer, and nothing writes the
// buffer a round reads.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>

#include "engine/core/error.h"
#include "engine/core/tile.h"
#include "gpu/band_plan.h"
#include "gpu/cuda_check.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/gpu_backend.h"
#include "gpu/kernel_config.cuh"
#include "gpu/kernels.cuh"
#include "gpu/nccl_bands.h"
#include "gpu/packed_layout.h"

namespace gol::gpu {
namespace {

static_assert(kBandHaloRows <= kMultiStepGenerations, "a round is one launch a window");

// NCCL's entry points, loaded on the first band run rather than linked:
// loading libnccl costs every gol process about 4 ms at start, and only
// --gpus uses it. The soname is looked up first (LD_LIBRARY_PATH, the system's
// paths), then the library this build was configured with.
class Nccl {
 public:
  // The loaded library, or null with why it could not be loaded.
  static const Nccl* get(std::string* why) {
    static const Loaded loaded = load();
    if (loaded.api == nullptr && why != nullptr) *why = loaded.error;
    return loaded.api.get();
  }

  decltype(&ncclCommInitAll) comm_init_all;
  decltype(&ncclCommDestroy) comm_destroy;
  decltype(&ncclGroupStart) group_start;
  decltype(&ncclGroupEnd) group_end;
  decltype(&ncclSend) send;
  decltype(&ncclRecv) recv;
  decltype(&ncclGetErrorString) error_string;
  decltype(&ncclGetLastError) last_error;

 private:
  struct Loaded {
    std::unique_ptr<Nccl> api;
    std::string error;
  };

  static Loaded load() {
    std::string tried;
    for (const char* name : {"libnccl.so.2", GOL_NCCL_LIBRARY_PATH}) {
      void* library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (library == nullptr) {
        tried += std::string(tried.empty() ? "" : "; ") + dlerror();
        continue;
      }
      auto api = std::make_unique<Nccl>();
      std::string missing;
      auto bind = [&](auto& entry, const char* symbol) {
        entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(dlsym(library, symbol));
        if (entry == nullptr) missing += std::string(missing.empty() ? "" : ", ") + symbol;
      };
      bind(api->comm_init_all, "ncclCommInitAll");
      bind(api->comm_destroy, "ncclCommDestroy");
      bind(api->group_start, "ncclGroupStart");
      bind(api->group_end, "ncclGroupEnd");
      bind(api->send, "ncclSend");
      bind(api->recv, "ncclRecv");
      bind(api->error_string, "ncclGetErrorString");
      bind(api->last_error, "ncclGetLastError");
      if (missing.empty()) return {std::move(api), ""};
      tried += std::string(tried.empty() ? "" : "; ") + name + " lacks " + missing;
    }
    return {nullptr,
            "NCCL could not be loaded (expected libnccl.so.2, version 2.19 or later): " + tried};
  }
};

const Nccl& nccl() {
  std::string why;
  const Nccl* api = Nccl::get(&why);
  if (api == nullptr) throw RuntimeError(why);
  return *api;
}

void check_nccl(ncclResult_t result, const char* expression) {
  if (result == ncclSuccess) return;
  const char* detail = nccl().last_error(nullptr);
  throw RuntimeError(
      std::string("NCCL error in ") + expression + ": " + nccl().error_string(result) +
      (detail != nullptr && *detail != '\0' ? std::string(" (") + detail + ")" : ""));
}
#define GOL_NCCL_CHECK(call) check_nccl((call), #call)

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

void select_device(int device) { GOL_CUDA_CHECK(cudaSetDevice(device)); }

// Restores the thread's current device (the single-GPU paths use the one
// they found) when a band operation, which visits every device, ends.
class KeepCurrentDevice {
 public:
  KeepCurrentDevice() { GOL_CUDA_CHECK(cudaGetDevice(&device_)); }
  ~KeepCurrentDevice() { cudaSetDevice(device_); }
  KeepCurrentDevice(const KeepCurrentDevice&) = delete;
  KeepCurrentDevice& operator=(const KeepCurrentDevice&) = delete;

 private:
  int device_ = 0;
};

// The current device's most urgent stream priority.
int greatest_stream_priority() {
  int least = 0;
  int greatest = 0;
  GOL_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  return greatest;
}

// A strip's first member: the members after it are made on its device.
struct OnDevice {
  explicit OnDevice(int device) : id(device) { select_device(device); }
  int id;
};

// One communicator a device, all made by this thread.
class NcclComms {
 public:
  explicit NcclComms(int count) : comms_(static_cast<size_t>(count), nullptr) {
    // NVLink multicast (NVLS) can put a shared host's GPUs out of service;
    // gol never asks for it, whatever the environment says.
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    std::vector<int> devices(static_cast<size_t>(count));
    std::iota(devices.begin(), devices.end(), 0);
    GOL_NCCL_CHECK(nccl().comm_init_all(comms_.data(), count, devices.data()));
  }
  ~NcclComms() {
    for (ncclComm_t comm : comms_) nccl().comm_destroy(comm);
  }
  NcclComms(const NcclComms&) = delete;
  NcclComms& operator=(const NcclComms&) = delete;
  ncclComm_t operator[](size_t i) const { return comms_[i]; }

 private:
  std::vector<ncclComm_t> comms_;
};

// The exchange stream's time in NCCL, round by round: a ring of event pairs,
// each read back before it is reused, so the host runs at most kSlots rounds
// ahead of the device and no round waits for the host.
class ExchangeClock {
 public:
  void start(cudaStream_t stream) {
    collect(next_);
    timers_[next_].start(stream);
  }
  void stop(cudaStream_t stream) {
    timers_[next_].stop(stream);
    pending_[next_] = true;
    next_ = (next_ + 1) % kSlots;
  }
  // Waits for every round timed so far.
  void collect_all() {
    for (size_t slot = 0; slot < kSlots; ++slot) collect(slot);
  }
  double seconds() const { return seconds_; }

 private:
  static constexpr size_t kSlots = 64;
  void collect(size_t slot) {
    if (!pending_[slot]) return;
    seconds_ += timers_[slot].seconds();
    pending_[slot] = false;
  }
  std::array<EventTimer, kSlots> timers_;
  std::array<bool, kSlots> pending_{};
  size_t next_ = 0;
  double seconds_ = 0;
};

// One band on its device.
class BandStrip {
 public:
  BandStrip(int device, GpuBand band, int64_t width_words)
      : device_(device),
        band_(band),
        width_words_(width_words),
        windows_(round_windows(band.rows)),
        current_(static_cast<size_t>((band.rows + 2 * kBandHaloRows) * width_words)),
        next_(current_.size()),
        exchange_(greatest_stream_priority()) {
    figures_.gpu = device;
    figures_.first_row = band.first_row;
    figures_.rows = band.rows;
  }

  int device() const { return device_.id; }
  const GpuBand& band() const { return band_; }
  cudaStream_t compute() const { return compute_.get(); }
  cudaStream_t exchange() const { return exchange_.get(); }
  // Words of `rows` rows of the strip.
  size_t words(int64_t rows) const { return static_cast<size_t>(rows * width_words_); }
  uint32_t* current_row(int64_t strip_row) const { return current_.get() + words(strip_row); }
  uint32_t* next_row(int64_t strip_row) const { return next_.get() + words(strip_row); }

  // Where each row of the strip comes from in the torus: the band and the
  // kBandHaloRows rows either side of it, wrapping.
  template <class Fill>
  void fill_from_torus(int64_t torus_height, Fill fill) const {
    const int64_t above = (band_.first_row - kBandHaloRows + torus_height) % torus_height;
    const int64_t below = (band_.first_row + band_.rows) % torus_height;
    fill(current_row(0), above, kBandHaloRows);
    fill(current_row(kBandHaloRows), band_.first_row, band_.rows);
    fill(current_row(kBandHaloRows + band_.rows), below, kBandHaloRows);
  }

  // Steps of a round (the file's comment): edges, then the interior.
  void step_edges(int generations, const Rule& rule) {
    select_device(device());
    halos_done_.hold(compute());
    step_window(windows_.top_edge, generations, rule);
    step_window(windows_.bottom_edge, generations, rule);
    edges_done_.record(compute());
    edges_done_.hold(exchange());
    clock_.start(exchange());
  }
  void step_interior(int generations, const Rule& rule) {
    select_device(device());
    clock_.stop(exchange());
    halos_done_.record(exchange());
    step_window(windows_.interior, generations, rule);
    std::swap(current_, next_);
    ++figures_.exchanges;
    figures_.bytes_exchanged += 4 * words(kBandHaloRows) * sizeof(uint32_t);
  }

  void start_timing() {
    select_device(device());
    step_timer_.start(compute());
  }
  // Waits for both streams.
  void finish_timing() {
    select_device(device());
    step_timer_.stop(compute());
    figures_.step_seconds += step_timer_.seconds();
    GOL_CUDA_CHECK(cudaStreamSynchronize(exchange()));
    clock_.collect_all();
    figures_.exchange_seconds = clock_.seconds();
  }

  uint64_t population() const {
    select_device(device());
    return count_live_packed(current_row(kBandHaloRows), static_cast<int64_t>(words(band_.rows)),
                             compute());
  }
  GpuBandFigures figures() const {
    GpuBandFigures figures = figures_;
    figures.population = population();
    return figures;
  }

 private:
  void step_window(const StripWindow& w, int generations, const Rule& rule) {
    figures_.cells_computed += launch_multistep_window(
        current_row(w.first_row), next_row(w.first_row), {width_words_, w.rows},
        w.keep_from - w.first_row, w.keep_to - w.first_row, generations, rule, compute());
  }

  OnDevice device_;
  GpuBand band_;
  int64_t width_words_;
  RoundWindows windows_;
  DeviceBuffer<uint32_t> current_;
  DeviceBuffer<uint32_t> next_;
  Stream compute_;
  // NCCL's kernels get SMs as soon as the interior's blocks free them, not
  // after the whole interior: the next round's edges wait for the halos.
  Stream exchange_;
  Event edges_done_;
  Event halos_done_;
  EventTimer step_timer_;
  ExchangeClock clock_;
  GpuBandFigures figures_;
};

class NcclBands final : public GpuBands {
 public:
  NcclBands(const Rule& rule, const Topology& torus, int gpus)
      : rule_(rule), torus_(torus), comms_(gpus) {
    const KeepCurrentDevice keep;
    const std::vector<GpuBand> bands = split_into_gpu_bands(torus.height, gpus);
    for (int i = 0; i < gpus; ++i) {
      strips_.push_back(
          std::make_unique<BandStrip>(i, bands[static_cast<size_t>(i)], width_words()));
    }
  }

  void upload(const CellSet& cells) {
    const KeepCurrentDevice keep;
    const HostField host = pack_cells(cells, region(), true);
    const size_t row_bytes = static_cast<size_t>(torus_.width / 8);
    for (const auto& strip : strips_) {
      select_device(strip->device());
      strip->fill_from_torus(torus_.height, [&](uint32_t* to, int64_t torus_row, int64_t rows) {
        GOL_CUDA_CHECK(cudaMemcpy(
            to,
            reinterpret_cast<const char*>(host.data()) + static_cast<size_t>(torus_row) * row_bytes,
            static_cast<size_t>(rows) * row_bytes, cudaMemcpyHostToDevice));
      });
    }
  }

  void fill_soup(uint64_t seed) {
    const KeepCurrentDevice keep;
    for (const auto& strip : strips_) {
      select_device(strip->device());
      strip->fill_from_torus(torus_.height, [&](uint32_t* to, int64_t torus_row, int64_t rows) {
        fill_random_packed(to, rows * width_words(), seed, strip->compute(),
                           torus_row * width_words());
      });
      GOL_CUDA_CHECK(cudaStreamSynchronize(strip->compute()));
    }
  }

  void step(uint64_t generations) override {
    const KeepCurrentDevice keep;
    for (const auto& strip : strips_) strip->start_timing();
    const RoundSchedule schedule = schedule_rounds(generations);
    for (uint64_t r = 0; r < schedule.full_rounds; ++r) round(static_cast<int>(kBandHaloRows));
    if (schedule.last_round > 0) round(schedule.last_round);
    for (const auto& strip : strips_) strip->finish_timing();
  }

  uint64_t population() const override {
    const KeepCurrentDevice keep;
    uint64_t total = 0;
    for (const auto& strip : strips_) total += strip->population();
    return total;
  }

  CellSet cells() const override {
    const KeepCurrentDevice keep;
    HostField host(static_cast<size_t>(region().tile_row_count()));
    const int64_t tiles_x = torus_.width / kTileSize;
    for (const auto& strip : strips_) {
      select_device(strip->device());
      GOL_CUDA_CHECK(cudaMemcpy(
          host.data() + strip->band().first_row * tiles_x, strip->current_row(kBandHaloRows),
          strip->words(strip->band().rows) * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    }
    return unpack_cells(host, region());
  }

  std::vector<GpuBandFigures> figures() const override {
    const KeepCurrentDevice keep;
    std::vector<GpuBandFigures> all;
    for (const auto& strip : strips_) all.push_back(strip->figures());
    return all;
  }

  std::string device_name() const override {
    cudaDeviceProp properties{};
    GOL_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    return properties.name;
  }

 private:
  int64_t width_words() const { return torus_.width / 32; }
  TileRegion region() const { return {0, 0, torus_.width / kTileSize, torus_.height / kTileSize}; }

  // Band i's neighbours: band i-1 above, i+1 below, wrapping.
  int above(size_t i) const { return static_cast<int>((i + strips_.size() - 1) % strips_.size()); }
  int below(size_t i) const { return static_cast<int>((i + 1) % strips_.size()); }

  // A band's first rows go up, to be the lower halo of the band above; its
  // last rows go down. Sends and receives between two ranks pair in the
  // order they are posted, so each band posts: to the band above, to the
  // band below, from below, from above. With one band both peers are the
  // band itself, and its first rows become its own lower halo.
  void exchange_halos() {
    const size_t count = strips_.front()->words(kBandHaloRows);
    GOL_NCCL_CHECK(nccl().group_start());
    for (size_t i = 0; i < strips_.size(); ++i) {
      const BandStrip& s = *strips_[i];
      const int64_t rows = s.band().rows;
      const ncclComm_t comm = comms_[i];
      GOL_NCCL_CHECK(
          nccl().send(s.next_row(kBandHaloRows), count, ncclUint32, above(i), comm, s.exchange()));
      GOL_NCCL_CHECK(
          nccl().send(s.next_row(rows), count, ncclUint32, below(i), comm, s.exchange()));
      GOL_NCCL_CHECK(nccl().recv(s.next_row(rows + kBandHaloRows), count, ncclUint32, below(i),
                                 comm, s.exchange()));
      GOL_NCCL_CHECK(nccl().recv(s.next_row(0), count, ncclUint32, above(i), comm, s.exchange()));
    }
    GOL_NCCL_CHECK(nccl().group_end());
  }

  void round(int generations) {
    for (const auto& strip : strips_) strip->step_edges(generations, rule_);
    exchange_halos();
    for (const auto& strip : strips_) strip->step_interior(generations, rule_);
  }

  Rule rule_;
  Topology torus_;
  NcclComms comms_;
  std::vector<std::unique_ptr<BandStrip>> strips_;
};

void require_bands(int gpus) {
  const std::string reason = nccl_bands_unavailable_reason(gpus);
  if (!reason.empty()) throw RuntimeError(reason);
}

}  // namespace

std::string nccl_bands_unavailable_reason(int gpus) {
  if (!device_available()) return "no usable GPU: " + device_unavailable_reason();
  if (std::string why = nccl_library_unavailable_reason(); !why.empty()) return why;
  const int count = device_count();
  if (gpus > count) {
    return std::to_string(gpus) + " GPUs asked for, but this machine has " + std::to_string(count) +
           " CUDA device" + (count == 1 ? "" : "s") +
           ", and NCCL runs one band a device (it refuses two ranks on one GPU): expected at "
           "most " +
           std::to_string(count);
  }
  for (int device = 0; device < gpus; ++device) {
    cudaDeviceProp properties{};
    GOL_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    if (properties.major < 9) {
      return "CUDA device " + std::to_string(device) + " (" + properties.name +
             ") has compute capability " + std::to_string(properties.major) + "." +
             std::to_string(properties.minor) + "; this build needs 9.0 or later";
    }
  }
  return "";
}

std::string nccl_library_unavailable_reason() {
  std::string why;
  Nccl::get(&why);
  return why;
}

std::unique_ptr<GpuBands> make_nccl_bands(const CellSet& cells, const Rule& rule,
                                          const Topology& torus, int gpus) {
  require_bands(gpus);
  auto bands = std::make_unique<NcclBands>(rule, torus, gpus);
  bands->upload(cells);
  return bands;
}

std::unique_ptr<GpuBands> make_nccl_bands_soup(const Rule& rule, const Topology& torus, int gpus,
                                               uint64_t seed) {
  require_bands(gpus);
  auto bands = std::make_unique<NcclBands>(rule, torus, gpus);
  bands->fill_soup(seed);
  return bands;
}

}  // namespace gol::gpu
