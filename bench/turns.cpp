// Timing engines in turns (see turns.h).
#include "bench/turns.h"

namespace gol::bench {

std::vector<TurnOutcome> run_in_turns(
    const std::vector<Contender>& contenders, int repeats,
    const std::function<void(const std::string&, int)>& progress) {
  std::vector<TurnOutcome> outcomes(contenders.size());
  const auto attempt = [&](size_t i, const std::function<void()>& step) {
    try {
      step();
    } catch (...) {
      outcomes[i].error = std::current_exception();
    }
  };
  for (int run = 1; run <= repeats; ++run) {
    for (size_t i = 0; i < contenders.size(); ++i) {
      if (outcomes[i].error) continue;
      progress(contenders[i].name, run);
      attempt(i, contenders[i].time_one);
    }
  }
  for (size_t i = 0; i < contenders.size(); ++i) {
    if (!outcomes[i].error) attempt(i, [&] { outcomes[i].result = contenders[i].result(); });
  }
  return outcomes;
}

}  // namespace gol::bench
