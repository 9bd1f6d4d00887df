// The workload table behind `gol bench --list`, and how each one is built.
#include "bench/workloads.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

#include "engine/core/error.h"
#include "patterns/pattern_io.h"

namespace gol::bench {
namespace {

constexpr double kSoupDensity = 0.5;
constexpr uint64_t kSoupSeed = 1;

uint64_t scaled_generations(uint64_t generations, bool quick) {
  return quick ? std::max<uint64_t>(1, generations / kQuickGenerationDivisor) : generations;
}

int64_t scaled_side(int64_t side, bool quick) {
  return quick ? std::max(kQuickMinSide, side / kQuickSideDivisor) : side;
}

std::string soup_spec(int64_t side) {
  return "soup:" + std::to_string(side) + "x" + std::to_string(side) +
         ":0.5:" + std::to_string(kSoupSeed);
}

Workload torus_soup(int64_t side, uint64_t generations, bool quick, bool gpu_only) {
  const int64_t s = scaled_side(side, quick);
  Workload w;
  w.name = (gpu_only ? "gpu-torus-" : "torus-") + std::to_string(side);
  w.description = "dense 50% soup on a " + std::to_string(s) + "x" + std::to_string(s) + " torus";
  w.pattern_spec = soup_spec(s);
  w.torus = Topology::torus(s, s);
  w.generations = scaled_generations(generations, quick);
  w.dense_cell_updates =
      static_cast<double>(s) * static_cast<double>(s) * static_cast<double>(w.generations);
  w.gpu_only = gpu_only;
  w.golly = gpu_only ? GollyAlgos::kNone : GollyAlgos::kQuickLife;
  return w;
}

// Escaping gliders grow a dense grid by about half a cell a generation
// (c/4 on each side), which is what makes plane soups costly for the
// reference backends.
Workload plane_soup(std::string name, int64_t side, uint64_t generations, bool quick) {
  const int64_t s = scaled_side(side, quick);
  Workload w;
  w.name = std::move(name);
  w.description =
      "50% soup of " + std::to_string(s) + "x" + std::to_string(s) + " on the unbounded plane";
  w.pattern_spec = soup_spec(s);
  w.generations = scaled_generations(generations, quick);
  const double final_side = static_cast<double>(s) + static_cast<double>(w.generations) / 2;
  w.dense_cell_updates = final_side * final_side * static_cast<double>(w.generations);
  return w;
}

// `final_area`: the bounding-box area Golly reports at the last generation,
// used only for the reference-backend budget (the grid grows about evenly,
// so its mean area is taken as half the final one).
Workload catalogue_run(std::string name, std::string builtin, std::string description,
                       uint64_t generations, double final_area, bool quick) {
  Workload w;
  w.name = std::move(name);
  w.description = std::move(description);
  w.pattern_spec = "builtin:" + builtin;
  w.generations = scaled_generations(generations, quick);
  // With --quick the run is shorter and the grid smaller; scaling the area
  // like the generations keeps the estimate on the safe side.
  w.dense_cell_updates = final_area / 2 * static_cast<double>(w.generations) *
                         (quick ? 1.0 / kQuickGenerationDivisor : 1.0);
  w.golly = GollyAlgos::kQuickAndHash;
  return w;
}

// The workloads of the hybrid's targets (issue 7): where separated dense
// islands, long-lived soups and dense worlds meet the GPU.
void add_hybrid_target_workloads(std::vector<Workload>& out, bool quick) {
  Workload islands = plane_soup("islands", 4096, 8192, quick);
  islands.island_spacing = scaled_side(65536, quick);
  islands.description = "four 50% soups of " + std::to_string(scaled_side(4096, quick)) +
                        "^2, corners " + std::to_string(islands.island_spacing) +
                        " cells apart on the plane";
  // The reference backends would step the box around all four.
  const double box = static_cast<double>(islands.island_spacing + scaled_side(4096, quick)) +
                     static_cast<double>(islands.generations) / 2;
  islands.dense_cell_updates = box * box * static_cast<double>(islands.generations);
  out.push_back(islands);
  out.push_back(plane_soup("soup-long", 16384, 32768, quick));
  Workload dense_torus = torus_soup(16384, 4096, quick, false);
  dense_torus.name = "dense-torus-16384";
  out.push_back(dense_torus);
  out.push_back(plane_soup("dense-plane-16384", 16384, 4096, quick));
  for (size_t i = out.size() - 4; i < out.size(); ++i) {
    out[i].gpu_scale = true;
    // QuickLife would take many minutes on each; the backends check one
    // another.
    out[i].golly = GollyAlgos::kNone;
  }
}

void add_catalogue_workloads(std::vector<Workload>& out, bool quick) {
  // Final areas as bgolly 3.3 reports them at the last generation.
  out.push_back(catalogue_run("r-pentomino", "r-pentomino",
                              "methuselah, 116 cells at generation 1103", 1103, 501.0 * 525,
                              quick));
  out.push_back(catalogue_run("acorn", "acorn", "methuselah, 633 cells at generation 5206", 5206,
                              2325.0 * 2497, quick));
  out.push_back(catalogue_run("rabbits", "rabbits", "methuselah, stable with 1744 cells at 17331",
                              17331, 8594.0 * 8338, quick));
  out.push_back(catalogue_run("lidka", "lidka-predecessor",
                              "methuselah (Lidka's predecessor), 1623 cells at 29056", 29056,
                              14322.0 * 14342, quick));
  out.push_back(catalogue_run("spacefiller", "spacefiller",
                              "Holzwart's spacefiller: quadratic growth of dense agar", 20000,
                              20049.0 * 20026, quick));
  out.push_back(catalogue_run("breeder", "breeder",
                              "Gosper's breeder: puffers laying glider guns, quadratic growth",
                              12000, 6749.0 * 3172, quick));
  out.push_back(catalogue_run("puffer-train", "puffer-train",
                              "c/2 puffer train: a long trail of debris and escaping spaceships",
                              200000, 149502.0 * 99000, quick));
  out.push_back(catalogue_run("switch-engine", "switch-engine",
                              "10-cell seed of a block-laying switch engine: linear growth", 100000,
                              33237.0 * 33240, quick));
  out.push_back(catalogue_run("gosper-gun", "gosper-gun",
                              "Gosper glider gun: a stream of 3333 gliders", 100000,
                              25018.0 * 25005, quick));
  // Sparse chaos over a wide area: each acorn's debris and gliders apart
  // from its neighbours' for the whole run (they spread about 2500 cells).
  Workload field =
      catalogue_run("acorn-field", "acorn", "400 acorns 3000 cells apart: a field of methuselahs",
                    5000, 59500.0 * 59500, quick);
  field.field_side = 20;
  field.field_spacing = 3000;
  out.push_back(field);
}

}  // namespace

std::vector<Workload> all_workloads(bool quick) {
  std::vector<Workload> out;
  out.push_back(torus_soup(1024, 1000, quick, false));
  out.push_back(torus_soup(2048, 1000, quick, false));
  out.push_back(torus_soup(4096, 500, quick, false));
  out.push_back(torus_soup(8192, 200, quick, false));
  out.push_back(torus_soup(16384, 100, quick, false));
  out.push_back(plane_soup("plane-2048", 2048, 2000, quick));
  out.push_back(plane_soup("plane-8192", 8192, 2000, quick));
  add_catalogue_workloads(out, quick);
  add_hybrid_target_workloads(out, quick);
  for (int64_t side : {4096, 8192, 16384, 32768, 65536}) {
    out.push_back(torus_soup(side, 1024, quick, true));
  }
  return out;
}

std::optional<Workload> find_workload(std::string_view name, bool quick) {
  for (Workload& w : all_workloads(quick)) {
    if (w.name == name) return std::move(w);
  }
  return std::nullopt;
}

namespace {

// `copies` as (dx, dy) multiples of `spacing`, added to the pattern's cells.
void add_copies(CellSet& cells, std::span<const std::pair<int64_t, int64_t>> copies,
                int64_t spacing) {
  const CellSet original = cells;
  for (const auto& [dx, dy] : copies) {
    if (dx == 0 && dy == 0) continue;
    for (const Cell& cell : original.translated(dx * spacing, dy * spacing).cells()) {
      cells.set(cell);
    }
  }
}

// A side x side square of offsets: the grid of a field.
std::vector<std::pair<int64_t, int64_t>> square_of(int side) {
  std::vector<std::pair<int64_t, int64_t>> offsets;
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) offsets.emplace_back(x, y);
  }
  return offsets;
}

}  // namespace

Pattern build_workload_pattern(const Workload& workload) {
  Pattern pattern = patterns::load_pattern(workload.pattern_spec);
  if (workload.island_spacing > 0) add_copies(pattern.cells, square_of(2), workload.island_spacing);
  if (workload.field_side > 1) {
    add_copies(pattern.cells, square_of(workload.field_side), workload.field_spacing);
  }
  if (workload.torus) pattern.topology = workload.torus;
  pattern.name = workload.name;
  return pattern;
}

std::optional<double> reference_budget(std::string_view backend) {
  // Each about 10-20 s on the 2-core dev machine (serial runs at some
  // 40-90 M cell updates a second there, nibble some 0.2-0.4 G, bit some 2 G).
  if (backend == "serial") return 1.1e9;
  if (backend == "nibble") return 3e9;
  if (backend == "bit") return 3e10;
  return std::nullopt;
}

}  // namespace gol::bench
