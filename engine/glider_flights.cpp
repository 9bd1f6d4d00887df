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
// Two gliders that come within kApart of each other within kMaxHorizon
// generations are this near now: each box moves kMaxHorizon / 4 cells
// along each axis, and two boxes kApart apart have corners kApart + 2
// apart (with a cell of margin for the phases within a period).
constexpr int64_t kPairReach =
    2 * static_cast<int64_t>(GliderFlights::kMaxHorizon / 4) + kApart + 3;
// The gliders a newly tangled one's debris may reach while their
// clearances last (under 400 cells: see GliderFlights::decide_pairs).
constexpr int64_t kTangleReach = 512;
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
  fleet_.clear();
  flying_ = 0;
  due_.clear();
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

void GliderFlights::Fleet::clear() {
  // Cleared already (a world of few gliders lands its fleet at each review).
  if (gliders_.empty()) return;
  gliders_.clear();
  free_.clear();
  count_ = 0;
  on_course_ = {};
  for (SquareTable<int32_t>& index : index_) index.reset(0);
}

Cell GliderFlights::Fleet::frame_point(const Flight& flight, uint64_t at, const Course& course) {
  // The periods flown since generation 0: those begun by the generation
  // this period began (at - phase), rounded down.
  const auto periods =
      static_cast<int64_t>((at >> 2) - (flight.phase > (at & 3) ? uint64_t{1} : uint64_t{0}));
  return {flight.x - periods * course.dx, flight.y - periods * course.dy};
}

int32_t GliderFlights::Fleet::add(const Flight& flight, uint64_t at,
                                  const std::array<Course, 4>& courses) {
  int32_t id = static_cast<int32_t>(gliders_.size());
  if (free_.empty()) {
    gliders_.emplace_back();
  } else {
    id = free_.back();
    free_.pop_back();
  }
  Glider& glider = (*this)[id];
  glider.flight = flight;
  glider.at = at;
  const Cell frame = frame_point(flight, at, courses[flight.course]);
  glider.square = {coarse_of(frame.x), coarse_of(frame.y)};
  glider.stamp = 0;
  glider.state = 0;
  glider.used = true;
  link(id, index_[flight.course]);
  ++count_;
  ++on_course_[flight.course];
  return id;
}

void GliderFlights::Fleet::remove(int32_t id) {
  Glider& glider = (*this)[id];
  const int course = glider.flight.course;
  if (glider.previous != kNone) {
    (*this)[glider.previous].next = glider.next;
  } else {
    index_[static_cast<size_t>(course)].at(glider.square) = glider.next + 1;
  }
  if (glider.next != kNone) (*this)[glider.next].previous = glider.previous;
  glider.used = false;
  ++glider.version;
  free_.push_back(id);
  --count_;
  --on_course_[static_cast<size_t>(course)];
  compact(course);
}

void GliderFlights::Fleet::link(int32_t id, SquareTable<int32_t>& index) {
  Glider& glider = (*this)[id];
  int32_t& head = index.at(glider.square);
  glider.previous = kNone;
  glider.next = head - 1;
  if (glider.next != kNone) (*this)[glider.next].previous = id;
  head = id + 1;
}

void GliderFlights::Fleet::compact(int course) {
  SquareTable<int32_t>& index = index_[static_cast<size_t>(course)];
  const size_t gliders = on_course(course);
  if (index.used() <= 2 * gliders + 256) return;
  index.reset(gliders);
  each([&](int32_t id) {
    if ((*this)[id].flight.course == course) link(id, index);
  });
}

std::optional<BBox> GliderFlights::bbox(uint64_t generation) const {
  // A glider's five cells fill its 3x3 box's every row and column.
  std::optional<BBox> box;
  fleet_.each([&](int32_t id) {
    const Fleet::Glider& glider = fleet_[id];
    const Cell corner = this->box(advanced(glider.flight, generation - glider.at));
    extend_bbox(box, BBox{corner.x, corner.y, corner.x + 2, corner.y + 2});
  });
  return box;
}

