// The xsimd back end's run-time choice: the widest of its per-instruction-set
// builds (AVX-512, AVX2, SSE2) that this CPU runs.
#include <xsimd/config/xsimd_cpuid.hpp>

#include "cpu/simd/tile_step_backends.h"
#include "engine/core/error.h"

namespace gol::cpu {

namespace {

struct XsimdBuild {
  const char* name;
  void (*step)(const TileBatch&, const Rule&);
};

std::vector<XsimdBuild> find_runnable_builds() {
  const auto available = xsimd::available_architectures();
  std::vector<XsimdBuild> builds;
  if (available.avx512bw && available.avx512dq && available.avx512cd) {
    builds.push_back({"avx512bw", &step_tiles_xsimd_avx512});
  }
  if (available.avx2) builds.push_back({"avx2", &step_tiles_xsimd_avx2});
  builds.push_back({"sse2", &step_tiles_xsimd_sse2});
  return builds;
}

const std::vector<XsimdBuild>& runnable_builds() {
  static const std::vector<XsimdBuild> builds = find_runnable_builds();
  return builds;
}

}  // namespace

void step_tiles_xsimd(const TileBatch& batch, const Rule& rule) {
  runnable_builds().front().step(batch, rule);
}

std::string xsimd_target_name() { return runnable_builds().front().name; }

std::vector<std::string> xsimd_targets_supported() {
  std::vector<std::string> names;
  for (const XsimdBuild& build : runnable_builds()) names.emplace_back(build.name);
  return names;
}

// tile_step_xsimd_{avx512,avx2,sse2}.cpp are always built.
std::vector<std::string> xsimd_targets_compiled() { return {"avx512bw", "avx2", "sse2"}; }

void step_tiles_xsimd_target(const TileBatch& batch, const Rule& rule, size_t target_index) {
  GOL_CHECK(target_index < runnable_builds().size());
  runnable_builds()[target_index].step(batch, rule);
}

}  // namespace gol::cpu
