// The progress line `gol run` keeps on stderr when stderr is a terminal:
// the target generation, the percentage done, the time left and CUpS in
// the summary's units. It is cleared, not left behind, before the summary.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "engine/core/backend.h"

namespace gol::cli {

struct ProgressState {
  uint64_t generation = 0;
  uint64_t population = 0;
  double seconds = 0;  // since the run started
  // The world's extent as last measured (torus, or the larger bounding box
  // seen), for effective CUpS as the summary counts them.
  double area = 0;
  BackendStats stats;
};

class ProgressLine {
 public:
  // Shows nothing unless `enabled`, nor during the first second.
  ProgressLine(bool enabled, uint64_t start_generation, uint64_t target_generation,
               std::FILE* terminal = stderr);
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Whether update() would show anything `seconds` into the run: the state
  // costs a pass over the world (its population), not worth taking else.
  bool shows_at(double seconds) const;
  void update(const ProgressState& state);
  // Erases the line, so what prints next starts on a clean one.
  void clear();

 private:
  std::string text(const ProgressState& state) const;

  bool enabled_;
  uint64_t start_;
  uint64_t target_;
  std::FILE* terminal_;
  size_t shown_width_ = 0;
};

}  // namespace gol::cli
