// Kernel-only CPU timing: a seeded torus soup stepped in place, pass after
// pass, through each form of the SIMD tile step on each instruction set.
#include "bench/cpu_kernel_bench.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <span>

#include "bench/agreement.h"
#include "bench/bench_result.h"
#include "bench/machine_info.h"
#include "cpu/simd/tile_step.h"
#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "engine/json_writer.h"

namespace gol::bench {
namespace {

constexpr uint64_t kSeed = 20261130;
// Band masks are drawn afresh for each pass from this many sets, so that
// the branch predictor cannot learn a pass's masks (in the engine they
// change every generation).
constexpr size_t kMaskSets = 16;
constexpr KernelPath kPaths[] = {KernelPath::kWhole, KernelPath::kEdges, KernelPath::kChanges,
                                 KernelPath::kBands, KernelPath::kTwice};
constexpr std::array<cpu::SimdLibrary, 2> kLibraries = {cpu::SimdLibrary::kHighway,
                                                        cpu::SimdLibrary::kXsimd};

const char* library_name(cpu::SimdLibrary library) {
  return library == cpu::SimdLibrary::kHighway ? "highway" : "xsimd";
}

bool steps_every_band(KernelPath path) { return path != KernelPath::kBands; }

// A run of 1 to 8 neighbouring bands at any place, each length as likely:
// the spread of a spacefiller's partly stepped tiles (4.5 bands on average).
BandMask random_band_run(std::mt19937_64& rng) {
  const auto length = static_cast<int>(rng() % kTileBands) + 1;
  const auto first = static_cast<int>(rng() % static_cast<uint64_t>(kTileBands - length + 1));
  return static_cast<BandMask>(((1u << length) - 1) << first);
}

// A torus of side x side tiles in two buffers, each generation written over
// the one before the last, as the sparse world and the torus blocks do.
class KernelTorus {
 public:
  explicit KernelTorus(int64_t tiles_per_side)
      : side_(tiles_per_side), count_(static_cast<size_t>(side_ * side_)) {
    for (int parity = 0; parity < 2; ++parity) {
      buffers_[parity].resize(count_);
      hoods_[parity].resize(count_);
      targets_[parity].resize(count_);
    }
    after_.resize(count_);
    for (int parity = 0; parity < 2; ++parity) {
      for (int64_t y = 0; y < side_; ++y) {
        for (int64_t x = 0; x < side_; ++x) {
          const size_t i = index(x, y);
          targets_[parity][i] = &buffers_[parity][i];
          for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              hoods_[parity][i].at[dy + 1][dx + 1] = &buffers_[parity][index(x + dx, y + dy)];
            }
          }
        }
      }
    }
    std::mt19937_64 rng(kSeed ^ static_cast<uint64_t>(side_));
    for (auto& set : masks_) {
      set.resize(count_);
      for (BandMask& mask : set) mask = random_band_run(rng);
    }
    reset();
  }

  size_t tiles() const { return count_; }

  // The seeded soup again, as generation 0 (the older buffer empty).
  void reset() {
    std::mt19937_64 rng(kSeed);
    for (Tile& tile : buffers_[0]) {
      for (uint64_t& row : tile.rows) row = rng();
    }
    std::fill(buffers_[1].begin(), buffers_[1].end(), Tile{});
    parity_ = 0;
    pass_ = 0;
  }

  // Two generations of every tile in the engine's batches, as a sparse
  // world stepping two at a time would: t+1 over t-1, t+2 aside until
  // every tile has read t, then over it. Returns the bands stepped.
  uint64_t step_twice(cpu::SimdLibrary library, size_t target_index, const Rule& rule) {
    const std::span<const cpu::TileNeighbourhood> in = hoods_[parity_];
    Tile* const* const targets = targets_[parity_ ^ 1].data();
    for (size_t first = 0; first < count_; first += cpu::kBatchTiles) {
      const size_t n = std::min(cpu::kBatchTiles, count_ - first);
      cpu::step_tiles_twice_on_target(&in[first], targets + first, changes_.data(),
                                      after_.data() + first, after_changes_.data(), n, rule,
                                      target_index, library);
    }
    std::copy(after_.begin(), after_.end(), buffers_[parity_].begin());
    pass_ += 2;
    return 2 * count_ * kTileBands;
  }

