// The named workloads `gol bench` runs: soups on the torus and the plane,
// methuselahs and a field of them, a spacefiller and a breeder, a puffer, a
// long-running gun, and GPU sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/pattern.h"

namespace gol::bench {

// Which Golly algorithms are worth running on a workload: HashLife only
// pays on regular patterns, and on soups it mostly burns memory.
enum class GollyAlgos { kNone, kQuickLife, kQuickAndHash };

struct Workload {
  std::string name;
  std::string description;
  // "builtin:NAME" or "soup:WxH:DENSITY:SEED", as load_pattern() takes it.
  std::string pattern_spec;
  // Set for torus workloads; the pattern carries it (and so the RLE handed to
  // Golly gets the ":Tw,h" rule suffix).
  std::optional<Topology> torus;
  // A field: field_side x field_side copies of the pattern, field_spacing
  // cells apart (1: the pattern alone).
  int field_side = 1;
  int64_t field_spacing = 0;
  uint64_t generations = 0;
  // Rough number of cell updates a dense-grid reference backend (serial,
  // nibble, bit) makes: grid area, grown by escaping gliders, times
  // generations. Reference backends skip workloads over their budget.
  double dense_cell_updates = 0;
  bool gpu_only = false;
  // Sized for the GPU targets (issue 7): in the default set only where a
  // GPU backend is chosen, but the CPU backends run it too, for comparison.
  bool gpu_scale = false;
  // > 0: the soup four times, their top-left corners this many cells apart
  // on a square (separated dense islands in an empty plane).
  int64_t island_spacing = 0;
  GollyAlgos golly = GollyAlgos::kQuickLife;
};

// --quick: generations divided by this (at least 1), soup sides by
// kQuickSideDivisor (at least kQuickMinSide), so a smoke run takes seconds.
inline constexpr uint64_t kQuickGenerationDivisor = 20;
inline constexpr int64_t kQuickSideDivisor = 4;
inline constexpr int64_t kQuickMinSide = 256;

// Every workload, in the order `--list` shows them.
std::vector<Workload> all_workloads(bool quick);

// The workload of that name (from all_workloads(quick)); nullopt if none.
std::optional<Workload> find_workload(std::string_view name, bool quick);

// The pattern to run, with the torus topology set for torus workloads.
// Throws InputError if the pattern cannot be built.
Pattern build_workload_pattern(const Workload& workload);

// Cell updates a reference backend may make on one run before the bench
// skips it for that workload; nullopt for backends without a budget.
std::optional<double> reference_budget(std::string_view backend);

}  // namespace gol::bench
