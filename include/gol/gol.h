// The public C++ API of gol: load a pattern, run it on a backend, read and
// save its cells. Only standard types and <gol/...> headers appear here;
// the engine's tiles, backends and SIMD or CUDA code stay behind World's
// pointer to its implementation.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gol/error.h"
#include "gol/geometry.h"

namespace gol {

// "MAJOR.MINOR.PATCH" of the library linked in.
std::string version();

// How World::load runs a pattern. Strings take the same forms as the gol
// command's options, and are checked when the world is loaded. Every member
// has an initializer, so designated initializers ({.threads = 4}) may leave
// any out without -Wmissing-field-initializers warnings.
struct LoadOptions {
  // A name from backends(), "auto" (the best for the pattern) or "cpu".
  std::string backend = "auto";
  // Empty: the pattern's own rule (B3/S23 when it names none). Otherwise
  // "B36/S23", "b36s23", the legacy "23/36", or Golly's "B3/S23:T64,64",
  // which also sets a torus.
  std::string rule{};
  // Empty: the pattern's own topology (the plane when it names none).
  // Otherwise "plane", or "WxH" for a torus, W and H multiples of 64.
  std::string topology{};
  // Worker threads; 0 uses every core.
  int threads = 0;
};

// How World::render draws, in the forms `gol render` takes. Empty strings
// leave a choice to the renderer.
struct RenderOptions {
  // "x0,y0,x1,y1": the cells to show, inclusive. Empty: the bounding box.
  std::string window{};
  // "WxH" in pixels: the window fitted in, centred, at the largest whole
  // zoom that shows all of it.
  std::string size{};
  // Instead of a size: "4" (4 pixels a cell) or "1:8" (8 cells a pixel).
  // Neither: the window's longer side at most 1024 pixels, and at most 16
  // pixels a cell.
  std::string zoom{};
};

class World {
 public:
  // `spec` is a pattern file (RLE, .cells, Life 1.05/1.06, optionally
  // gzipped), "builtin:NAME" or "soup:WxH[:DENSITY[:SEED]]". Throws
  // InputError for a pattern, rule or topology it cannot use, UsageError
  // for an unknown backend, RuntimeError for one that cannot run here.
  static World load(std::string_view spec, const LoadOptions& options = {});

  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  ~World();

  // Throws RuntimeError where the world outgrows the memory the engine
  // allows itself or the plane's range of +-2^62. A step stopped part of
  // the way leaves the world's cells between generations, so the world is
  // then unusable: every later call that steps it or reads its cells
  // throws RuntimeError naming the first failure (load the pattern again).
  // `more_follow`: whether another advance() comes before the world is
  // read, as in a run taken in chunks. The engine may then leave work for
  // the next call (gliders flown by formula, which it would otherwise put
  // back into the world and take out again); the reads stay exact either
  // way. `run_length`: the generations the run this call belongs to steps
  // from here in all, this call's included, where the caller knows them
  // (0: this call alone). The engine may then prepare for the run rather
  // than the call: a world cut into strips for its threads pays only over
  // hundreds of generations.
  void advance(uint64_t generations, bool more_follow = false, uint64_t run_length = 0);

  // Counts from the pattern's own generation ("#CXRLE Gen="); a failed
  // advance() counts none.
  uint64_t generation() const;
  uint64_t population() const;
  // Empty when no cell is alive.
  std::optional<BBox> bbox() const;
  // The live cells in row-major order (by y, then x); on a torus within
  // [0, W) x [0, H).
  std::vector<Cell> cells() const;
  // Writes by extension (.rle, .cells, .mc, any with .gz) through a temporary
  // file and a rename. Throws UsageError for an unknown extension and
  // RuntimeError when the file cannot be written.
  void save(const std::string& path) const;

  // Draws the cells into an 8-bit grayscale PNG file, live cells white; a
  // pixel covering many cells shows their density, as Golly does zoomed out.
  // Throws UsageError for options that contradict each other or an image
  // too large, RuntimeError when the file cannot be written.
  void render(const std::string& path, const RenderOptions& options = {}) const;

  // "B3/S23", "plane" or "torus WxH", and the backend actually running.
  std::string rule() const;
  std::string topology() const;
  std::string backend() const;

 private:
  class Impl;
  explicit World(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct BackendDescription {
  std::string name;
  std::string description;
  bool available = false;
  std::string unavailable_reason;  // empty when available
};

// Every backend compiled in, available here or not.
std::vector<BackendDescription> backends();

}  // namespace gol