void GliderFlights::visit_cells(uint64_t generation,
                                const std::function<void(int64_t, int64_t)>& visit) const {
  fleet_.each([&](int32_t id) {
    const Fleet::Glider& glider = fleet_[id];
    const Flight flight = advanced(glider.flight, generation - glider.at);
    visit_phase_cells(box(flight), courses_[flight.course].phases[flight.phase].cells, visit);
  });
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
    visit_phase_cells(corner, cells, [&](int64_t x, int64_t y) {
      Work& work = entry({tile_of(x), tile_of(y)});
      work.tiles[parity].set(offset_in_tile(x), offset_in_tile(y), alive);
    });
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
    squares.drop_empty();
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

uint64_t GliderFlights::clearance(const Review& view, const Flight& flight,
                                  uint64_t longest) const {
  // A glider flying on tries twice the horizon it had (a glider far
  // from everything keeps the longest), then shorter ones; a new one tries the
  // shortest first, since most stand near the world and fail.
  if (flight.horizon > shortest_) {
    const uint64_t last = std::min<uint64_t>(flight.horizon, longest);
    if (last < longest && clear_for(view, flight, 2 * last)) return 2 * last;
    for (uint64_t horizon = last; horizon >= shortest_; horizon /= 2) {
      if (clear_for(view, flight, horizon)) return horizon;
    }
    return 0;
  }
  uint64_t cleared = 0;
  for (uint64_t horizon = shortest_; horizon <= longest; horizon *= 2) {
    if (!clear_for(view, flight, horizon)) break;
    cleared = horizon;
  }
  return cleared;
}

uint64_t GliderFlights::longest_for(int course) const {
  // Beyond kMaxHorizon only from the map of the rest (its clearance's
  // reach is then a look at the few squares marked, not at every tile
  // within it).
  return squares_mapped_ && fleet_.on_course(course) == fleet_.size() ? kLoneCourseHorizon
                                                                      : kMaxHorizon;
}

bool GliderFlights::apart(const Flight& a, const Flight& b, uint64_t generations) const {
  const auto exact = [&](uint64_t from) {
    for (uint64_t at = from; at < from + 4; ++at) {
      if (box_gap(box(advanced(a, at)), box(advanced(b, at))) < kApart) return false;
    }
    return true;
  };
  // On the same course two gliders' offset repeats every period, within
  // which it moves a cell at most each way: a look at the boxes now does
  // for those well apart (a stream's gliders are found again by the
  // hundred beside each other when a call's landed fleet is lifted).
  if (a.course == b.course) return box_gap(box(a), box(b)) >= kApart + 2 || exact(0);
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

namespace {

// A glider's state in a review (GliderFlights::Fleet::Glider::state).
enum GliderState : uint8_t {
  kNew = 1,       // found in the tiles this review
  kLiftable = 2,  // found alone at both generations the tiles hold
  kGrounded = 4,  // found where the rest leaves it no room to fly
  kListed = 8,    // in the review's list of gliders decided on
  kLooking = 16,  // its pairs and clearance are looked at
  kLooked = 32,   // its pairs have been
  kTangled = 64,  // it may meet another glider: the rest of the world now
  kKept = 128,    // it flies on, or is lifted out
};

}  // namespace

GliderFlights::Fleet::Glider& GliderFlights::now(int32_t id) {
  Fleet::Glider& glider = fleet_[id];
  if (glider.at != generation_) {
    glider.flight = advanced(glider.flight, generation_ - glider.at);
    glider.at = generation_;
  }
  if (glider.stamp != stamp()) {
    glider.stamp = stamp();
    glider.state = 0;
  }
  return glider;
}

void GliderFlights::fly_until(int32_t id, uint64_t horizon) {
  Fleet::Glider& glider = fleet_[id];
  glider.flight.until = generation_ + horizon;
  glider.flight.horizon = static_cast<uint32_t>(horizon);
  longest_given_ = std::max(longest_given_, horizon);
  due_.push_back({glider.flight.until, id, glider.version});
  std::push_heap(due_.begin(), due_.end(), std::greater<>{});
}

bool GliderFlights::stands_for(const Due& due) const {
  const Fleet::Glider& glider = fleet_[due.id];
  return glider.used && glider.version == due.version && glider.flight.until == due.until;
}

void GliderFlights::pop_due() {
  std::pop_heap(due_.begin(), due_.end(), std::greater<>{});
  due_.pop_back();
}

std::optional<int32_t> GliderFlights::take_due(uint64_t before) {
  while (!due_.empty() && due_.front().until < before) {
    const Due due = due_.front();
    pop_due();
    if (stands_for(due)) return due.id;
  }
  return std::nullopt;
}

uint64_t GliderFlights::next_due() {
  while (!due_.empty() && !stands_for(due_.front())) pop_due();
  return due_.empty() ? generation_ + kMaxSearchGap : due_.front().until;
}

void GliderFlights::land_fleet(Review& view) {
  fleet_.each([&](int32_t id) { put(view, now(id).flight, true); });
  forget_fleet();
}

void GliderFlights::forget_fleet() {
  landed_ += flying_;
  flying_ = 0;
  fleet_.clear();
  due_.clear();
}

const std::vector<int32_t>& GliderFlights::decide_pairs(std::span<const int32_t> found) {
  std::vector<int32_t>& listed = scratch_.listed;
  std::vector<int32_t>& queue = scratch_.queue;
  listed.clear();
  queue.clear();
  const auto list = [&](int32_t id) -> Fleet::Glider& {
    Fleet::Glider& glider = now(id);
    if ((glider.state & kListed) == 0) {
      glider.state |= kListed;
      listed.push_back(id);
    }
    return glider;
  };
  const auto look = [&](int32_t id) {
    Fleet::Glider& glider = list(id);
    if ((glider.state & kLooking) != 0) return;
    glider.state |= kLooking;
    queue.push_back(id);
  };
  // Those that look: the new, those due, and (below) the flying ones near
  // a glider newly tangled, whose clearance counted on it staying a
  // glider.
  for (int32_t id : found) look(id);
  while (const std::optional<int32_t> id = take_due(generation_ + shortest_)) look(*id);
  // Each glider within about `reach` cells of glider `id` (at least that,
  // each way), but for those on course `skip`, is visited.
  const auto near = [&](int32_t id, int64_t reach, int skip, const auto& visit) {
    const Flight flight = fleet_[id].flight;
    for (int course = 0; course < 4; ++course) {
      if (course == skip) continue;
      // A frame position is within a cell of the place's, and a glider's
      // flight is within two of its box.
      fleet_.near(course, Fleet::frame_point(flight, generation_, courses_[course]), reach + 3,
                  [&](int32_t other) {
                    if (other != id) visit(other);
                  });
    }
  };
  const auto tangle = [&](int32_t id) {
    Fleet::Glider& glider = list(id);
    if ((glider.state & kTangled) != 0) return;
    glider.state |= kTangled;
    // What it strikes spreads a cell a generation from where they meet:
    // over kMaxHorizon, less than 400 cells from it now.
    near(id, kTangleReach, -1, look);
  };
  // Gliders that may meet another within kMaxHorizon are tangled. Two
  // meeting are within kPairReach of each other now. Two gliders on one course, apart for a period,
  // are apart for good: a pair of them is looked at only by a new one of the two (both, if both
  // are, by the first to look), so a glider flying on skips its course (a gun's stream, thousands
  // on one course, took two thirds of a review pairing them).
  while (!queue.empty()) {
    const int32_t id = queue.back();
    queue.pop_back();
    Fleet::Glider& glider = fleet_[id];
    glider.state |= kLooked;
    const int course = glider.flight.course;
    const bool is_new = (glider.state & kNew) != 0;
    // Where every glider shares its course, one flying on has no pair to
    // look at (a gun's stream: nine squares looked up for nothing).
    if (!is_new && fleet_.on_course(course) == fleet_.size()) continue;
    near(id, kPairReach, is_new ? -1 : course, [&](int32_t other) {
      const Fleet::Glider& with = now(other);
      const bool skipped_by_other = (with.state & kNew) == 0 && with.flight.course == course;
      if ((with.state & kLooked) != 0 && !skipped_by_other) return;
      if (!apart(fleet_[id].flight, with.flight, kMaxHorizon)) {
        tangle(id);
        tangle(other);
      }
    });
  }
  return listed;
}

bool GliderFlights::review(std::span<sparse::SparseGrid* const> parts, const ForEach& for_each) {
  const uint64_t generation = parts[0]->generation();
  generation_ = generation;
  ++reviews_;
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
  if (found.size() + flying_ < min_fleet_) {
    land_fleet(view);
    schedule_search(false);
    next_review_ = next_search_;
    return view.commit();
  }

  // Every glider: those flying, and those found in the tiles, which join
  // the fleet and come out of the tiles for now. A glider is one of:
  // flying; a glider to the others, stepped in the tiles but moving as a
  // glider until the rest reaches it (grounded ones among them); or
  // tangled, the rest of the world to the others. The map of where the
  // rest has cells is made with the found ones out, and marks each put
  // back as the rest.
  std::vector<int32_t>& found_ids = scratch_.found;
  found_ids.clear();
  for (const Found& one : found) {
    const int32_t id = fleet_.add(one.flight, generation, courses_);
    now(id).state = kNew | (one.liftable ? kLiftable : 0);
    found_ids.push_back(id);
    put(view, one.flight, false);
  }
  // The map costs a look at every tile held; without it, each
  // clearance looks up the tiles around a glider's way (up to about
  // kTilesPerClearance). A few gliders in a large world (a puffer train's
  // strays among its debris) look them up.
  size_t held = 0;
  for (const sparse::SparseGrid* grid : parts) held += grid->tile_count();
  squares_mapped_ =
      coarse_map_ == CoarseMap::kAlways ||
      (coarse_map_ == CoarseMap::kWhereWorthIt && fleet_.size() * kTilesPerClearance >= held);
  if (squares_mapped_) view.map_occupied(parts, squares_);
  // Found ones the rest leaves no room to fly, however they meet the
  // others, are grounded: they stay in the tiles, gliders to the others.
  // Made the rest, each grounded the next one along a gun's stream, down
  // to its end, and no glider of the stream flew.
  // (Each piece marks only its own gliders.)
  for_each_index(found_ids.size(), kClearancePiece, for_each, [&](size_t k) {
    Fleet::Glider& glider = fleet_[found_ids[k]];
    if (!clear_for(view, glider.flight, shortest_)) glider.state |= kGrounded;
  });
  const std::vector<int32_t>& listed = decide_pairs(found_ids);
  // A tangled glider is the rest now: put back into the tiles, whose map
  // marks it.
  for (int32_t id : listed) {
    const Flight& flight = fleet_[id].flight;
    if ((fleet_[id].state & kTangled) == 0) continue;
    if (squares_mapped_) {
      squares_.mark_glider(box(flight), courses_[flight.course].phases[flight.phase].cells);
    }
    put(view, flight, true);
  }
  // A glider that flies on or is lifted out may fly shortest_ or more; one
  // that may not lands or stays, a glider to the others, put back once
  // every glider is decided.
  std::vector<int32_t>& asking = scratch_.asking;
  std::vector<Flight>& flights = scratch_.flights;
  asking.clear();
  flights.clear();
  for (int32_t id : listed) {
    const Fleet::Glider& glider = fleet_[id];
    if ((glider.state & kLooking) != 0 && (glider.state & (kTangled | kGrounded)) == 0) {
      asking.push_back(id);
      flights.push_back(glider.flight);
    }
  }
  std::vector<uint64_t>& horizons = scratch_.horizons;
  horizons.assign(asking.size(), 0);
  for_each_index(asking.size(), kClearancePiece, for_each, [&](size_t k) {
    horizons[k] = clearance(view, flights[k], longest_for(flights[k].course));
  });
  size_t lifting = 0;
  for (size_t k = 0; k < asking.size(); ++k) {
    Fleet::Glider& glider = fleet_[asking[k]];
    const bool is_new = (glider.state & kNew) != 0;
    if (horizons[k] != 0 && (!is_new || (glider.state & kLiftable) != 0)) {
      glider.state |= kKept;
      lifting += is_new ? 1 : 0;
    }
  }
  // Those flying that land: decided on, neither new nor kept.
  const size_t landing =
      static_cast<size_t>(std::count_if(listed.begin(), listed.end(), [&](int32_t id) {
        return (fleet_[id].state & (kNew | kKept)) == 0;
      }));
  const size_t flying_on = flying_ - landing + lifting;
  if (flying_on < min_fleet_) {
    // Too few fly on to pay for reviews: every glider lands, and those
    // found stay in the tiles.
    for (int32_t id : listed) fleet_[id].state &= static_cast<uint8_t>(~kKept);
    lifting = 0;
  }
  // Those decided on: kept ones fly for their clearance; the others go
  // back into the tiles, landing (tangled ones are there already).
  for (size_t k = 0; k < asking.size(); ++k) {
    if ((fleet_[asking[k]].state & kKept) != 0) fly_until(asking[k], horizons[k]);
  }
  for (int32_t id : listed) {
    const Fleet::Glider& glider = fleet_[id];
    if ((glider.state & kKept) != 0) continue;
    if ((glider.state & kTangled) == 0) put(view, glider.flight, true);
    if ((glider.state & kNew) == 0) {
      ++landed_;
      --flying_;
    }
    fleet_.remove(id);
  }
  flying_ += lifting;
  lifted_ += lifting;
  if (flying_on < min_fleet_) land_fleet(view);
  schedule_search(lifting != 0);
  next_review_ = std::min(next_due(), next_search_);
  return view.commit();
}

bool GliderFlights::land_all(std::span<sparse::SparseGrid* const> parts) {
  if (flying_ == 0) return false;
  generation_ = parts[0]->generation();
  std::vector<int32_t>& ids = scratch_.listed;
  ids.clear();
  fleet_.each([&](int32_t id) { ids.push_back(id); });
  bool near_cut = false;
  for (size_t first = 0; first < ids.size(); first += kLandingPiece) {
    // Each piece's review reads the tiles as the pieces before left them.
    Review view(parts, work_);
    const size_t end = std::min(ids.size(), first + kLandingPiece);
    for (size_t i = first; i < end; ++i) put(view, now(ids[i]).flight, true);
    near_cut = view.commit() || near_cut;
  }
  forget_fleet();
  return near_cut;
}

}  // namespace gol
