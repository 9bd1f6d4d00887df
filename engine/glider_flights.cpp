// Lone gliders flown by formula (see glider_flights.h).
#include "engine/glider_flights.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <optional>
#include <utility>

#include "cpu/reference/reference_backends.h"

namespace gol {
namespace {

// Where a glider's cells lie: the top-left corner of its 3x3 box, and its
// cells as bits (row by row from that corner).
struct Shape {
  int64_t x = 0;
  int64_t y = 0;
  uint16_t bits = 0;
};

// The shape of five cells filling a 3x3 box; nothing for any other cells.
std::optional<Shape> glider_shape(const CellSet& cells) {
  const std::optional<BBox> box = cells.bbox();
  if (cells.population() != 5 || !box || box->width() != 3 || box->height() != 3) return {};
  Shape shape{box->xmin, box->ymin, 0};
  for (const Cell& cell : cells.cells()) {
    shape.bits |= static_cast<uint16_t>(1u << ((cell.y - box->ymin) * 3 + (cell.x - box->xmin)));
  }
  return shape;
}

// Chebyshev distance between the 3x3 boxes with top-left corners a and b.
int64_t box_gap(Cell a, Cell b) {
  const int64_t gap_x = std::max<int64_t>(0, (a.x > b.x ? a.x - b.x : b.x - a.x) - 2);
  const int64_t gap_y = std::max<int64_t>(0, (a.y > b.y ? a.y - b.y : b.y - a.y) - 2);
  return std::max(gap_x, gap_y);
}

// Two sets of cells this far apart or more step independently.
constexpr int64_t kApart = 3;
// A tile with more live cells than this is not searched for gliders, nor
// one beside it: a gun's stream holds up to about 45 in a tile.
constexpr uint64_t kMaxSearchCells = 64;
// The pieces a review's reads are shared out in: active tiles searched,
// and gliders whose clearance is found.
constexpr size_t kSearchPiece = 256;
constexpr size_t kClearancePiece = 32;
// Gliders landed in one commit when all land at once: a review keeps both
// generations of each tile it changes, and a fleet of thousands landed in
// one took 13 MB of them, half of acorn-field's peak memory.
constexpr size_t kLandingPiece = 256;
// Gliders fly only this far inside the plane's range, so that a landing
// never meets the edge (GridStepper refuses births beyond it).
constexpr int64_t kFlightRange = int64_t{1} << 61;

}  // namespace

void GliderFlights::set_rule(const Rule& rule) {
  if (rule_known_ && rule == rule_) return;
  rule_ = rule;
  rule_known_ = true;
  rule_flies_ = !rule.births_on_zero();
  by_cells_.fill(-1);
  // Life's glider moving right and down, mirrored for the other courses,
  // stepped by the serial reference.
  const int64_t glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (int course = 0; course < 4 && rule_flies_; ++course) {
    CellSet cells;
    for (const auto& cell : glider) {
      cells.set((course & 1) != 0 ? 2 - cell[0] : cell[0],
                (course & 2) != 0 ? 2 - cell[1] : cell[1]);
    }
    const std::unique_ptr<Backend> oracle = cpu::make_serial_backend();
    oracle->load(cells, rule, Topology::plane());
    Course& path = courses_[static_cast<size_t>(course)];
    for (int phase = 0; phase < 4 && rule_flies_; ++phase) {
      const std::optional<Shape> shape = glider_shape(oracle->cells());
      if (!shape || by_cells_[shape->bits] != -1) {
        rule_flies_ = false;
        break;
      }
      by_cells_[shape->bits] = static_cast<int8_t>(course * 4 + phase);
      path.phases[static_cast<size_t>(phase)] = {shape->bits, static_cast<int>(shape->x),
                                                 static_cast<int>(shape->y)};
      oracle->step(1);
    }
    if (!rule_flies_) break;
    // A period later: the first phase moved one cell diagonally.
    const std::optional<Shape> later = glider_shape(oracle->cells());
    rule_flies_ = later && later->bits == path.phases[0].cells &&
                  (later->x == 1 || later->x == -1) && (later->y == 1 || later->y == -1);
    if (rule_flies_) {
      path.dx = static_cast<int>(later->x);
      path.dy = static_cast<int>(later->y);
    }
  }
}

void GliderFlights::start(uint64_t generation) {
  flights_.clear();
  generation_ = generation;
  search_gap_ = kFirstSearchGap;
  next_search_ = generation + search_gap_;
  next_review_ = next_search_;
}

GliderFlights::Flight GliderFlights::advanced(const Flight& flight, uint64_t generations) const {
  const Course& course = courses_[flight.course];
  const uint64_t steps = flight.phase + generations;
  const auto periods = static_cast<int64_t>(steps / 4);
  return {flight.x + periods * course.dx,
          flight.y + periods * course.dy,
          flight.course,
          static_cast<uint8_t>(steps % 4),
          flight.until,
          flight.horizon};
}

Cell GliderFlights::box(const Flight& flight) const {
  const Phase& phase = courses_[flight.course].phases[flight.phase];
  return {flight.x + phase.dx, flight.y + phase.dy};
}

// One review's view of the world: the parts' tiles, with the changes made
// so far kept aside until the end.
class GliderFlights::Review {
 public:
  Review(std::span<sparse::SparseGrid* const> parts, WorkArea& work)
      : parts_(parts), parity_(static_cast<int>(parts[0]->generation() & 1)), work_(work) {
    work_.clear();
  }

