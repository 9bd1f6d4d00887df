// DenseBackend: topology checks, plane growth, CellSet conversion and stats
// around a reference kernel's CellGrid.
#include "cpu/reference/dense_backend.h"

#include <string>
#include <utility>

#include "engine/core/bit_count.h"
#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::cpu {
namespace {

// Room left on each side of the live cells: a fixed floor, so small
// oscillators and spaceships do not regrow every few generations, plus a
// quarter of the extent, so a growing pattern regrows geometrically rarely.
int64_t margin_for(uint64_t extent) { return static_cast<int64_t>(16 + extent / 4); }

int64_t floor_to_word(int64_t x) { return x & ~int64_t{kTileSize - 1}; }
int64_t ceil_to_word(int64_t x) { return floor_to_word(x + kTileSize - 1); }

bool fits_in_memory(double width, double height, int bits_per_cell) {
  const double bytes = width * height * bits_per_cell / 8;
  return bytes <= kMaxGridBytes && fits_memory_budget(static_cast<uint64_t>(bytes));
}

bool in_plane_range(const BBox& box) {
  const auto ok = [](int64_t v) { return v >= -kMaxPlaneCoordinate && v <= kMaxPlaneCoordinate; };
  return ok(box.xmin) && ok(box.xmax) && ok(box.ymin) && ok(box.ymax);
}

std::string size_text(const GridWindow& w) {
  return std::to_string(w.width) + "x" + std::to_string(w.height);
}

}  // namespace

std::optional<GridWindow> window_around(const BBox& live, int bits_per_cell) {
  if (!in_plane_range(live)) return std::nullopt;
  const int64_t margin_x = margin_for(live.width());
  const int64_t margin_y = margin_for(live.height());
  GridWindow window;
  window.origin_x = floor_to_word(live.xmin - margin_x);
  window.origin_y = live.ymin - margin_y;
  window.width = ceil_to_word(live.xmax + margin_x + 1 - window.origin_x);
  window.height = live.ymax + margin_y + 1 - window.origin_y;
  if (!fits_in_memory(double(window.width), double(window.height), bits_per_cell)) {
    return std::nullopt;
  }
  return window;
}

DenseBackend::DenseBackend(std::string name, std::unique_ptr<CellGrid> grid)
    : name_(std::move(name)), grid_(std::move(grid)) {}

void DenseBackend::load(const CellSet& cells, const Rule& rule, const Topology& topology) {
  check_rule_fits(rule, topology);
  // Everything that can be refused is checked before any state changes.
  const GridWindow window = topology.is_torus() ? torus_window(topology) : plane_window(cells);
  rule_ = rule;
  topology_ = topology;
  stats_ = BackendStats{};
  place(window, topology.is_torus() ? cells.wrapped(topology.width, topology.height) : cells);
}

GridWindow DenseBackend::torus_window(const Topology& torus) const {
  const GridWindow window{0, 0, torus.width, torus.height};
  if (window.width <= 0 || window.height <= 0 || window.width % kTileSize != 0 ||
      window.height % kTileSize != 0) {
    throw InputError("torus " + size_text(window) +
                     ": both sides must be positive multiples of 64");
  }
  if (!fits_in_memory(double(window.width), double(window.height), grid_->bits_per_cell())) {
    throw InputError("torus " + size_text(window) + " is too large for the '" + name_ +
                     "' backend's dense grid");
  }
  return window;
}

GridWindow DenseBackend::plane_window(const CellSet& cells) const {
  const std::optional<GridWindow> window =
      window_around(cells.bbox().value_or(BBox{}), grid_->bits_per_cell());
  if (!window) {
    throw InputError("pattern too large or too far out for the '" + name_ +
                     "' backend's dense grid");
  }
  return *window;
}

void DenseBackend::place(const GridWindow& window, const CellSet& cells) {
  GOL_CHECK(window.origin_x % kTileSize == 0);
  grid_->resize(window.width, window.height);
  origin_x_ = window.origin_x;
  origin_y_ = window.origin_y;
  const int64_t first_word = tile_of(origin_x_);
  for (const auto& [coord, tile] : cells.tiles()) {
    for (int r = 0; r < kTileSize; ++r) {
      if (tile.rows[r] == 0) continue;
      const int64_t word = coord.tx - first_word;
      const int64_t y = coord.ty * kTileSize + r - origin_y_;
      GOL_DCHECK(word >= 0 && word < window.width / kTileSize);
      GOL_DCHECK(y >= 0 && y < window.height);
      grid_->store_word(word, y, tile.rows[r]);
    }
  }
}

GridWindow DenseBackend::window() const {
  return GridWindow{origin_x_, origin_y_, grid_->width(), grid_->height()};
}

void DenseBackend::step(uint64_t generations) {
  const bool torus = topology_.is_torus();
  const Edges edges = torus ? Edges::kWrap : Edges::kDead;
  for (uint64_t g = 0; g < generations; ++g) {
    if (!torus && live_near_edge()) regrow();
    grid_->step(rule_, edges);
    stats_.cells_computed +=
        static_cast<uint64_t>(grid_->width()) * static_cast<uint64_t>(grid_->height());
  }
}

bool DenseBackend::live_near_edge() const {
  const int64_t words = grid_->width() / kTileSize;
  const int64_t height = grid_->height();
  constexpr uint64_t kWestGuard = (uint64_t{1} << kEdgeGuard) - 1;
  constexpr uint64_t kEastGuard = kWestGuard << (kTileSize - kEdgeGuard);
  for (int64_t y = 0; y < height; ++y) {
    if (y < kEdgeGuard || y >= height - kEdgeGuard) {
      for (int64_t word = 0; word < words; ++word) {
        if (grid_->load_word(word, y) != 0) return true;
      }
    } else if ((grid_->load_word(0, y) & kWestGuard) != 0 ||
               (grid_->load_word(words - 1, y) & kEastGuard) != 0) {
      return true;
    }
  }
  return false;
}

void DenseBackend::regrow() {
  const CellSet live = cells();
  const std::optional<GridWindow> window =
      window_around(live.bbox().value_or(BBox{}), grid_->bits_per_cell());
  if (!window) {
    throw RuntimeError("the pattern outgrew the '" + name_ + "' backend's dense grid (" +
                       size_text(this->window()) + " cells)");
  }
  place(*window, live);
}

uint64_t DenseBackend::population() const {
  uint64_t count = 0;
  const int64_t words = grid_->width() / kTileSize;
  for (int64_t y = 0; y < grid_->height(); ++y) {
    for (int64_t word = 0; word < words; ++word) {
      count += static_cast<uint64_t>(bit_count(grid_->load_word(word, y)));
    }
  }
  return count;
}

CellSet DenseBackend::cells() const {
  CellSet out;
  const int64_t words = grid_->width() / kTileSize;
  const int64_t first_word = tile_of(origin_x_);
  for (int64_t y = 0; y < grid_->height(); ++y) {
    const int64_t world_y = origin_y_ + y;
    for (int64_t word = 0; word < words; ++word) {
      const uint64_t bits = grid_->load_word(word, y);
      if (bits == 0) continue;
      out.tile({first_word + word, tile_of(world_y)}).rows[offset_in_tile(world_y)] = bits;
    }
  }
  return out;
}

}  // namespace gol::cpu
