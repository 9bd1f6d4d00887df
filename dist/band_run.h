// A torus run across MPI ranks: rank 0 (the root) holds the pattern and
// hands each rank a horizontal band (band_layout.h); every rank steps its
// band plus kHaloRows of halo on each side with the sparse SIMD engine, swaps halos
// with the ranks above and below every kHaloRows generations (the last
// round shortened to land on the target), and the root gathers the bands.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dist/mpi_world.h"
#include "engine/core/cell_set.h"
#include "engine/core/rule.h"

namespace gol::dist {

struct BandJob {
  CellSet cells;  // within the torus
  Rule rule;
  Topology topology;  // a torus
  uint64_t generations = 0;
  std::string backend = "auto";  // auto, cpu, simd (Highway) or simd-xsimd
  int threads = 0;               // per rank; 0: the host's cores shared among its ranks
};

// What one rank did.
struct RankFigures {
  int64_t first_row = 0;
  int64_t rows = 0;
  uint64_t population = 0;      // of its band at the end
  uint64_t cells_computed = 0;  // halos included
  uint64_t exchanges = 0;
  double step_seconds = 0;
  double exchange_seconds = 0;  // waiting for and swapping halos
  int threads = 1;
};

struct BandRunResult {
  CellSet cells;                 // the whole torus
  uint64_t generations_run = 0;  // the job's, unless stopped
  int stopped_by = 0;            // the signal that stopped the run early, or 0
  std::string backend;
  std::string simd_target;
  int64_t halo_rows = 0;
  double seconds = 0;  // the slowest rank's stepping and exchanges
  std::vector<RankFigures> ranks;
};

// The signal that asks this rank to stop (SIGINT, SIGTERM), or 0; looked
// at before every round.
using StopCheck = std::function<int()>;

// The root's side. Throws UsageError, after telling the other ranks there is
// no job, when the torus cannot be split into world.size() bands or the
// backend is not one of BandJob::backend's. Failures once the ranks work together end
// the whole job (MpiWorld::abort).
BandRunResult lead_band_run(const MpiWorld& world, const BandJob& job, const StopCheck& stop);

// Every other rank's side: follows the root's job, or returns when the root
// cancelled it.
void follow_band_run(const MpiWorld& world, const StopCheck& stop);

// The root's word that no job will come (it failed to set one up).
void cancel_band_run(const MpiWorld& world);

}  // namespace gol::dist
