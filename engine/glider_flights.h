// Lone gliders flown by formula. A methuselah or a soup throws gliders off
// into empty space; each keeps a tile or two awake every generation for
// the rest of the run, and in a field of acorns they are about half of all
// the tile steps. A glider moves a cell diagonally every four generations
// whatever happens around it, as long as nothing comes near it, so it need
// not be stepped at all.
//
// Why lifting one out is exact. Two sets of live cells at least kApart (3)
// cells apart (Chebyshev) step independently under any rule that bears
// nothing from no neighbours (not B0): no cell sees both. At a review the
// gliders are of three kinds:
//   - flying: out of the tiles, moved by formula;
//   - gliders to the others: found alone in the tiles and stepped there,
//     but moving as gliders until something else reaches them, among them
//     those that stand too near the rest to fly (grounded);
//   - the rest of the world, with everything else in the tiles: gliders
//     that may meet another glider within kMaxHorizon (tangled).
// The rest spreads a cell a generation at most, and a glider it reaches
// then lies within kDisturbed cells of that spread. So a glider may fly
// for a horizon h if no cell of the rest lies within h + kApart - 1 +
// kDisturbed of the boxes it passes through, and no other glider (flying
// or not) comes within kApart of it in that time. Every pair is looked at
// when either is new or due (a pair on one course, apart for a period and
// so for good, only when one is new), and a glider newly tangled has those
// flying near it looked at again, since their clearance counted on it
// moving as a glider. The caller steps the world up to next_review(),
// which no clearance outlasts, and calls review(): a glider whose way is
// no longer clear lands, put back into the tiles exactly as it is then.
//
// Lifting one out must leave the tiles' two generations a world that
// steps as they did: a glider is lifted only if it stood alone (nothing
// else within two cells) at both generations the tiles hold, so that what
// stays is what the rest stepped to. Landing puts back both generations of
// it, which the rest never touched. Either way the tiles change as the
// hybrid's imports change them (SparseGrid::import_tile: the tile and the
// neighbours whose border it changed wake).
//
// What it costs. A review stops the world's stepping (in strips, an
// exchange follows where tiles changed) and, when its search is due, looks
// for gliders in the active tiles, so gliders fly only while there are a
// few of them (kMinFleet); where none can fly the search backs off.
// Whether a glider's way is clear is read from a map of which tiles hold
// cells, a 16-bit mask for each coarse square of 4x4 tiles, made at the
// review from every tile held, where gliders are many, and otherwise from
// the tiles along its way. A gun's stream flies from a few tiles beyond
// the gun on: the gliders grounded beside the gun stay gliders to the
// others, and a pair on one course is looked at only where one of the two
// is new. The fleet is kept from review to review (Fleet), so a review
// looks at the gliders new, due or near those, not at all of them; and a
// fleet of one course (a stream) is cleared for longer the farther its
// gliders fly (kLoneCourseHorizon), so that a gun run long does not look
// at its whole stream every kMaxHorizon generations.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "engine/core/cell_set.h"
#include "engine/core/rule.h"
#include "engine/core/tile.h"
#include "sparse/coord_index.h"
#include "sparse/sparse_grid.h"