  int parity() const { return parity_; }

  // The tile at `coord` as the review sees it at `parity` (null: empty).
  const Tile* read(TileCoord coord, int parity) const {
    if (const Work* work = work_.find(coord)) return &work->tiles[parity];
    const size_t part = part_of(coord.tx);
    const sparse::SparseGrid& grid = *parts_[part];
    const int32_t slot = grid.map().find(coord);
    if (slot == sparse::TileMap::kAbsent || grid.map().summary(parity, slot).nonempty == 0) {
      return nullptr;
    }
    return &grid.map().tile(parity, slot);
  }

  // Bits x .. x + width - 1 (width at most 8) of row y at `parity`.
  uint64_t row_bits(int parity, int64_t x, int64_t y, int width) const {
    const TileCoord at{tile_of(x), tile_of(y)};
    const int shift = offset_in_tile(x);
    const int row = offset_in_tile(y);
    uint64_t bits = 0;
    if (const Tile* tile = read(at, parity)) bits = tile->rows[static_cast<size_t>(row)] >> shift;
    if (shift + width > kTileSize) {
      if (const Tile* next = read({at.tx + 1, at.ty}, parity)) {
        bits |= next->rows[static_cast<size_t>(row)] << (kTileSize - shift);
      }
    }
    return bits & ((uint64_t{1} << width) - 1);
  }

  // Whether the cells within two of the 3x3 box at `corner` are exactly
  // `cells` (bit 3 * row + column of the box) at `parity`.
  bool alone(int parity, Cell corner, uint16_t cells) const {
    constexpr int kSide = 3 + 2 * (kApart - 1);
    for (int row = 0; row < kSide; ++row) {
      uint64_t expected = 0;
      const int box_row = row - (kApart - 1);
      if (box_row >= 0 && box_row < 3) {
        expected = static_cast<uint64_t>((cells >> (3 * box_row)) & 7u) << (kApart - 1);
      }
      if (row_bits(parity, corner.x - (kApart - 1), corner.y + row - (kApart - 1), kSide) !=
          expected) {
        return false;
      }
    }
    return true;
  }

  // Whether no live cell lies in [x0, x1] x [y0, y1] at the current
  // generation.
  bool clear(int64_t x0, int64_t y0, int64_t x1, int64_t y1) const {
    for (int64_t ty = tile_of(y0); ty <= tile_of(y1); ++ty) {
      const int first_row = ty == tile_of(y0) ? offset_in_tile(y0) : 0;
      const int last_row = ty == tile_of(y1) ? offset_in_tile(y1) : kTileSize - 1;
      for (int64_t tx = tile_of(x0); tx <= tile_of(x1); ++tx) {
        const Tile* tile = read({tx, ty}, parity_);
        if (tile == nullptr) continue;
        const int first = tx == tile_of(x0) ? offset_in_tile(x0) : 0;
        const int last = tx == tile_of(x1) ? offset_in_tile(x1) : kTileSize - 1;
        const uint64_t columns = (~uint64_t{0} >> (kTileSize - 1 - last)) & (~uint64_t{0} << first);
        for (int row = first_row; row <= last_row; ++row) {
          if ((tile->rows[static_cast<size_t>(row)] & columns) != 0) return false;
        }
      }
    }
    return true;
  }

  // Sets or clears the cells of the glider phase `cells` at `corner`.
  void put(int parity, Cell corner, uint16_t cells, bool alive) {
    for (int bit = 0; bit < 9; ++bit) {
      if (((cells >> bit) & 1u) == 0) continue;
      const int64_t x = corner.x + bit % 3;
      const int64_t y = corner.y + bit / 3;
      Work& work = entry({tile_of(x), tile_of(y)});
      work.tiles[parity].set(offset_in_tile(x), offset_in_tile(y), alive);
    }
  }

