// The bookkeeping the three reference paths share: a Backend around one
// CellGrid. On a torus the grid is the torus; on the plane it is a window
// onto the unbounded plane whose origin and size follow the live cells, so
// every kernel sees dead cells beyond its edges and results stay exact.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "cpu/reference/cell_grid.h"
#include "engine/core/backend.h"

namespace gol::cpu {

// Where a plane grid sits: grid cell (0, 0) is world cell (origin_x,
// origin_y). origin_x is a multiple of 64 so grid words are tile rows.
struct GridWindow {
  int64_t origin_x = 0;
  int64_t origin_y = 0;
  int64_t width = 0;
  int64_t height = 0;
};

// Live cells closer than this to a plane grid's edge make it regrow before
// the next generation. One would do, as no rule without B0 grows faster
// than a cell a generation; the second ring is a spare that costs nothing.
inline constexpr int kEdgeGuard = 2;

// Coordinates further out than this are refused on the plane, so origins
// and margins never overflow int64_t.
inline constexpr int64_t kMaxPlaneCoordinate = int64_t{1} << 61;

// One grid buffer may take at most this much memory; larger worlds are
// refused instead of allocated.
inline constexpr double kMaxGridBytes = double(int64_t{1} << 31);

// The window that holds `live` with a margin on every side that grows with
// the pattern's extent, so a growing pattern regrows only a logarithmic
// number of times. nullopt when it would exceed kMaxGridBytes, the memory budget, or the
// coordinates are out of range.
std::optional<GridWindow> window_around(const BBox& live, int bits_per_cell);

class DenseBackend final : public Backend {
 public:
  DenseBackend(std::string name, std::unique_ptr<CellGrid> grid);

  std::string name() const override { return name_; }
  void load(const CellSet& cells, const Rule& rule, const Topology& topology) override;
  void step(uint64_t generations) override;
  uint64_t population() const override;
  CellSet cells() const override;
  BackendStats stats() const override { return stats_; }

  // The grid currently in use (for tests of the growth policy).
  GridWindow window() const;

 private:
  // The grid for a torus or for `cells` on the plane; throw InputError
  // for what cannot be held.
  GridWindow torus_window(const Topology& torus) const;
  GridWindow plane_window(const CellSet& cells) const;
  // Reallocates the grid as `window` and writes `cells` (all inside it).
  void place(const GridWindow& window, const CellSet& cells);
  bool live_near_edge() const;
  void regrow();

  std::string name_;
  std::unique_ptr<CellGrid> grid_;
  Rule rule_;
  Topology topology_;
  int64_t origin_x_ = 0;
  int64_t origin_y_ = 0;
  BackendStats stats_;
};

}  // namespace gol::cpu
