// Formatting and drawing of the progress line.
#include "engine/cli/progress_line.h"

#include <cmath>

#include "engine/cli/run_summary.h"

namespace gol::cli {
namespace {

// Below this the run is nearly over before a line would be read.
constexpr double kShowAfterSeconds = 1.0;

std::string duration_text(double seconds) {
  char text[32];
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  } else if (seconds < 3600) {
    std::snprintf(text, sizeof text, "%.0f min %02.0f s", std::floor(seconds / 60),
                  std::fmod(seconds, 60));
  } else {
    std::snprintf(text, sizeof text, "%.0f h %02.0f min", std::floor(seconds / 3600),
                  std::floor(std::fmod(seconds, 3600) / 60));
  }
  return text;
}

}  // namespace

ProgressLine::ProgressLine(bool enabled, uint64_t start_generation, uint64_t target_generation,
                           std::FILE* terminal)
    : enabled_(enabled),
      start_(start_generation),
      target_(target_generation),
      terminal_(terminal) {}

std::string ProgressLine::text(const ProgressState& state) const {
  const double done = static_cast<double>(state.generation - start_);
  const double total = static_cast<double>(target_ - start_);
  const double fraction = total > 0 ? done / total : 1.0;
  std::string line =
      "generation " + std::to_string(state.generation) + " of " + std::to_string(target_);
  char percent[16];
  // Floor, so 100% means finished.
  std::snprintf(percent, sizeof percent, " (%.0f%%)", std::floor(fraction * 100));
  line += percent;
  if (done > 0) {
    line += ", " + duration_text(state.seconds * (total - done) / done) + " left";
  }
  const double seconds = state.seconds > 0 ? state.seconds : 1;
  line += "  CUpS " + si_number(state.area * done / seconds) + " effective, " +
          si_number(static_cast<double>(state.stats.cells_computed) / seconds) + " computed";
  line += "  population " + std::to_string(state.population);
  return line;
}

bool ProgressLine::shows_at(double seconds) const {
  return enabled_ && seconds >= kShowAfterSeconds;
}

void ProgressLine::update(const ProgressState& state) {
  if (!shows_at(state.seconds)) return;
  std::string line = text(state);
  const size_t width = line.size();
  // Pad over the rest of a longer previous line.
  if (width < shown_width_) line.append(shown_width_ - width, ' ');
  std::fprintf(terminal_, "\r%s", line.c_str());
  std::fflush(terminal_);
  shown_width_ = width;
}

void ProgressLine::clear() {
  if (shown_width_ == 0) return;
  std::fprintf(terminal_, "\r%s\r", std::string(shown_width_, ' ').c_str());
  std::fflush(terminal_);
  shown_width_ = 0;
}

}  // namespace gol::cli