  // Which tiles hold live cells now, by coarse square, the changes made
  // so far counted.
  void map_occupied(std::span<sparse::SparseGrid* const> parts, OccupiedTiles& squares) const {
    size_t tiles = work_.size();
    for (const sparse::SparseGrid* grid : parts) tiles += grid->map().held().size();
    // Squares hold up to 16 tiles each; the table grows where they hold fewer.
    squares.reset(tiles >> (2 * kCoarseTileBits));
    for (const sparse::SparseGrid* grid : parts) {
      for (int32_t slot : grid->map().held()) {
        if (grid->map().summary(parity_, slot).nonempty != 0 &&
            grid->owner(slot) == sparse::TileOwner::kCpu) {
          squares.mark(grid->map().coord(slot));
        }
      }
    }
    for (const Work& work : work_.used()) {
      if (work.tiles[parity_].empty()) {
        squares.unmark(work.coord);
      } else {
        squares.mark(work.coord);
      }
    }
  }

  // Whether the tile at `coord` holds live cells now.
  bool holds_cells(TileCoord coord) const {
    if (const Work* work = work_.find(coord)) return !work->tiles[parity_].empty();
    return read(coord, parity_) != nullptr;
  }

  // Puts the changed tiles into the parts: each imported as the hybrid's
  // are, marked changed for a strip's exchange, and planned near. Returns
  // whether one lies in a column that a neighbouring strip copies (then
  // the copies must take it before stepping on).
  bool commit() {
    constexpr int64_t kCopied = sparse::SparseGrid::kStripEdgeColumns;
    bool near_cut = false;
    std::vector<std::vector<int32_t>> touched(parts_.size());
    for (const Work& work : work_.used()) {
      const TileCoord coord = work.coord;
      sparse::SparseGrid& grid = *parts_[work.part];
      int32_t slot = grid.map().find(coord);
      const Tile& current = work.tiles[parity_];
      const Tile& previous = work.tiles[parity_ ^ 1];
      if (slot == sparse::TileMap::kAbsent) {
        if (current.empty() && previous.empty()) continue;
        slot = grid.ensure_tile(coord);
      }
      if (grid.import_tile(slot, current, previous)) {
        grid.note_changed(slot);
        touched[work.part].push_back(slot);
        near_cut = near_cut || (work.part > 0 && coord.tx < grid.strip_first() + kCopied) ||
                   (work.part + 1 < parts_.size() && coord.tx > grid.strip_last() - kCopied);
      }
    }
    for (size_t part = 0; part < parts_.size(); ++part) {
      if (!touched[part].empty()) parts_[part]->replan_near(touched[part]);
    }
    return near_cut;
  }

 private:
  size_t part_of(int64_t tx) const {
    for (size_t part = 0; part + 1 < parts_.size(); ++part) {
      if (tx >= parts_[part]->strip_first() && tx <= parts_[part]->strip_last()) return part;
    }
    return parts_.size() - 1;
  }

  Work& entry(TileCoord coord) {
    const auto [found, made] = work_.emplace(coord);
    if (made) {
      Work& work = *found;
      work.part = part_of(coord.tx);
      const sparse::SparseGrid& grid = *parts_[work.part];
      const int32_t slot = grid.map().find(coord);
      for (int parity = 0; parity < 2; ++parity) {
        work.tiles[parity] =
            slot == sparse::TileMap::kAbsent ? Tile{} : grid.map().tile(parity, slot);
      }
    }
    return *found;
  }