namespace gol {

class GliderFlights {
 public:
  // The shortest clearance a glider flies with (unless set longer): one
  // about kHorizon cells from the rest of the world flies. Shorter lets
  // gliders go sooner after they leave what made them, and reviews more
  // often.
  static constexpr uint64_t kHorizon = 64;
  // A glider far from everything is cleared for up to this long (doubling
  // from kHorizon review by review), and no pair of gliders is looked at
  // for longer.
  static constexpr uint64_t kMaxHorizon = 256;
  // Where every glider shares one course (a gun's stream), one far from
  // the rest of the world is cleared for up to this long. No two of them
  // can meet, and a glider found later was part of the rest, which the
  // clearance counts as spreading at light speed: so a pair need not be
  // looked at for the clearance's length. Without it, each glider of a
  // stream was looked at every kMaxHorizon generations for the rest of the
  // run, a review's work growing with the stream.
  static constexpr uint64_t kLoneCourseHorizon = uint64_t{1} << 16;
  // Gliders fly only for a stepper of at most this many threads: much of
  // a review runs on one thread while the others wait (the search and the
  // clearances are shared out only in strips), and a glider flown saves a
  // tile step shared among them all. On the 16-core device host, engine
  // s with / without flights, four runs each: at 16 threads acorn-field
  // 0.234-0.251 / 0.232-0.252, gosper-gun 0.190-0.331 / 0.388-0.465; at 32
  // acorn-field 0.319-0.339 / 0.273-0.280 (bench/RESULTS.md).
  static constexpr int kMaxThreads = 16;
  // Gliders fly only while at least this many do. A puffer train's few
  // strays, each keeping up to nine tiles of its plane blocks stepping,
  // took 17% of its one-thread time (bench/RESULTS.md); the floor was 32,
  // and one for each 256 tiles held, while every review mapped them all.
  static constexpr size_t kMinFleet = 4;
  // The map of which tiles hold cells is kept by squares of 2^k tiles a
  // side.
  static constexpr int kCoarseTileBits = 2;
  // About how many tiles one glider's clearance looks up without the map
  // (its way for kMaxHorizon and the reach around it, 600 cells a side).
  static constexpr size_t kTilesPerClearance = 128;
  // A glider the rest of the world reaches lies within this many cells of
  // its spread.
  static constexpr int64_t kDisturbed = 4;
  // Where no glider flies, the first review of a call comes after this
  // many generations, and each review that finds none waits twice as long
  // as the last, up to kMaxSearchGap (a world without gliders pays for a
  // look at its active tiles now and then, and no shorter epochs).
  static constexpr uint64_t kFirstSearchGap = 64;
  static constexpr uint64_t kMaxSearchGap = 4096;

  // Readies the flights for `rule`: gliders fly only where the rule's own
  // glider moves as Life's does (B3/S23 and rules agreeing on it, such as
  // B36/S23) and nothing is born from no neighbours.
  void set_rule(const Rule& rule);
  bool rule_flies() const { return rule_flies_; }
  // The fewest gliders that fly (kMinFleet unless set: tests fly one).
  void set_min_fleet(size_t gliders) { min_fleet_ = gliders; }
  // The shortest clearance from the next review on: a power of two from
  // kHorizon to kMaxHorizon. A world in strips reviews at its epochs' ends,
  // a review between them stopping both strips once more, and so flies
  // only gliders clear until the next epoch's end.
  void set_shortest_horizon(uint64_t horizon) {
    shortest_ = std::clamp(std::bit_ceil(horizon), kHorizon, kMaxHorizon);
  }
  // When a review makes the coarse map: where the gliders are many enough
  // to pay for it, or (for tests of both ways) always or never.
  enum class CoarseMap { kWhereWorthIt, kAlways, kNever };
  void set_coarse_map(CoarseMap when) { coarse_map_ = when; }
  // Starts a call's schedule at `generation`, nothing flying.
  void start(uint64_t generation);
  // The generation by which the next review must come (a review may not
  // come later: the flights' clearance ends there).
  uint64_t next_review() const { return next_review_; }
  size_t flying() const { return flying_; }
  // Reviews since construction (land_all's landings not counted).
  uint64_t reviews() const { return reviews_; }
  // The live cells of the gliders flying (five each), and the box they
  // lie in at `generation` (at or after the last review).
  uint64_t population() const { return 5 * static_cast<uint64_t>(flying_); }
  std::optional<BBox> bbox(uint64_t generation) const;
  // visit(x, y) for each live cell of the gliders flying, at `generation`.
  void visit_cells(uint64_t generation, const std::function<void(int64_t, int64_t)>& visit) const;
  // Runs body(begin, end) over [0, count) in pieces, on several threads at
  // once where it can (the stepper's workers), and returns when all are
  // done. A review hands it the work that only reads the world: the search
  // of the tiles and each glider's clearance, about two fifths of a review
  // of gosper-gun's thousands of gliders.
  using ForEach =
      std::function<void(size_t count, const std::function<void(size_t, size_t)>& body)>;
  // At next_review() (every part at the same generation): lands the
  // gliders whose way is no longer clear, lifts out those newly alone and
  // clear, and plans near the tiles changed. `parts` hold the world: each
  // owns the columns [strip_first(), strip_last()] (a whole grid owns them
  // all), and a strip's changed tiles are marked so that an exchange takes
  // them into its neighbours' copies. Returns whether a changed tile lies
  // in a column that a neighbouring strip copies: the strips must then
  // exchange before stepping on.
  // `for_each`, where given, shares out the review's reads.
  bool review(std::span<sparse::SparseGrid* const> parts, const ForEach& for_each = {});
  // Lands every glider at the parts' generation; returns what review()
  // returns.
  bool land_all(std::span<sparse::SparseGrid* const> parts);
  // Gliders lifted out and landed since construction.
  uint64_t lifted() const { return lifted_; }
  // The longest clearance given since construction.
  uint64_t longest_given() const { return longest_given_; }
  uint64_t landed() const { return landed_; }

