// What `gol run` reports when it finishes: the figures shared by the
// human-readable summary and the --json object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/backend.h"
#include "engine/core/tile.h"

namespace gol::cli {

// One MPI rank's part of a run across ranks (dist/), or one GPU's band
// (--gpus).
struct RankSummary {
  int64_t first_row = 0;
  int64_t rows = 0;
  uint64_t population = 0;
  uint64_t cells_computed = 0;
  uint64_t exchanges = 0;
  double step_seconds = 0;
  double exchange_seconds = 0;
  int threads = 1;
  uint64_t bytes_exchanged = 0;  // NCCL bands only
};

struct RunSummary {
  std::string pattern;
  uint64_t generation = 0;
  uint64_t generations_run = 0;
  uint64_t population = 0;
  std::optional<BBox> bbox;
  std::string rule;
  std::string topology;
  std::string backend;
  double seconds = 0;
  // Cells of the world's extent: the torus, or on the plane the larger of
  // the bounding boxes before and after the run.
  double area = 0;
  BackendStats stats;
  // Runs in bands only: the bands, in rank (or GPU) order, their halo and
  // what carries it: "MPI" between ranks, "NCCL" between GPUs.
  std::vector<RankSummary> ranks;
  int64_t halo_rows = 0;
  std::string band_transport = "MPI";

  double cups_effective() const;
  double cups_computed() const;
};

// "12.3 G": three significant digits and an SI prefix, as the summary and
// the progress line show rates. Zero, negative or non-finite values read 0.
std::string si_number(double value);
// "x 2..4, y 3..5 (3 x 3)", or "empty"; exact for boxes wider than int64.
std::string bbox_text(const std::optional<BBox>& box);

std::string summary_text(const RunSummary& summary);
std::string summary_json(const RunSummary& summary);

}  // namespace gol::cli