  // One pass over every tile in the engine's batches; returns the bands
  // stepped.
  uint64_t step(KernelPath path, cpu::SimdLibrary library, size_t target_index, const Rule& rule) {
    const std::span<const cpu::TileNeighbourhood> in = hoods_[parity_];
    Tile* const out = buffers_[parity_ ^ 1].data();
    Tile* const* const targets = targets_[parity_ ^ 1].data();
    const BandMask* const masks = masks_[pass_ % kMaskSets].data();
    uint64_t bands = 0;
    for (size_t first = 0; first < count_; first += cpu::kBatchTiles) {
      const size_t n = std::min(cpu::kBatchTiles, count_ - first);
      switch (path) {
        case KernelPath::kWhole:
          cpu::step_tiles_on_target(&in[first], out + first, n, rule, target_index, library);
          break;
        case KernelPath::kEdges:
          cpu::step_tiles_noting_edges_on_target(&in[first], targets + first, edges_.data(), n,
                                                 rule, target_index, library);
          break;
        case KernelPath::kChanges:
        case KernelPath::kTwice:  // its odd last generation
          cpu::step_tiles_over_on_target(&in[first], targets + first, changes_.data(), n, rule,
                                         nullptr, target_index, library);
          break;
        case KernelPath::kBands:
          cpu::step_tiles_over_on_target(&in[first], targets + first, changes_.data(), n, rule,
                                         masks + first, target_index, library);
          for (size_t i = 0; i < n; ++i)
            bands += static_cast<uint64_t>(band_count(masks[first + i]));
          break;
      }
    }
    parity_ ^= 1;
    ++pass_;
    return steps_every_band(path) ? count_ * kTileBands : bands;
  }

  // The current generation's cells, hashed as the bench's check hashes a
  // world.
  uint64_t hash() const {
    CellHasher hasher;
    for (size_t i = 0; i < count_; ++i) {
      const auto slot = static_cast<int64_t>(i);
      hasher.add({slot % side_, slot / side_}, buffers_[parity_][i]);
    }
    return hasher.value();
  }

 private:
  size_t index(int64_t x, int64_t y) const {
    return static_cast<size_t>(wrap(y, side_) * side_ + wrap(x, side_));
  }

  int64_t side_;
  size_t count_;
  std::vector<Tile> buffers_[2];
  std::vector<cpu::TileNeighbourhood> hoods_[2];
  std::vector<Tile*> targets_[2];
  std::array<std::vector<BandMask>, kMaskSets> masks_;
  std::array<TileEdges, cpu::kBatchTiles> edges_{};
  std::array<TileChange, cpu::kBatchTiles> changes_{};
  std::vector<Tile> after_;
  std::array<TileChange, cpu::kBatchTiles> after_changes_{};
  int parity_ = 0;
  uint64_t pass_ = 0;
};

CpuKernelRow time_row(KernelTorus& torus, int64_t side, cpu::SimdLibrary library,
                      size_t target_index, const std::string& target, KernelPath path,
                      const BenchOptions& options) {
  using Clock = std::chrono::steady_clock;
  const Rule rule = Rule::conway();
  CpuKernelRow row;
  row.library = library_name(library);
  row.target = target;
  row.side = side;
  row.path = path;
  row.passes = options.kernel_generations;
  torus.reset();
  uint64_t bands = 0;
  for (int run = -1; run < options.repeats; ++run) {
    const Clock::time_point start = Clock::now();
    for (uint64_t pass = 0; pass < row.passes;) {
      if (path == KernelPath::kTwice && pass + 1 < row.passes) {
        bands += torus.step_twice(library, target_index, rule);
        pass += 2;
      } else {
        bands += torus.step(path, library, target_index, rule);
        ++pass;
      }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (run >= 0) row.seconds.push_back(seconds);
  }
  const auto tile_steps =
      static_cast<double>(torus.tiles() * row.passes) * static_cast<double>(options.repeats + 1);
  row.bands_per_tile = static_cast<double>(bands) / tile_steps;
  row.final_hash = torus.hash();
  return row;
}

// The first row stepping every band on each side is the one the others
// must agree with.
bool agrees(const CpuKernelRow& row, const std::vector<CpuKernelRow>& rows) {
  if (!steps_every_band(row.path)) return true;
  for (const CpuKernelRow& first : rows) {
    if (first.side == row.side && steps_every_band(first.path)) {
      return first.final_hash == row.final_hash;
    }
  }
  return true;
}

void write_table(std::ostream& out, const std::vector<CpuKernelRow>& rows) {
  char line[256];
  std::snprintf(line, sizeof line, "%-6s %-8s %-10s %-8s %6s %10s %11s  %s\n", "side", "library",
                "target", "path", "bands", "ns/tile", "G cells/s", "check");
  out << line;
  for (const CpuKernelRow& row : rows) {
    const double ns = row.nanoseconds_per_tile();
    const double cells = row.bands_per_tile * kBandRows * kTileSize;
    std::snprintf(line, sizeof line, "%-6lld %-8s %-10s %-8s %6.2f %10.2f %11.1f  %s\n",
                  static_cast<long long>(row.side), row.library.c_str(), row.target.c_str(),
                  kernel_path_name(row.path), row.bands_per_tile, ns, ns > 0 ? cells / ns : 0.0,
                  !steps_every_band(row.path) ? "-"
                  : agrees(row, rows)         ? "ok"
                                              : "CELLS DIFFER");
    out << line;
  }
}

std::string rows_json(const std::vector<CpuKernelRow>& rows) {
  JsonWriter json;
  json.begin_array();
  for (const CpuKernelRow& row : rows) {
    json.begin_object();
    json.key("library").value(row.library);
    json.key("target").value(row.target);
    json.key("side").value(row.side);
    json.key("path").value(kernel_path_name(row.path));
    json.key("passes").value(row.passes);
    json.key("seconds").begin_array();
    for (double s : row.seconds) json.value(s);
    json.end_array();
    json.key("bands_per_tile").value(row.bands_per_tile);
    json.key("ns_per_tile").value(row.nanoseconds_per_tile());
    json.key("steps_every_band").value(steps_every_band(row.path));
    json.key("agrees").value(agrees(row, rows));
    json.end_object();
  }
  json.end_array();
  return json.str();
}

}  // namespace