  // One glider's course: its box's top-left corner, relative to where it
  // stood at phase 0 of its current period, and its 3x3 cells (bit
  // 3 * row + column), for each phase; and how far a period moves it.
  struct Phase {
    uint16_t cells = 0;
    int dx = 0;
    int dy = 0;
  };
  struct Course {
    std::array<Phase, 4> phases;
    int dx = 0;
    int dy = 0;
  };
  // A flying glider: course, phase and where its period's phase-0 box
  // stood, at the generation of the last review.
  struct Flight {
    int64_t x = 0;
    int64_t y = 0;
    uint8_t course = 0;
    uint8_t phase = 0;
    uint64_t until = 0;    // the generation its clearance ends
    uint32_t horizon = 0;  // the clearance it was last given
  };
  // Where `flight` is `generations` later, and the top-left corner of its
  // box there.
  Flight advanced(const Flight& flight, uint64_t generations) const;
  Cell box(const Flight& flight) const;
  const std::array<Course, 4>& courses() const { return courses_; }

 private:
  // What a review changes of one tile: both generations, as they will be.
  struct Work {
    TileCoord coord;
    size_t part = 0;
    Tile tiles[2];
  };
  // The tiles a review changes, in memory kept from one review to the
  // next (fresh pages cost about 5 us each on the dev host), found by
  // coordinate.
  class WorkArea {
    // The index's reading of an entry's coordinate (defined before the
    // members that use it, which need its type).
    auto coords() const {
      return [this](int32_t at) { return works_[static_cast<size_t>(at)].coord; };
    }

   public:
    void clear() {
      used_ = 0;
      if (index_) index_->empty_keeping_room();
    }
    Work* find(TileCoord coord) {
      const int32_t at = index_ ? index_->find(coord, coords()) : sparse::CoordIndex::kAbsent;
      return at == sparse::CoordIndex::kAbsent ? nullptr : &works_[static_cast<size_t>(at)];
    }
    // The entry for `coord`, and whether it was just made (then only its
    // coordinate is set).
    std::pair<Work*, bool> emplace(TileCoord coord) {
      if (!index_) index_.emplace();
      // Room first, so that the index never names an entry not made (were
      // growing to throw); a found coordinate leaves it for the next.
      if (used_ == works_.size()) works_.emplace_back();
      const auto [at, inserted] =
          index_->find_or_insert(coord, static_cast<int32_t>(used_), coords());
      if (!inserted) return {&works_[static_cast<size_t>(at)], false};
      Work& work = works_[used_++];
      work.coord = coord;
      return {&work, true};
    }
    std::span<Work> used() { return {works_.data(), used_}; }
    size_t size() const { return used_; }

   private:
    std::vector<Work> works_;
    size_t used_ = 0;
    // Made by the first review that changes a tile, so that a stepper
    // whose gliders never fly holds no table.
    std::optional<sparse::CoordIndex> index_;
  };
  class Review;
  struct TileHash {
    size_t operator()(TileCoord c) const {
      return static_cast<size_t>((static_cast<uint64_t>(c.tx) * 0x9E3779B97F4A7C15ull) ^
                                 static_cast<uint64_t>(c.ty));
    }
  };

