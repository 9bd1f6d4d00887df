// The registry of compiled-in backends and the "auto"/"cpu" choice.
#include "engine/backend_registry.h"

#include <algorithm>

#include "cpu/reference/reference_backends.h"
#include "engine/core/error.h"
#include "engine/hybrid_backend.h"
#include "engine/sparse_backend.h"
#include "gpu/gpu_backend.h"
#include "gpu/tile_pool.h"

namespace gol {
namespace {

bool always() { return true; }

using GpuFactory = std::unique_ptr<Backend> (*)();

#ifdef GOL_HAVE_CUDA
#define GOL_GPU_FACTORY(name) (&gpu::name)
#else
// Without CUDA the GPU backends are still known by name, so asking for one
// says why it cannot run (exit 4) rather than calling the name unknown.
#define GOL_GPU_FACTORY(name) nullptr
#endif

BackendInfo gpu_backend(std::string name, std::string description, int priority,
                        double min_auto_density, GpuFactory make) {
  return {.name = std::move(name),
          .description = std::move(description),
          .priority = priority,
          .is_cpu = false,
          .min_auto_density = min_auto_density,
          .available = gpu::device_available,
          .unavailable_reason = gpu::device_unavailable_reason,
          .create = [make](const BackendOptions&) {
            if (make == nullptr) throw RuntimeError(gpu::device_unavailable_reason());
            return make();
          }};
}

BackendRegistry make_builtin_registry() {
  BackendRegistry registry;
  // Reference paths: the oracles, lowest priority.
  registry.add({.name = "serial",
                .description = "reference: one byte a cell, the rules as written",
                .priority = 0,
                .is_cpu = true,
                .min_auto_density = 0,
                .available = always,
                .unavailable_reason = {},
                .create = [](const BackendOptions&) { return cpu::make_serial_backend(); }});
  registry.add({.name = "nibble",
                .description = "reference: 16 cells per u64 with nibble adds",
                .priority = 1,
                .is_cpu = true,
                .min_auto_density = 0,
                .available = always,
                .unavailable_reason = {},
                .create = [](const BackendOptions&) { return cpu::make_nibble_backend(); }});
  registry.add({.name = "bit",
                .description = "reference: 64 cells per u64, full/half-adder tree",
                .priority = 2,
                .is_cpu = true,
                .min_auto_density = 0,
                .available = always,
                .unavailable_reason = {},
                .create = [](const BackendOptions&) { return cpu::make_bit_backend(); }});
  // The sparse tile engine: the production CPU paths.
  registry.add({.name = "simd",
                .description = "sparse active tiles, SIMD adder tree (Highway) on oneTBB",
                .priority = 10,
                .is_cpu = true,
                .min_auto_density = 0,
                .available = always,
                .unavailable_reason = {},
                .create = [](const BackendOptions& options) {
                  return make_sparse_backend(options, cpu::SimdLibrary::kHighway);
                }});
  registry.add({.name = "simd-xsimd",
                .description = "sparse active tiles, SIMD adder tree (xsimd) on oneTBB",
                .priority = 9,
                .is_cpu = true,
                .min_auto_density = 0,
                .available = always,
                .unavailable_reason = {},
                .create = [](const BackendOptions& options) {
                  return make_sparse_backend(options, cpu::SimdLibrary::kXsimd);
                }});
  // GPU: the multi-step kernel for dense enough patterns; the one-generation
  // baselines only when asked for by name (never chosen by "auto").
  registry.add(gpu_backend("gpu", "GPU: bit-packed multi-step CUDA kernel", 20, 0.05,
                           GOL_GPU_FACTORY(make_gpu_backend)));
  registry.add(gpu_backend("gpu-bitstep", "GPU baseline: bit-packed, one generation a launch", -10,
                           2.0, GOL_GPU_FACTORY(make_gpu_bitstep_backend)));
  registry.add(gpu_backend("gpu-naive",
                           "GPU baseline: one byte a cell, one generation a launch (torus)", -11,
                           2.0, GOL_GPU_FACTORY(make_gpu_naive_backend)));
  // The hybrid scheduler: chosen by "auto" whenever a GPU is usable, at any
  // density (it keeps sparse worlds on the CPU itself).
  registry.add({.name = "hybrid",
                .description = "sparse tiles on CPU and GPU together, dense clusters on the GPU",
                .priority = 30,
                .is_cpu = false,
                .min_auto_density = 0,
                .available = gpu::device_available,
                .unavailable_reason = gpu::device_unavailable_reason,
                .create = [](const BackendOptions& options) {
                  return make_hybrid_backend(options, gpu::make_tile_pool());
                }});
  // The same scheduler with the CPU stand-in as its "GPU", on any machine:
  // how CI and users without a GPU exercise its partition and exchange.
  // Never chosen by "auto" or "cpu".
  registry.add({.name = "hybrid-standin",
                .description = "testing: hybrid with the GPU tile pool's CPU stand-in",
                .priority = -20,
                .is_cpu = true,
                .min_auto_density = 0,
                .available = always,
                .unavailable_reason = {},
                .create = [](const BackendOptions& options) {
                  HybridOptions standin;
                  standin.calibrate_gpu = false;
                  return make_hybrid_backend(options, gpu::make_tile_pool(true), standin);
                }});
  return registry;
}

std::string known_names(const BackendRegistry& registry) {
  std::string names = "auto, cpu";
  for (const BackendInfo& info : registry.all()) names += ", " + info.name;
  return names;
}

}  // namespace

double WorkloadHint::density() const {
  double area = 0;
  if (topology.is_torus()) {
    area = static_cast<double>(topology.width) * static_cast<double>(topology.height);
  } else if (bbox) {
    area = static_cast<double>(bbox->width()) * static_cast<double>(bbox->height());
  }
  return area > 0 ? static_cast<double>(population) / area : 0.0;
}

const BackendRegistry& BackendRegistry::builtin() {
  static const BackendRegistry registry = make_builtin_registry();
  return registry;
}

void BackendRegistry::add(BackendInfo info) {
  backends_.push_back(std::move(info));
  std::stable_sort(
      backends_.begin(), backends_.end(),
      [](const BackendInfo& a, const BackendInfo& b) { return a.priority > b.priority; });
}

const BackendInfo* BackendRegistry::find(const std::string& name) const {
  for (const BackendInfo& info : backends_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

const BackendInfo& BackendRegistry::resolve(const std::string& name,
                                            const WorkloadHint& hint) const {
  if (name == "auto" || name == "cpu") {
    for (const BackendInfo& info : backends_) {  // sorted by priority
      if (name == "cpu" && !info.is_cpu) continue;
      if (!info.is_cpu && hint.density() < info.min_auto_density) continue;
      if (info.available()) return info;
    }
    throw RuntimeError("no backend can run on this machine");
  }
  const BackendInfo* info = find(name);
  if (info == nullptr) {
    throw UsageError("unknown backend '" + name + "' (known: " + known_names(*this) + ")");
  }
  if (!info->available()) {
    const std::string why = info->unavailable_reason ? info->unavailable_reason() : "";
    throw RuntimeError("backend '" + name + "' cannot run on this machine" +
                       (why.empty() ? "" : ": " + why));
  }
  return *info;
}

std::unique_ptr<Backend> BackendRegistry::create(const std::string& name,
                                                 const BackendOptions& options,
                                                 const WorkloadHint& hint) const {
  return resolve(name, hint).create(options);
}

}  // namespace gol