  std::span<sparse::SparseGrid* const> parts_;
  int parity_;
  WorkArea& work_;
};

GliderFlights::Flight GliderFlights::previous(const Flight& flight) const {
  if (flight.phase > 0)
    return {flight.x, flight.y, flight.course, static_cast<uint8_t>(flight.phase - 1)};
  const Course& course = courses_[flight.course];
  return {flight.x - course.dx, flight.y - course.dy, flight.course, 3};
}

void GliderFlights::put(Review& view, const Flight& flight, bool alive) const {
  const Course& course = courses_[flight.course];
  const Flight before = previous(flight);
  view.put(view.parity(), box(flight), course.phases[flight.phase].cells, alive);
  view.put(view.parity() ^ 1, box(before), course.phases[before.phase].cells, alive);
}

// Whether a tile beside `slot` holds more than kMaxSearchCells cells: a
// glider there is too near the rest of the world to fly (one just thrown
// off a soup or a gun), so its tile is not searched.
bool beside_crowd(const sparse::SparseGrid& grid, int32_t slot, int parity) {
  for (int32_t other : grid.map().neighbours(slot)) {
    if (other != sparse::TileMap::kEmptySlot && grid.map().summary(parity, other).nonempty != 0 &&
        grid.map().tile(parity, other).population() > kMaxSearchCells) {
      return true;
    }
  }
  return false;
}

void GliderFlights::for_each_index(size_t count, size_t piece, const ForEach& for_each,
                                   const std::function<void(size_t)>& body) {
  const size_t pieces = (count + piece - 1) / piece;
  const auto run = [&](size_t first, size_t last) {
    for (size_t i = first * piece; i < std::min(count, last * piece); ++i) body(i);
  };
  if (!for_each || pieces < 2) {
    run(0, pieces);
    return;
  }
  for_each(pieces, run);
}

std::vector<GliderFlights::Found> GliderFlights::search(const Review& view,
                                                        std::span<sparse::SparseGrid* const> parts,
                                                        const ForEach& for_each) {
  // In pieces of the active lists, each finding its own, joined in order:
  // what is found does not depend on how the pieces were shared.
  struct Piece {
    const sparse::SparseGrid* grid;
    size_t begin;
    size_t end;
  };
  std::vector<Piece> pieces;
  for (const sparse::SparseGrid* grid : parts) {
    const size_t active = grid->active().size();
    for (size_t begin = 0; begin < active; begin += kSearchPiece) {
      pieces.push_back({grid, begin, std::min(active, begin + kSearchPiece)});
    }
  }
  if (scratch_.found_in.size() < pieces.size()) scratch_.found_in.resize(pieces.size());
  for_each_index(pieces.size(), 1, for_each, [&](size_t i) {
    scratch_.found_in[i].clear();
    search_tiles(view, *pieces[i].grid, pieces[i].begin, pieces[i].end, scratch_.found_in[i]);
  });
  std::vector<Found> found;
  for (size_t i = 0; i < pieces.size(); ++i) {
    found.insert(found.end(), scratch_.found_in[i].begin(), scratch_.found_in[i].end());
  }
  return found;
}

void GliderFlights::search_tiles(const Review& view, const sparse::SparseGrid& grid, size_t begin,
                                 size_t end, std::vector<Found>& found) const {
  const int now = view.parity();
  for (size_t at = begin; at < end; ++at) {
    const int32_t slot = grid.active()[at];
    if (grid.owner(slot) != sparse::TileOwner::kCpu) continue;
    const Tile& tile = grid.map().tile(now, slot);
    if (tile.population() > kMaxSearchCells || beside_crowd(grid, slot, now)) continue;
    const TileCoord coord = grid.map().coord(slot);
    // Each glider is found from its top row's first live cell, which
    // lies in one tile: its box's corner is that cell or one or two
    // cells west of it.
    for (int row = 0; row < kTileSize; ++row) {
      for (uint64_t bits = tile.rows[static_cast<size_t>(row)]; bits != 0; bits &= bits - 1) {
        const int column = std::countr_zero(bits);
        for (int west = 0; west < 3; ++west) {
          const Cell corner{coord.tx * kTileSize + column - west, coord.ty * kTileSize + row};
          uint16_t cells = 0;
          for (int line = 0; line < 3; ++line) {
            const uint64_t three =
                column - west >= 0 && column - west + 3 <= kTileSize && row + line < kTileSize
                    ? (tile.rows[static_cast<size_t>(row + line)] >> (column - west)) & 7u
                    : view.row_bits(now, corner.x, corner.y + line, 3);
            cells |= static_cast<uint16_t>(three << (3 * line));
          }
          const int index = by_cells_[cells];
          if (index < 0 || std::countr_zero(static_cast<unsigned>(cells)) != west) continue;
          const Phase& phase =
              courses_[static_cast<size_t>(index / 4)].phases[static_cast<size_t>(index % 4)];
          const Flight flight{corner.x - phase.dx, corner.y - phase.dy,
                              static_cast<uint8_t>(index / 4), static_cast<uint8_t>(index % 4)};
          if (!view.alone(now, corner, cells)) continue;
          const Flight before = previous(flight);
          found.push_back({flight, view.alone(now ^ 1, box(before),
                                              courses_[before.course].phases[before.phase].cells)});
        }
      }
    }
  }
}

std::pair<Cell, Cell> GliderFlights::sweep(const Flight& flight, uint64_t generations) const {
  // A box moves one way along each axis, a period at a time, so the
  // farthest come within a period of the ends.
  Cell low = box(flight);
  Cell high = low;
  const uint64_t last = generations;
  for (uint64_t at : {uint64_t{1}, uint64_t{2}, uint64_t{3}, last - 3, last - 2, last - 1, last}) {
    const Cell corner = box(advanced(flight, std::min(at, last)));
    low = {std::min(low.x, corner.x), std::min(low.y, corner.y)};
    high = {std::max(high.x, corner.x), std::max(high.y, corner.y)};
  }
  return {low, {high.x + 2, high.y + 2}};
}

bool GliderFlights::no_mapped_tile(int64_t tx0, int64_t ty0, int64_t tx1, int64_t ty1) const {
  // The tiles of square row (or column) `square` within [first, last], as
  // bits of one row (or column) of its mask.
  const auto within = [](int64_t square, int64_t first, int64_t last) {
    const int64_t low = std::max<int64_t>(first - square * kSquareSide, 0);
    const int64_t high = std::min<int64_t>(last - square * kSquareSide, kSquareSide - 1);
    return ((1u << (high + 1)) - 1) & ~((1u << low) - 1);
  };
  const auto holds_within = [&](TileCoord square) {
    const uint16_t* held = squares_.find(square);
    if (held == nullptr || *held == 0) return false;
    const unsigned columns = within(square.tx, tx0, tx1);
    for (unsigned rows = within(square.ty, ty0, ty1); rows != 0; rows &= rows - 1) {
      if (((*held >> (std::countr_zero(rows) * kSquareSide)) & columns) != 0) return true;
    }
    return false;
  };
  const int64_t cx0 = tx0 >> kCoarseTileBits;
  const int64_t cx1 = tx1 >> kCoarseTileBits;
  const int64_t cy0 = ty0 >> kCoarseTileBits;
  const int64_t cy1 = ty1 >> kCoarseTileBits;
  if (squares_.marked().size() < static_cast<uint64_t>((cx1 - cx0 + 1) * (cy1 - cy0 + 1))) {
    for (TileCoord square : squares_.marked()) {
      if (square.tx >= cx0 && square.tx <= cx1 && square.ty >= cy0 && square.ty <= cy1 &&
          holds_within(square)) {
        return false;
      }
    }
    return true;
  }
  for (int64_t cy = cy0; cy <= cy1; ++cy) {
    for (int64_t cx = cx0; cx <= cx1; ++cx) {
      if (holds_within({cx, cy})) return false;
    }
  }
  return true;
}

bool GliderFlights::clear_for(const Review& view, const Flight& flight, uint64_t horizon) const {
  // The rest of the world spreads a cell a generation at most, and a
  // glider it reaches spreads from there (within kDisturbed of the
  // spread): for `horizon` generations none of it may lie within kApart -
  // 1 + kDisturbed + horizon of the boxes this glider passes through.
  const auto [low, high] = sweep(flight, horizon);
  const int64_t reach = static_cast<int64_t>(horizon) + kApart - 1 + kDisturbed;
  const int64_t x0 = low.x - reach;
  const int64_t y0 = low.y - reach;
  const int64_t x1 = high.x + reach;
  const int64_t y1 = high.y + reach;
  if (x0 <= -kFlightRange || y0 <= -kFlightRange || x1 >= kFlightRange || y1 >= kFlightRange) {
    return false;
  }
  // Tiles (from the map where made), then (for the shortest) cells.
  const auto no_tile = [&] {
    if (squares_mapped_) return no_mapped_tile(tile_of(x0), tile_of(y0), tile_of(x1), tile_of(y1));
    for (int64_t ty = tile_of(y0); ty <= tile_of(y1); ++ty) {
      for (int64_t tx = tile_of(x0); tx <= tile_of(x1); ++tx) {
        if (view.holds_cells({tx, ty})) return false;
      }
    }
    return true;
  };
  return no_tile() || (horizon == shortest_ && view.clear(x0, y0, x1, y1));
}

uint64_t GliderFlights::clearance(const Review& view, const Flight& flight) const {
  // A glider flying on tries twice the horizon it had (a glider far
  // from everything keeps the longest), then shorter ones; a new one tries the
  // shortest first, since most stand near the world and fail.
  if (flight.horizon > shortest_) {
    if (flight.horizon < kMaxHorizon && clear_for(view, flight, 2 * flight.horizon)) {
      return 2 * flight.horizon;
    }
    for (uint64_t horizon = flight.horizon; horizon >= shortest_; horizon /= 2) {
      if (clear_for(view, flight, horizon)) return horizon;
    }
    return 0;
  }
  uint64_t cleared = 0;
  for (uint64_t horizon = shortest_; horizon <= kMaxHorizon; horizon *= 2) {
    if (!clear_for(view, flight, horizon)) break;
    cleared = horizon;
  }
  return cleared;
}

bool GliderFlights::apart(const Flight& a, const Flight& b, uint64_t generations) const {
  const auto exact = [&](uint64_t from) {
    for (uint64_t at = from; at < from + 4; ++at) {
      if (box_gap(box(advanced(a, at)), box(advanced(b, at))) < kApart) return false;
    }
    return true;
  };
  // On the same course two gliders' offset repeats every period.
  if (a.course == b.course) return exact(0);
  // Otherwise their boxes' offset moves by the difference of their
  // courses each period, and within a period each box moves a cell at
  // most along each axis.
  const Course& course_a = courses_[a.course];
  const Course& course_b = courses_[b.course];
  Cell offset{box(b).x - box(a).x, box(b).y - box(a).y};
  const Cell drift{course_b.dx - course_a.dx, course_b.dy - course_a.dy};
  // The offset after k periods is offset + k * drift, and its Chebyshev
  // length is convex in k: its least over the horizon is at an end or
  // beside where a coordinate, or their sum or difference, crosses zero.
  // Only a pair that comes near is stepped through.
  const auto periods = static_cast<int64_t>(generations / 4);
  const auto length = [&](int64_t k) {
    const int64_t x = offset.x + k * drift.x;
    const int64_t y = offset.y + k * drift.y;
    return std::max(x < 0 ? -x : x, y < 0 ? -y : y);
  };
  int64_t least = std::min(length(0), length(periods));
  const auto try_near = [&](int64_t numerator, int64_t denominator) {
    if (denominator == 0) return;
    const int64_t k = numerator / denominator;
    for (int64_t near = k - 1; near <= k + 1; ++near) {
      if (near >= 0 && near <= periods) least = std::min(least, length(near));
    }
  };
  try_near(-offset.x, drift.x);
  try_near(-offset.y, drift.y);
  try_near(offset.y - offset.x, drift.x - drift.y);
  try_near(-(offset.x + offset.y), drift.x + drift.y);
  // Boxes 3 wide: a gap of kApart + 2 at period starts keeps kApart
  // within each period.
  if (least - 2 >= kApart + 2) return true;
  for (uint64_t at = 0; at <= generations; at += 4) {
    const int64_t gap = std::max<int64_t>(
        0, std::max(offset.x < 0 ? -offset.x : offset.x, offset.y < 0 ? -offset.y : offset.y) - 2);
    if (gap < kApart + 2 && !exact(at)) return false;
    offset = {offset.x + drift.x, offset.y + drift.y};
  }
  return true;
}

bool GliderFlights::review(std::span<sparse::SparseGrid* const> parts, const ForEach& for_each) {
  const uint64_t generation = parts[0]->generation();
  for (Flight& flight : flights_) flight = advanced(flight, generation - generation_);
  generation_ = generation;
  Review view(parts, work_);
  // The tiles are searched only when the search is due: a review for the
  // flights' sake alone (a puffer train's strays, at every epoch's end)
  // searched them each time.
  const bool searching = generation >= next_search_;
  const std::vector<Found> found = searching ? search(view, parts, for_each) : std::vector<Found>{};
  // Searching again soon pays where gliders were lifted out; where none
  // could be (a world without gliders, or none free to fly), less and less.
  const auto schedule_search = [&](bool lifted) {
    if (!searching) return;
    search_gap_ =
        lifted ? std::max(kFirstSearchGap, shortest_) : std::min(2 * search_gap_, kMaxSearchGap);
    next_search_ = generation + search_gap_;
  };
  // A review stops the world's stepping: a glider or two flying do not
  // pay for that. Fewer than min_fleet_ land (or are not lifted), and the
  // search backs off.
  if (found.size() + flights_.size() < min_fleet_) {
    for (const Flight& flight : flights_) put(view, flight, true);
    landed_ += flights_.size();
    flights_.clear();
    schedule_search(false);
    next_review_ = next_search_;
    return view.commit();
  }

  // Every glider: those flying, then those found in the tiles, which come
  // out of the tiles for now. A glider is one of: flying; a glider to the
  // others, stepped in the tiles but moving as a glider until the rest
  // reaches it (grounded ones among them); or tangled, the rest of the
  // world to the others. The map of where the rest has cells is made with
  // the found ones out, and marks each put back as the rest.
  const size_t flying_count = flights_.size();
  std::vector<Flight>& gliders = scratch_.gliders;
  gliders.assign(flights_.begin(), flights_.end());
  for (const Found& one : found) gliders.push_back(one.flight);
  const auto is_new = [&](size_t i) { return i >= flying_count; };
  for (size_t i = flying_count; i < gliders.size(); ++i) put(view, gliders[i], false);
  // The map costs a look at every tile held; without it, each
  // clearance looks up the tiles around a glider's way (up to about
  // kTilesPerClearance). A few gliders in a large world (a puffer train's
  // strays among its debris) look them up.
  size_t held = 0;
  for (const sparse::SparseGrid* grid : parts) held += grid->tile_count();
  squares_mapped_ =
      coarse_map_ == CoarseMap::kAlways ||
      (coarse_map_ == CoarseMap::kWhereWorthIt && gliders.size() * kTilesPerClearance >= held);
  if (squares_mapped_) view.map_occupied(parts, squares_);
  std::vector<char>& rest = scratch_.rest;
  rest.assign(gliders.size(), 0);
  const auto make_rest = [&](size_t i) {
    rest[i] = 1;
    // Put back as the rest, its tiles hold live cells again.
    if (squares_mapped_) {
      squares_.mark_glider(box(gliders[i]),
                           courses_[gliders[i].course].phases[gliders[i].phase].cells);
    }
    put(view, gliders[i], true);
  };
  // Found ones the rest leaves no room to fly, however they meet the
  // others, are grounded: they stay in the tiles, gliders to the others.
  // Made the rest, each grounded the next one along a gun's stream, down
  // to its end, and no glider of the stream flew.
  std::vector<char>& grounded = scratch_.grounded;
  grounded.assign(gliders.size(), 0);
  for_each_index(found.size(), kClearancePiece, for_each, [&](size_t k) {
    const size_t i = flying_count + k;
    grounded[i] = clear_for(view, gliders[i], shortest_) ? 0 : 1;
  });
  // Gliders that may meet another within kMaxHorizon are tangled. Two
  // meeting must be within a coarse square of each other (each moves a
  // quarter of one). Only a glider new or due looks at the pairs it is
  // in: a pair of others was looked at, for kMaxHorizon, when the later
  // of them was; and a pair on the same course is apart for good once
  // apart for a period, so two that flew before are not looked at again.
  // Grouped by counting each square's gliders of each course, then placing
  // them: sorting took a fifth of a review of acorn-field's thousands.
  std::vector<TileCoord>& square_of_glider = scratch_.square_of_glider;
  square_of_glider.resize(gliders.size());
  for (size_t i = 0; i < gliders.size(); ++i) {
    const Cell corner = box(gliders[i]);
    square_of_glider[i] = {coarse_of(corner.x), coarse_of(corner.y)};
  }
  // Sized for twice the squares of the last review, where gliders are
  // more: sized for a square a glider, a gun's stream of thousands filled a
  // table 30 times too large each review.
  square_runs_.reset(std::min(gliders.size(), 2 * square_runs_.used()));
  size_t grouped = 0;
  for (size_t i = 0; i < gliders.size(); ++i) {
    if (rest[i]) continue;
    ++square_runs_.at(square_of_glider[i]).end[gliders[i].course];
    ++grouped;
  }
  std::vector<size_t>& by_square = scratch_.by_square;
  by_square.resize(grouped);
  std::array<size_t, 4> on_course{};
  int placed = 0;
  for (size_t i = 0; i < gliders.size(); ++i) {
    if (rest[i]) continue;
    Run& run = square_runs_.at(square_of_glider[i]);
    if (run.begin < 0) {
      // The counts become where each course's part is filled from.
      run.begin = placed;
      uint16_t filled = 0;
      for (uint16_t& end : run.end) {
        const uint16_t count = end;
        end = filled;
        filled = static_cast<uint16_t>(filled + count);
      }
      placed += filled;
    }
    by_square[static_cast<size_t>(run.begin + run.end[gliders[i].course]++)] = i;
    ++on_course[gliders[i].course];
  }
  // Those that look: the new, those due, and (below) the flying ones
  // near a glider newly tangled, whose clearance counted on it staying a
  // glider. Each glider near gliders[i] (within `squares` coarse squares)
  // is visited, but for those on course `skip`.
  const auto near = [&](size_t i, int64_t squares, int skip, const auto& visit) {
    const TileCoord home = square_of_glider[i];
    for (int64_t dy = -squares; dy <= squares; ++dy) {
      for (int64_t dx = -squares; dx <= squares; ++dx) {
        const Run* run = square_runs_.find({home.tx + dx, home.ty + dy});
        if (run == nullptr) continue;
        for (int course = 0; course < 4; ++course) {
          if (course == skip) continue;
          const int first = course == 0 ? 0 : run->end[static_cast<size_t>(course) - 1];
          for (int at = run->begin + first; at < run->begin + run->end[static_cast<size_t>(course)];
               ++at) {
            const size_t j = by_square[static_cast<size_t>(at)];
            if (j != i) visit(j);
          }
        }
      }
    }
  };
  std::vector<char>& looking = scratch_.looking;
  std::vector<char>& looked = scratch_.looked;
  std::vector<char>& tangled = scratch_.tangled;
  looking.assign(gliders.size(), 0);
  looked.assign(gliders.size(), 0);
  tangled.assign(gliders.size(), 0);
  std::vector<size_t>& queue = scratch_.queue;
  queue.clear();
  const auto look = [&](size_t i) {
    if (rest[i] || looking[i]) return;
    looking[i] = 1;
    queue.push_back(i);
  };
  for (size_t i = 0; i < gliders.size(); ++i) {
    if (is_new(i) || gliders[i].until < generation + shortest_) look(i);
  }
  const auto tangle = [&](size_t i) {
    if (tangled[i]) return;
    tangled[i] = 1;
    // What it strikes spreads a cell a generation from where they meet:
    // over kMaxHorizon, less than 400 cells from it now, which three
    // coarse squares each way cover.
    near(i, 3, -1, [&](size_t j) { look(j); });
  };
  // Two gliders on one course, apart for a period, are apart for good: a
  // pair of them is looked at only by a new one of the two (both, if both
  // are, by the first to look), so a glider flying on skips its course
  // (a gun's stream, thousands on one course, took two thirds of a review
  // pairing them).
  while (!queue.empty()) {
    const size_t i = queue.back();
    queue.pop_back();
    looked[i] = 1;
    const int course = gliders[i].course;
    // Where every glider shares its course, one flying on has no pair to
    // look at (a gun's stream: nine squares looked up for nothing).
    if (!is_new(i) && on_course[static_cast<size_t>(course)] == grouped) continue;
    near(i, 1, is_new(i) ? -1 : course, [&](size_t j) {
      const bool skipped_by_j = !is_new(j) && gliders[j].course == course;
      if (looked[j] && looking[j] && !skipped_by_j) return;
      if (!apart(gliders[i], gliders[j], kMaxHorizon)) {
        tangle(i);
        tangle(j);
      }
    });
  }
  for (size_t i = 0; i < gliders.size(); ++i) {
    if (tangled[i]) make_rest(i);
  }
  // A glider that flies on or is lifted out may fly shortest_ or more; one
  // that may not lands or stays, a glider to the others, put back once
  // every glider is decided.
  std::vector<size_t>& asking = scratch_.asking;
  std::vector<uint64_t>& horizons = scratch_.horizons;
  asking.clear();
  for (size_t i = 0; i < gliders.size(); ++i) {
    if (!rest[i] && looking[i] && !grounded[i]) asking.push_back(i);
  }
  horizons.assign(gliders.size(), 0);
  for_each_index(asking.size(), kClearancePiece, for_each,
                 [&](size_t k) { horizons[asking[k]] = clearance(view, gliders[asking[k]]); });
  std::vector<size_t>& kept = scratch_.kept;
  std::vector<size_t>& put_back = scratch_.put_back;
  kept.clear();
  put_back.clear();
  for (size_t i = 0; i < gliders.size(); ++i) {
    Flight& glider = gliders[i];
    if (rest[i]) continue;
    if (!looking[i]) {
      kept.push_back(i);
      continue;
    }
    const uint64_t horizon = horizons[i];
    if (horizon != 0 && (!is_new(i) || found[i - flying_count].liftable)) {
      glider.until = generation + horizon;
      glider.horizon = static_cast<uint16_t>(horizon);
      kept.push_back(i);
    } else {
      put_back.push_back(i);
    }
  }
  if (kept.size() < min_fleet_) {
    put_back.insert(put_back.end(), kept.begin(), kept.end());
    kept.clear();
  }
  for (size_t i : put_back) put(view, gliders[i], true);
  std::vector<Flight>& flying = scratch_.flying;
  flying.clear();
  uint64_t next = generation + kMaxSearchGap;
  bool lifted_now = false;
  for (size_t i : kept) {
    flying.push_back(gliders[i]);
    next = std::min(next, gliders[i].until);
    lifted_now = lifted_now || is_new(i);
    lifted_ += is_new(i) ? 1 : 0;
  }
  landed_ += flying_count - static_cast<size_t>(std::count_if(
                                kept.begin(), kept.end(), [&](size_t i) { return !is_new(i); }));
  schedule_search(lifted_now);
  flights_.swap(flying);
  next_review_ = std::min(next, next_search_);
  return view.commit();
}

bool GliderFlights::land_all(std::span<sparse::SparseGrid* const> parts) {
  if (flights_.empty()) return false;
  const uint64_t generation = parts[0]->generation();
  bool near_cut = false;
  for (size_t first = 0; first < flights_.size(); first += kLandingPiece) {
    // Each piece's review reads the tiles as the pieces before left them.
    Review view(parts, work_);
    const size_t end = std::min(flights_.size(), first + kLandingPiece);
    for (size_t i = first; i < end; ++i) {
      put(view, advanced(flights_[i], generation - generation_), true);
    }
    near_cut = view.commit() || near_cut;
  }
  landed_ += flights_.size();
  flights_.clear();
  generation_ = generation;
  return near_cut;
}

}  // namespace gol
