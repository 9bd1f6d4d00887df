// The registry of compiled-in backends and the "auto"/"cpu" choice.
#include "engine/backend_registry.h"

#include <algorithm>

#include "cpu/reference/reference_backends.h"
#include "engine/core/error.h"
#include "engine/sparse_backend.h"
#include "gpu/gpu_backend.h"

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
  return {std::move(name),
          std::move(description),
          priority,
          false,
          min_auto_density,
          gpu::device_available,
          gpu::device_unavailable_reason,
          [make](const BackendOptions&) {
            if (make == nullptr) throw RuntimeError(gpu::device_unavailable_reason());
            return make();
          }};
}

BackendRegistry make_builtin_registry() {
  BackendRegistry registry;
  // Reference paths: the oracles, lowest priority.
  registry.add({"serial",
                "reference: one byte a cell, the rules as written",
                0,
                true,
                0,
                always,
                {},
                [](const BackendOptions&) { return cpu::make_serial_backend(); }});
  registry.add({"nibble",
                "reference: 16 cells per u64 with nibble adds",
                1,
                true,
                0,
                always,
                {},
                [](const BackendOptions&) { return cpu::make_nibble_backend(); }});
  registry.add({"bit",
                "reference: 64 cells per u64, full/half-adder tree",
                2,
                true,
                0,
                always,
                {},
                [](const BackendOptions&) { return cpu::make_bit_backend(); }});
  // The sparse tile engine: the production CPU paths.
  registry.add({"simd",
                "sparse active tiles, SIMD adder tree (Highway) on oneTBB",
                10,
                true,
                0,
                always,
                {},
                [](const BackendOptions& options) {
                  return make_sparse_backend(options, cpu::SimdLibrary::kHighway);
                }});
  registry.add({"simd-xsimd",
                "sparse active tiles, SIMD adder tree (xsimd) on oneTBB",
                9,
                true,
                0,
                always,
                {},
                [](const BackendOptions& options) {
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