  // The glider one generation before `flight`.
  Flight previous(const Flight& flight) const;
  // Puts both generations of `flight` into the review's tiles, or takes
  // them out.
  void put(Review& view, const Flight& flight, bool alive) const;
  // A glider standing alone in the tiles, and whether it stood alone a
  // generation before too (then it may be lifted out).
  struct Found {
    Flight flight;
    bool liftable = false;
  };
  std::vector<Found> search(const Review& view, std::span<sparse::SparseGrid* const> parts,
                            const ForEach& for_each);
  // The gliders found in active()[begin, end) of `grid`, appended to `found`.
  void search_tiles(const Review& view, const sparse::SparseGrid& grid, size_t begin, size_t end,
                    std::vector<Found>& found) const;
  // body(i) for each i < count: on `for_each` in pieces of `piece` where
  // there are several, else here.
  static void for_each_index(size_t count, size_t piece, const ForEach& for_each,
                             const std::function<void(size_t)>& body);
  // visit(x, y) for each live cell of the glider phase `cells` (bit 3 *
  // row + column) with its box's top-left corner at `corner`.
  template <class Visit>
  static void visit_phase_cells(Cell corner, uint16_t cells, const Visit& visit) {
    for (int bit = 0; bit < 9; ++bit) {
      if (((cells >> bit) & 1u) != 0) visit(corner.x + bit % 3, corner.y + bit / 3);
    }
  }
  // A value for each coarse square: a table of open addressing, rebuilt at
  // each review in the same memory (an unordered_map cost several times as
  // much, and fresh pages for it each review more again).
  template <class Value>
  class SquareTable {
   public:
    // Empties the table, sized for about `expected` squares (it grows as
    // they come).
    void reset(size_t expected) {
      size_t size = 64;
      while (size < 2 * expected) size *= 2;
      if (entries_.size() < size) entries_.resize(size);
      size_ = size;
      used_ = 0;
      std::fill(entries_.begin(), entries_.begin() + static_cast<ptrdiff_t>(size_), Entry{});
    }
    // Squares holding a value.
    size_t used() const { return used_; }
    // The value of `square`, made (Value{}) if new.
    Value& at(TileCoord square) { return entry(square).value; }
    // The value of `square`, or null where it has none.
    const Value* find(TileCoord square) const {
      if (size_ == 0) return nullptr;
      const Entry& entry = entries_[locate(square)];
      return entry.used ? &entry.value : nullptr;
    }

   private:
    struct Entry {
      TileCoord square;
      Value value{};
      bool used = false;
    };
    size_t locate(TileCoord square) const {
      for (size_t at = TileHash{}(square)*0x9E3779B97F4A7C15ull >> 20;; ++at) {
        const Entry& entry = entries_[at & (size_ - 1)];
        if (!entry.used || entry.square == square) return at & (size_ - 1);
      }
    }
    // The entry for `square`, made if new; the table doubles where it would
    // be more than half full.
    Entry& entry(TileCoord square) {
      if (size_ == 0) reset(0);
      size_t at = locate(square);
      if (entries_[at].used) return entries_[at];
      if (2 * (used_ + 1) > size_) {
        const std::vector<Entry> old(entries_.begin(),
                                     entries_.begin() + static_cast<ptrdiff_t>(size_));
        const size_t kept = used_;
        reset(size_);
        for (const Entry& moved : old) {
          if (moved.used) entries_[locate(moved.square)] = moved;
        }
        used_ = kept;
        at = locate(square);
      }
      ++used_;
      entries_[at].square = square;
      entries_[at].used = true;
      return entries_[at];
    }
    std::vector<Entry> entries_;
    size_t size_ = 0;
    size_t used_ = 0;
  };
  static constexpr int64_t kSquareSide = int64_t{1} << kCoarseTileBits;
  static_assert(kSquareSide * kSquareSide == 16, "a square's tiles are one 16-bit mask");
  // Which tiles of each coarse square hold live cells (bit kSquareSide *
  // (ty mod kSquareSide) + (tx mod kSquareSide) of its mask), and the
  // squares marked, so that a clearance can read those within its reach
  // where they are fewer than the squares it covers (a gun's few beside its
  // stream of thousands).
  class OccupiedTiles {
   public:
    // Empties the map, sized for about `expected` squares.
    void reset(size_t expected) {
      masks_.reset(expected);
      marked_.clear();
    }
    void mark(TileCoord tile) {
      uint16_t& mask = masks_.at(square_of(tile));
      if (mask == 0) marked_.push_back(square_of(tile));
      mask |= bit_in_square(tile);
    }
    void unmark(TileCoord tile) {
      masks_.at(square_of(tile)) &= static_cast<uint16_t>(~bit_in_square(tile));
    }
    // Marks the tiles of the glider phase `cells` (bit 3 * row + column)
    // with its box's top-left corner at `corner`.
    void mark_glider(Cell corner, uint16_t cells) {
      visit_phase_cells(corner, cells, [&](int64_t x, int64_t y) {
        mark({tile_of(x), tile_of(y)});
      });
    }
    // The mask of `square` (null: none marked there yet).
    const uint16_t* find(TileCoord square) const { return masks_.find(square); }
    // Every square a tile was marked in (some perhaps twice, or unmarked
    // since).
    std::span<const TileCoord> marked() const { return marked_; }
    // Drops from marked() the squares where no tile is marked now: where a
    // call's landed fleet is lifted again, thousands of them, which every
    // clearance of a gun's stream read.
    void drop_empty() {
      std::erase_if(marked_, [&](TileCoord square) { return *masks_.find(square) == 0; });
    }

