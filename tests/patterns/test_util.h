// Helpers shared by the pattern tests: a scratch directory, cell shifts and
// whether bgolly is installed.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include "engine/core/cell_set.h"

namespace gol::patterns::testing {

// A fresh directory under the system temp dir, removed with its contents.
class ScratchDir {
 public:
  ScratchDir() {
    std::string name = (std::filesystem::temp_directory_path() / "gol-patterns-XXXXXX").string();
    path_ = mkdtemp(name.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Golly's batch program, from Debian's golly package.
inline bool have_bgolly() { return std::system("command -v bgolly > /dev/null 2>&1") == 0; }

// The cells moved so their bounding box starts at (0, 0).
inline CellSet normalized(const CellSet& cells) {
  const auto box = cells.bbox();
  return box ? cells.translated(-box->xmin, -box->ymin) : cells;
}

}  // namespace gol::patterns::testing