const char* kernel_path_name(KernelPath path) {
  switch (path) {
    case KernelPath::kWhole:
      return "whole";
    case KernelPath::kEdges:
      return "edges";
    case KernelPath::kChanges:
      return "changes";
    case KernelPath::kBands:
      return "bands";
    case KernelPath::kTwice:
      return "twice";
  }
  return "?";
}

double CpuKernelRow::median_seconds() const { return median(seconds); }

double CpuKernelRow::nanoseconds_per_tile() const {
  const auto tile_steps = static_cast<double>(side / kTileSize) *
                          static_cast<double>(side / kTileSize) * static_cast<double>(passes);
  return tile_steps > 0 ? median_seconds() / tile_steps * 1e9 : 0;
}

std::vector<CpuKernelRow> time_cpu_kernels(const std::vector<int64_t>& sides,
                                           const BenchOptions& options) {
  std::vector<CpuKernelRow> rows;
  for (const int64_t side : sides) {
    GOL_CHECK(side > 0 && side % kTileSize == 0);
    KernelTorus torus(side / kTileSize);
    for (const cpu::SimdLibrary library : kLibraries) {
      const std::vector<std::string> targets = cpu::simd_targets_supported(library);
      for (size_t t = 0; t < targets.size(); ++t) {
        std::cerr << "gol bench: CPU kernels on a " << side << "^2 torus, " << library_name(library)
                  << " " << targets[t] << "\n";
        for (const KernelPath path : kPaths) {
          rows.push_back(time_row(torus, side, library, t, targets[t], path, options));
        }
      }
    }
  }
  return rows;
}

int run_cpu_kernel_bench(const BenchOptions& options) {
  const std::vector<CpuKernelRow> rows = time_cpu_kernels(options.cpu_kernel_sides, options);
  std::cout << "CPU kernel timing on " << current_machine(1).cpu_model
            << ", one thread: a random 50% torus soup (seed " << kSeed << ") stepped "
            << options.kernel_generations << " passes a run after one warm-up run, median of "
            << options.repeats << "; bands: runs of 1 to 8 bands drawn afresh each pass\n";
  write_table(std::cout, rows);
  if (options.json_path == "-") {
    std::cout << rows_json(rows) << "\n";
  } else if (options.json_path) {
    write_file_atomically(*options.json_path, rows_json(rows) + "\n");
  }
  for (const CpuKernelRow& row : rows) {
    if (!agrees(row, rows)) {
      throw RuntimeError("CPU kernel " + row.library + " " + row.target + " (" +
                         kernel_path_name(row.path) + ", " + std::to_string(row.side) +
                         "^2) disagrees with the first row on the cells");
    }
  }
  return 0;
}

}  // namespace gol::bench