   private:
    SquareTable<uint16_t> masks_;
    std::vector<TileCoord> marked_;
  };
  // The fleet, kept from review to review so that a review looks at the
  // gliders new, due or near those, not at every glider: a gun's stream of
  // thousands made each review's grouping of them most of a long run.
  //
  // A glider's frame position is where it would have stood at generation
  // 0, had it always flown its course: it does not change as it flies, so
  // the gliders of one course, grouped by the coarse square of their frame
  // position, stay grouped. A glider near another now is within a cell or
  // two of the same frame distance from it as it is in the plane.
  class Fleet {
   public:
    static constexpr int32_t kNone = -1;
    // A glider flying, or found in the tiles this review: its flight as of
    // generation `at`, and its review state (valid while `stamp` is the
    // review's).
    struct Glider {
      Flight flight;
      uint64_t at = 0;
      TileCoord square;  // of its frame position
      int32_t next = kNone;
      int32_t previous = kNone;
      uint32_t version = 0;  // counts the slot's reuses (stale due entries)
      uint32_t stamp = 0;    // stamp() of the review that last looked (state is its)
      uint8_t state = 0;
      bool used = false;
    };
    // Empties the fleet.
    void clear();
    // Adds `flight` as of generation `at`; returns its id.
    int32_t add(const Flight& flight, uint64_t at, const std::array<Course, 4>& courses);
    void remove(int32_t id);
    Glider& operator[](int32_t id) { return gliders_[static_cast<size_t>(id)]; }
    const Glider& operator[](int32_t id) const { return gliders_[static_cast<size_t>(id)]; }
    size_t size() const { return count_; }
    size_t on_course(int course) const { return on_course_[static_cast<size_t>(course)]; }
    // The frame position that a glider of `course` at `flight`'s place (as
    // of generation `at`) would have: within a cell of where one flying
    // there does.
    static Cell frame_point(const Flight& flight, uint64_t at, const Course& course);
    // visit(id) for each glider of `course` in the coarse squares that the
    // frame positions within `reach` of `point` (each way) fall in.
    template <class Visit>
    void near(int course, Cell point, int64_t reach, const Visit& visit) const {
      const SquareTable<int32_t>& index = index_[static_cast<size_t>(course)];
      if (on_course(course) == 0) return;
      for (int64_t sy = coarse_of(point.y - reach); sy <= coarse_of(point.y + reach); ++sy) {
        for (int64_t sx = coarse_of(point.x - reach); sx <= coarse_of(point.x + reach); ++sx) {
          const int32_t* head = index.find({sx, sy});
          if (head == nullptr) continue;
          for (int32_t id = *head - 1; id != kNone; id = (*this)[id].next) visit(id);
        }
      }
    }
    // Every glider's id, flying or found (in slot order).
    template <class Visit>
    void each(const Visit& visit) const {
      for (size_t id = 0; id < gliders_.size(); ++id) {
        if (gliders_[id].used) visit(static_cast<int32_t>(id));
      }
    }

   private:
    // Puts glider `id` first in its frame square's list in `index`.
    void link(int32_t id, SquareTable<int32_t>& index);
    // Rebuilds course `course`'s index where most of its squares are empty.
    void compact(int course);

