// `gol run --log FILE.csv --every N`: one CSV row every N generations,
// written and flushed as the run goes, so a long run can be followed and a
// stopped one keeps its rows.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "engine/cli/progress_line.h"
#include "engine/core/tile.h"

namespace gol::cli {

class RunLog {
 public:
  // Opens (and truncates) `path`, following a symlink, and writes the
  // header. Throws RuntimeError naming the path.
  explicit RunLog(const std::string& path);
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;

  // generation,population,xmin,ymin,xmax,ymax,tiles_active,seconds; the
  // box columns are empty for an empty world. Throws RuntimeError when
  // the row cannot be written.
  void row(const ProgressState& state, const std::optional<BBox>& box);
  // The generation of the last row written, if any.
  std::optional<uint64_t> last_generation() const { return last_generation_; }

 private:
  void write(const std::string& text);

  std::string path_;
  std::FILE* file_ = nullptr;
  std::optional<uint64_t> last_generation_;
};

}  // namespace gol::cli
