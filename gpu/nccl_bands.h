// A torus stepped in horizontal bands on several GPUs of one host, one band
// a device, driven by one thread: NCCL carries the halos device to device
// every round of kBandHaloRows generations (gpu/band_plan.h) while each
// device steps its band's interior. Plain C++: no CUDA or NCCL type here,
// and in builds without CUDA or NCCL every entry point says why it cannot
// run (nccl_bands_without_nccl.cpp), so callers need no #ifdef.
//
// NCCL refuses two ranks on one GPU, so `gpus` bands need `gpus` devices
// (devices 0 .. gpus-1). One band on one device is a torus whose halos NCCL
// sends from the device to itself: the whole path, on one GPU.
// Before NCCL starts, gol sets NCCL_NVLS_ENABLE=0 in its environment,
// replacing any value given: NVLink multicast can put the GPUs of a shared
// host out of service.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/cell_set.h"
#include "engine/core/rule.h"

namespace gol::gpu {

// What one band (device `gpu`) did since the start.
struct GpuBandFigures {
  int gpu = 0;
  int64_t first_row = 0;
  int64_t rows = 0;
  uint64_t population = 0;
  uint64_t cells_computed = 0;  // windows' halos included
  uint64_t exchanges = 0;
  double step_seconds = 0;       // the device's compute stream, exchanges overlapped
  double exchange_seconds = 0;   // NCCL sends and receives on its own stream
  uint64_t bytes_exchanged = 0;  // sent and received
};

class GpuBands {
 public:
  virtual ~GpuBands() = default;
  // Advances every band by `generations`; returns once all devices are done.
  virtual void step(uint64_t generations) = 0;
  virtual uint64_t population() const = 0;
  // The whole torus.
  virtual CellSet cells() const = 0;
  virtual std::vector<GpuBandFigures> figures() const = 0;
  virtual std::string device_name() const = 0;
};

// Why `gpus` bands cannot run here ("" when they can): a build without CUDA
// or NCCL, no usable device, or fewer devices than `gpus` (the message
// names the count).
std::string nccl_bands_unavailable_reason(int gpus);

// Why NCCL's library cannot be loaded ("" when it can; no GPU needed). gol
// loads it when a band run starts rather than linking it.
std::string nccl_library_unavailable_reason();

// `cells` (within the torus) in `gpus` bands. Throws RuntimeError naming the
// reason above, UsageError when the torus has fewer 64-row tile rows than
// `gpus`.
std::unique_ptr<GpuBands> make_nccl_bands(const CellSet& cells, const Rule& rule,
                                          const Topology& torus, int gpus);
// The same with a random soup of density 1/2 built on the devices, the
// same cells whatever `gpus` is (the one fill_random_packed makes for the
// whole torus): the benchmark's start.
std::unique_ptr<GpuBands> make_nccl_bands_soup(const Rule& rule, const Topology& torus, int gpus,
                                               uint64_t seed);

}  // namespace gol::gpu