    std::vector<Glider> gliders_;
    std::vector<int32_t> free_;
    size_t count_ = 0;
    std::array<size_t, 4> on_course_{};
    // By course, each frame square's first glider's id + 1 (0: none now).
    std::array<SquareTable<int32_t>, 4> index_;
  };
  // When a flying glider is next due a look: a min-heap on `until`, whose
  // entries for a glider looked at sooner or landed are stale.
  struct Due {
    uint64_t until = 0;
    int32_t id = 0;
    uint32_t version = 0;
    bool operator>(const Due& other) const { return until > other.until; }
  };
  // What marks the gliders a review has looked at: its count, as their
  // stamps hold it.
  uint32_t stamp() const { return static_cast<uint32_t>(reviews_); }
  // Glider `id` brought to the review's generation and stamp.
  Fleet::Glider& now(int32_t id);
  // Glider `id` flies for `horizon` generations from the review's.
  void fly_until(int32_t id, uint64_t horizon);
  // Whether `due` is a flying glider's latest entry.
  bool stands_for(const Due& due) const;
  // A glider whose clearance ends before generation `before`, taken off
  // the due list.
  std::optional<int32_t> take_due(uint64_t before);
  // When the first glider flying is due (or kMaxSearchGap on, with none).
  uint64_t next_due();
  // Takes the first entry off the due list.
  void pop_due();
  // Every glider of the fleet lands.
  void land_fleet(Review& view);
  // Empties the fleet, its gliders flying counted landed (put back into
  // the tiles by the caller).
  void forget_fleet();
  // Looks at the pairs of the gliders found and due, and of those a tangle
  // reaches: marks which are tangled, and which look for a clearance.
  // Returns every glider decided on (each marked kListed).
  const std::vector<int32_t>& decide_pairs(std::span<const int32_t> found);
  // The corners of the boxes `flight` passes through in the next
  // `generations` (at least 3): the top-left of the first, the bottom-right
  // of the last.
  std::pair<Cell, Cell> sweep(const Flight& flight, uint64_t generations) const;
  // Whether the world (its tiles, from squares_ where mapped, then its
  // cells) leaves `flight` clear for `horizon` generations.
  bool clear_for(const Review& view, const Flight& flight, uint64_t horizon) const;
  // Whether squares_ marks no tile of tile columns [tx0, tx1] and rows
  // [ty0, ty1] as holding cells.
  bool no_mapped_tile(int64_t tx0, int64_t ty0, int64_t tx1, int64_t ty1) const;
  // How long the world leaves `flight` clear, up to `longest`: a new
  // glider shortest_, doubled while clear; one flying on twice its last
  // horizon where the world allows, else its last, halved down to
  // shortest_; or 0.
  uint64_t clearance(const Review& view, const Flight& flight, uint64_t longest) const;
  // The longest clearance a glider of `course` may have now.
  uint64_t longest_for(int course) const;
  // Whether `a` and `b` stay kApart for `generations`.
  bool apart(const Flight& a, const Flight& b, uint64_t generations) const;
  // The coarse square (kCoarseTileBits tiles a side) of a coordinate.
  static int64_t coarse_of(int64_t coordinate) {
    return coordinate >> (kTileBits + kCoarseTileBits);
  }
  // The square of a tile, and the tile's bit in the square's mask.
  static TileCoord square_of(TileCoord tile) {
    return {tile.tx >> kCoarseTileBits, tile.ty >> kCoarseTileBits};
  }
  static uint16_t bit_in_square(TileCoord tile) {
    return static_cast<uint16_t>(
        1u << ((tile.ty & (kSquareSide - 1)) * kSquareSide + (tile.tx & (kSquareSide - 1))));
  }

  bool rule_flies_ = false;
  Rule rule_{};
  bool rule_known_ = false;
  std::array<Course, 4> courses_{};
  // By 3x3 cells: course * 4 + phase of the glider phase they are, or -1.
  std::array<int8_t, 512> by_cells_{};
  Fleet fleet_;
  size_t flying_ = 0;  // gliders flying (the fleet less those found this review)
  std::vector<Due> due_;
  uint64_t reviews_ = 0;
  size_t min_fleet_ = kMinFleet;
  uint64_t shortest_ = kHorizon;
  uint64_t generation_ = 0;  // of the last review (or start)
  uint64_t next_review_ = 0;
  uint64_t search_gap_ = kFirstSearchGap;
  uint64_t next_search_ = 0;  // the generation from which a review searches
  OccupiedTiles squares_;
  CoarseMap coarse_map_ = CoarseMap::kWhereWorthIt;
  // Whether this review made squares_ (clear_for reads tiles where not).
  bool squares_mapped_ = false;
  WorkArea work_;
  // A review's scratch, kept from one to the next: vectors of a glider
  // each, made afresh each review, were mapped and unmapped by the
  // allocator once a fleet passed about 4000, and their page faults took
  // about half of a gun's run of 400000 generations (bench/RESULTS.md).
  struct Scratch {
    std::vector<std::vector<Found>> found_in;   // what each piece of the search found
    std::vector<int32_t> listed;                // the gliders a review decides on
    std::vector<int32_t> found, queue, asking;  // gliders' ids
    std::vector<Flight> flights;                // of those asking, as they are now
    std::vector<uint64_t> horizons;             // of those asking
  };
  Scratch scratch_;
  uint64_t lifted_ = 0;
  uint64_t longest_given_ = 0;
  uint64_t landed_ = 0;
};

}  // namespace gol
