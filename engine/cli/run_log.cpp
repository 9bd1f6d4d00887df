// The CSV run log.
#include "engine/cli/run_log.h"

#include <cerrno>
#include <cstring>

#include "engine/core/error.h"

namespace gol::cli {

RunLog::RunLog(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "w")) {
  if (file_ == nullptr) {
    throw RuntimeError("cannot write --log '" + path + "': " + std::strerror(errno));
  }
  write("generation,population,xmin,ymin,xmax,ymax,tiles_active,seconds\n");
}

RunLog::~RunLog() { std::fclose(file_); }

void RunLog::row(const ProgressState& state, const std::optional<BBox>& box) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on chains
  // of string operator+.
  std::string line = std::to_string(state.generation);
  const auto column = [&line](const std::string& text) {
    line += ',';
    line += text;
  };
  column(std::to_string(state.population));
  for (const int64_t edge :
       {box ? box->xmin : 0, box ? box->ymin : 0, box ? box->xmax : 0, box ? box->ymax : 0}) {
    column(box ? std::to_string(edge) : std::string());
  }
  column(std::to_string(state.stats.tiles_active));
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.6f", state.seconds);
  column(seconds);
  line += '\n';
  write(line);
  last_generation_ = state.generation;
}

void RunLog::write(const std::string& text) {
  if (std::fputs(text.c_str(), file_) < 0 || std::fflush(file_) != 0) {
    throw RuntimeError("cannot write --log '" + path_ + "': " + std::strerror(errno));
  }
}

}  // namespace gol::cli
