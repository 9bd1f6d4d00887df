// Whether a sparse run's generations are worth sharing with the worker crew,
// judged by timing both ways as the run goes.
//
// Sharing a generation's pass pays on a quiet machine, but every pass ends
// at a barrier: where another process or a virtual machine's host takes a
// member's core, the caller waits for that member at each generation, and
// on the 2-core dev machine two threads then ran slower than one (gosper-gun
// 1.5 s on one thread, 1.9-2.5 s on two beside a busy loop; bench/RESULTS.md).
// So each cycle of generations times kTrial of them shared and kTrial
// alone, and steps the rest alone only where that took kAloneWin less time
// a tile (trials are short, machines noisy, and a quiet machine wants
// sharing). A cycle is kCycle generations while the two ways are close or
// alone wins; each time sharing wins by kClearWin or more it doubles, up to
// kLongestCycle, so that a machine of many cores, where a generation alone
// takes many times longer, spends little of its run on the trials.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace gol {

class CrewJudge {
 public:
  static constexpr uint64_t kTrial = 32;
  static constexpr uint64_t kCycle = 1024;
  static constexpr uint64_t kLongestCycle = 16384;
  static constexpr double kClearWin = 1.25;
  static constexpr double kAloneWin = 1.1;

  // Whether the next generation is shared with the crew.
  bool share() const {
    if (position_ < kTrial) return true;
    if (position_ < 2 * kTrial) return false;
    return share_rest_;
  }
  // Whether the next generation is a trial, to be timed and recorded.
  bool timing() const { return position_ < 2 * kTrial; }
  // After each generation: `seconds` and `tiles` of a timed one (ignored
  // otherwise).
  void record(double seconds, size_t tiles) {
    if (timing()) {
      const int way = share() ? 0 : 1;
      seconds_[way] += seconds;
      tiles_[way] += tiles;
    }
    if (++position_ == 2 * kTrial) decide();
    if (position_ == cycle_) position_ = 0;
  }
  // Generations in the current cycle, trials included.
  uint64_t cycle() const { return cycle_; }

 private:
  // Trials without tiles say nothing.
  void decide() {
    if (tiles_[0] != 0 && tiles_[1] != 0) {
      const double shared = seconds_[0] * static_cast<double>(tiles_[1]);
      const double alone = seconds_[1] * static_cast<double>(tiles_[0]);
      share_rest_ = alone * kAloneWin > shared;
      const bool clear_win = shared * kClearWin <= alone;
      cycle_ = clear_win ? std::min(2 * cycle_, kLongestCycle) : kCycle;
    }
    seconds_[0] = seconds_[1] = 0;
    tiles_[0] = tiles_[1] = 0;
  }

  uint64_t cycle_ = kCycle;
  uint64_t position_ = 0;  // in the cycle
  double seconds_[2] = {};
  uint64_t tiles_[2] = {};
  bool share_rest_ = true;
};

}  // namespace gol
