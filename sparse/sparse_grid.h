// The sparse world one generation at a time: which tiles step (the active
// list), what each reads (its neighbourhood), and what a new tile state
// means (sleep, wake, create, free). It plans and commits; the caller runs
// the kernel in between:
//
//   for each i < active().size():  // in parallel
//     neighbourhood(active()[i], at); next = kernel(at); commit(i, next);
//   finish_generation();            // on one thread
//
// or, with a kernel that writes over the older generation itself, the
// kernel writes into commit_target(i) and the caller passes what it noted
// to commit_written(i, change).
//
// Sleep. Every slot holds the tile at the current generation t and at t-1,
// by parity (generation g lives in buffer g & 1). A stepped tile writes
// generation t+1 over t-1 and compares the two. A tile that is not stepped
// keeps its buffers, so it reads at t+1 what it held at t-1: exactly right
// for a still life (period 1) and for a period-2 oscillator, whose phases
// keep alternating while it sleeps. This is valid while the tile and the
// borders its neighbours show it repeat with period 2, so:
//   - a stepped tile stays awake when its state differs from two
//     generations back;
//   - such a tile wakes the neighbours whose facing border (edge row,
//     column or corner cell) differs from two generations back.
// Creating and freeing (plane only). An absent tile is empty and stays so:
// when a stepped tile has a live cell on a border whose neighbour is
// absent, that neighbour is created (empty, awake). A stepped tile empty
// at t and t+1 whose neighbours show it no live border cell in either
// parity is freed.
//
// Ownership (the hybrid scheduler). Each tile is stepped here (kCpu), is
// resident on the GPU (kGpu), or is a ghost (kGhost): a GPU tile touching
// a tile that is not the GPU's, stepped here as the halo of the CPU tiles
// around it. GPU tiles stay in the map (as stale copies, refreshed only by
// import_tile) so ghosts and their links need no special case; they are
// never stepped, and wake flags set on them are ignored. Ghosts are never
// freed, but may create absent neighbours on the plane like any stepped
// tile, and they sleep and wake like CPU tiles: stepping here is exact for
// a world in which the GPU tiles stand still (alternating their two stale
// buffers, as sleeping tiles do), and such a world differs from the true one
// only within j cells of the GPU tiles after j generations, so a ghost's
// outer border, 64 cells from them, is exact for 63 generations whether the
// ghost slept or not. Ownership changes and imports happen between
// generations and take effect at replan(). A strip's frozen tiles (kFrozen,
// see kMaxStripEpoch) stand still as GPU tiles do, for another strip.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <vector>

#include "engine/core/cell_set.h"
#include "engine/core/rule.h"
#include "engine/core/tile_change.h"
#include "sparse/tile_map.h"

namespace gol::sparse {

enum class TileOwner : uint8_t { kCpu, kGpu, kGhost, kFrozen };

// Whether tiles of `owner` stand still here, stepped elsewhere (on the GPU
// or by another strip) and refreshed only by import_tile().
constexpr bool stands_still(TileOwner owner) {
  return owner == TileOwner::kGpu || owner == TileOwner::kFrozen;
}

class SparseGrid {
 public:
  // Replaces the world; on a torus, cells are taken modulo its size. With
  // keep_all_active (a B0 rule on a torus, where empty tiles change) no tile
  // ever sleeps. Throws InputError for plane cells beyond the tile range.
  void load(const CellSet& cells, const Topology& topology, bool keep_all_active);
  // load() taking the cells apart as they are copied: on the plane each
  // tile is freed once the grid holds it, so a large pattern's memory moves
  // into the grid rather than being held twice.
  void load(CellSet&& cells, const Topology& topology, bool keep_all_active);

  uint64_t generation() const { return generation_; }
  // Slots to step this generation. Planning from the stepped tiles (a
  // sparse world's usual case) lists a woken tile after the tile that woke
  // it, so neighbours stay together and a contiguous share of the list
  // (what each thread steps) is a region of the world, whose tiles and wake
  // records stay in one core's cache. In slot order, tiles made at the same
  // time (a growing front's inner and outer rows) were split between the
  // threads, and the rows they share crossed between cores every generation.
  std::span<const int32_t> active() const { return active_; }
  // The bands of active()[i] to step; the others already hold their next
  // generation in commit_target(i) (their inputs have not changed in the
  // last two generations), so a kernel may leave them as they are.
  std::span<const BandMask> active_bands() const { return active_bands_; }
  // The tile in `slot` and its eight neighbours at the current generation,
  // as at[dy + 1][dx + 1]; absent neighbours point at an empty tile.
  void neighbourhood(int32_t slot, const Tile* (&at)[3][3]) const {
    map_.neighbourhood(current_parity(), slot, at);
  }
  // Records the next generation of active()[index]. Calls for distinct
  // indices may run concurrently (each writes only its own slot and sets
  // wake flags).
  void commit(size_t index, const Tile& next);
  // The buffer holding generation t-1 of active()[index], which the next
  // generation replaces; it never aliases a tile neighbourhood() hands out.
  Tile* commit_target(size_t index) { return &map_.tile(current_parity() ^ 1, active_[index]); }
  // commit() for a tile whose next generation is already in
  // commit_target(index); `change` compares it with what it overwrote.
  void commit_written(size_t index, const TileChange& change);
  // commit_written() of active()[first + i] with changes[i], for each i: a
  // kernel batch's commits in one call.
  void commit_written(size_t first, std::span<const TileChange> changes);
  // Moves to the next generation after every active tile is committed:
  // creates and frees tiles and plans the next active list.
  void finish_generation();
  // With nothing active the world repeats with period 1 or 2; jumps ahead.
  void advance_asleep(uint64_t generations);

  // Blocks: a busy torus stepped several generations per pass over memory
  // (the engine's TorusBlocks), every tile at every generation, so that no
  // tile sleeps within a block. Between begin_block(n) and the
  // finish_generation() that ends it, the caller writes generations t+1 ..
  // t+n of every tile into its buffers by parity, as a generation at a time
  // would; notes generation t+n-1 of each tile with note_written() and
  // commits generation t+n with commit_written(index, change), the index
  // being the tile's place in torus_slots() and the change comparing t+n
  // with t+n-2. Planning then wakes all that a generation at a time would
  // have, and a little more: a whole tile's change notes are kept by band,
  // where a tile stepped a few bands at a time keeps them by row.
  //
  // Whether the world is one for blocks: a torus whose tiles the CPU
  // steps, with nearly all of them active.
  bool suits_blocks() const;
  // The torus's tiles in row-major order (tile x fastest, map().tiles_x()
  // a row); empty on the plane.
  std::span<const int32_t> torus_slots() const { return torus_slots_; }
  void begin_block(uint64_t generations);
  // The buffer of `slot` holding the generations of `parity`.
  Tile& buffer(int parity, int32_t slot) { return map_.tile(parity, slot); }
  // Records what neighbours and the population read of `slot`'s generation
  // of `parity`, just written over the one two before it as `change` notes.
  void note_written(int32_t slot, int parity, const TileChange& change);

  // Plane blocks (GridStepper's): a plane world stepped up to
  // kMaxPlaneBlock generations with its listed tiles stepped whole each
  // generation, so that nothing is planned or committed between them:
  // where the active tiles change in most of their bands (a glider stream,
  // a breeder's wake, a spacefiller's fronts) a whole tile costs less than
  // a planned, committed step of the bands it needs. A block lists the
  // tiles active at its start; a sleeping tile joins it in the generation
  // after a listed neighbour's border that it reads changes (from two
  // generations back, as a commit would wake it), and an absent one is made
  // and joins where a live border cell faces it. A listed tile that settles
  // (see settle_block()) leaves the list and sleeps as the others do.
  // Between begin_plane_block() and the finish_generation() that ends the
  // block, the caller steps generations t+1 .. t+n-1 of every tile in
  // active() (its whole neighbourhood(), into its commit_target()), hands
  // the edges it notes to note_block_edges(), which lists the tiles that
  // join at the end of active(), and ends each generation with
  // finish_block_generation() and settle_block(); it then steps and
  // commits generation t+n as usual. No tile is freed inside a block, and
  // planning after it wakes what a generation at a time would.
  static constexpr uint64_t kMaxPlaneBlock = 63;
  // How many tiles a plane block would list from here (0 where the world
  // allows none: a torus, or GPU tiles), for the caller to weigh against
  // the active tiles' steps.
  size_t plane_block_size() const;
  // Of the tiles stepped in the last generation, those whose cells changed
  // (from two generations back). Where the active tiles are many more, most
  // were woken by a neighbour and will sleep after a step, as the tiles
  // beside a strip's imports do: a block would step them whole, twice or
  // more.
  size_t changed_last_generation() const { return changed_last_; }
  // Lists the active tiles, all bands, for a block of `generations`.
  void begin_plane_block(uint64_t generations);
  // Inside a plane block, the index in active() of the tile in `slot`, or
  // -1 where the block does not list it.
  int32_t block_index(int32_t slot) const {
    return static_cast<size_t>(slot) < block_place_.size() ? block_place_[slot] - 1 : -1;
  }
  // After active()[first + i] has been stepped one generation, noting
  // edges[i]: lists at the end of active() the sleeping tiles whose facing
  // border changed and the absent tiles a live border cell faces (made
  // awake, empty as absent tiles are). Records what
  // neighbours read of each (its summaries) where `keep_summaries` says:
  // committing and planning read them of the generation before the
  // block's last.
  void note_block_edges(size_t first, std::span<const TileEdges> edges, bool keep_summaries);
  // Between generations of a block: takes off the list the tiles that
  // settled, which a generation at a time would put to sleep: each
  // unchanged from two generations back in its last two steps, holding a
  // live cell (an empty tile stays listed, to be freed when the block
  // ends), and no listed neighbour's facing border changed in the last
  // generation. The last listed tile takes the place of each in active();
  // returns those moves, (from, to) by index, in order, for a caller
  // keeping arrays by index. A tile taken off joins again as a sleeping
  // tile would.
  std::span<const std::pair<uint32_t, uint32_t>> settle_block();
  // Of the tiles the last settle_block() took off the list, those that now
  // share a pair with their likes, as dense tiles (maybe part of an agar)
  // falling asleep after a generation at a time do: their pairs moved, so
  // their listed neighbours must find their neighbourhoods again.
  std::span<const int32_t> block_moved_pairs() const { return block_moved_pairs_; }
  // After every tile listed when the generation began has been stepped and
  // noted: moves to the next generation. (Where a tile beyond the plane's
  // edge was faced, and the stepper may stop the run here, every summary
  // is brought up to date.)
  void finish_block_generation();

  // The tiles beyond the plane's range (kMaxTileCoordinate) that a live
  // border cell has faced since load() or the last clear_beyond_edge():
  // absent neighbours that could not be created. Whether the next
  // generation would bear cells there needs the rule, so the stepper
  // checks them before stepping; a cell born there must never be dropped.
  std::span<const TileCoord> beyond_edge() const { return beyond_edge_; }
  void clear_beyond_edge() { beyond_edge_.clear(); }
  // neighbourhood() for a tile that is not held (such as one beyond the
  // edge): the tiles around `coord` at the current generation, empty where
  // absent.
  void neighbourhood_at(TileCoord coord, const Tile* (&at)[3][3]) const;

  // The slot of the tile at `coord`, created (empty, CPU-owned, awake) on
  // the plane if absent. kAbsent beyond the plane's range.
  int32_t ensure_tile(TileCoord coord);
  TileOwner owner(int32_t slot) const { return owners_[slot]; }
  // A tile handed back to the CPU wakes.
  void set_owner(int32_t slot, TileOwner owner);
  // Overwrites a tile with generations t (`current`) and t-1 (`previous`)
  // stepped elsewhere, as if it had been stepped here: the tile wakes, each
  // neighbour whose facing border now differs from what the slot held at
  // either generation wakes (its sleep assumed the old border), and on the
  // plane absent neighbours facing a live border cell are created. A tile
  // equal to what the slot holds at both generations changes nothing (a
  // quiet ghost coming back); returns whether the tile differed.
  bool import_tile(int32_t slot, const Tile& current, const Tile& previous);
  // Rebuilds the active list after ownership changes and imports: the tiles
  // active or woken, less the GPU's.
  void replan();
  // replan() after imports alone, since the last generation or plan: only
  // the active tiles and the imported ones with their neighbours can be
  // awake, so only they are looked at (replan() scans every slot).
  void replan_near(std::span<const int32_t> imported);
  // Whether planning lists the tiles to step in slot order, from the next
  // plan on, or (by default) each tile woken after the first tile that woke
  // it. Tiles made together take neighbouring slots, so their records,
  // links and pairs lie together, and a pass in slot order walks memory
  // forwards: the spacefiller took 3-5% less time so on one thread, and
  // 0-7% on two, by the host's spell (bench/RESULTS.md). But where tiles
  // are freed and made again, slots of far apart regions interleave, and
  // a pass shared among threads then hands each thread parts of every
  // region: the order woken keeps each region's tiles together.
  void list_by_slot(bool on) { list_by_slot_ = on; }
  // Slot order starts once this many tiles are listed, and stops below
  // half as many: a few tiles are in cache whatever their order, and the
  // merge's fixed cost a generation then shows (the puffer train, 2
  // threads, 3.5% slower in slot order).
  static constexpr size_t kSlotOrderTiles = 256;

  // Strips (GridStepper's): the plane cut along tile columns into strips,
  // each a grid stepped by its own thread for an epoch of up to
  // kMaxStripEpoch generations between exchanges. A strip owns columns
  // [first, last] and, beside each end, holds the next kStripGhostColumns
  // columns as ghosts (stepped, never freed) and the one after as frozen
  // copies (TileOwner::kFrozen: never stepped, standing still as the
  // hybrid's GPU tiles do), and makes no tile beyond. Ghost and frozen
  // columns exact at an epoch's start keep the owned columns exact for
  // 64 * kStripGhostColumns - 1 generations: what differs from the true
  // world (the frozen tiles standing still, nothing beyond) travels a cell
  // a generation and crosses the ghosts' columns only after that. The
  // frozen column keeps still and period-2 neighbours from eroding the
  // ghosts, which would then never sleep.
  //
  // Two ghost columns, not one: the strips meet at every epoch's end, and
  // each waits there for the slower; twice as long an epoch halves those
  // waits (the spacefiller on two threads: epochs of 31, 63 and 127
  // generations, bench/RESULTS.md), for one more column of ghosts a side.
  static constexpr int64_t kStripGhostColumns = 2;
  // The columns beside each end of a strip: its ghosts and frozen copies.
  static constexpr int64_t kStripEdgeColumns = kStripGhostColumns + 1;
  static constexpr uint64_t kMaxStripEpoch = kStripGhostColumns * kTileSize - 1;
  static constexpr int64_t kNoColumnLimit = kMaxTileCoordinate;
  // Empties the grid and makes it a plane at `generation`, to be filled
  // by place_tile(): the strip of columns [first, last] (-kNoColumnLimit or
  // kNoColumnLimit - 1 for no end; at least kStripEdgeColumns columns), or by default
  // the whole plane. Tiles made in the ghost and frozen columns take those
  // roles, and none is made beyond.
  void start_empty_plane(uint64_t generation, int64_t first = -kNoColumnLimit,
                         int64_t last = kNoColumnLimit - 1);
  // Hands every tile to visit(coord, current, previous, owner, bands), the
  // highest slot first (`bands`: those it steps next, 0 asleep), freeing
  // each and returning each slab to the system as it empties, so that tiles
  // visit() moves elsewhere are never all held twice; then empties the grid
  // as start_empty_plane() does. Call between generations, after planning.
  using TileMover = std::function<void(TileCoord, const Tile&, const Tile&, TileOwner, BandMask)>;
  void drain(const TileMover& visit);
  // Puts in a tile drained from another grid at the same generation, as it
  // was there: both generations, stepping `bands` next (asleep if none).
  // Unlike import_tile(), it wakes nothing else and makes no neighbour: a
  // world moved whole brings its own. A dense tile placed asleep shares its
  // pair (share_if_asleep()). Replan once all are in. Returns its slot, or
  // kAbsent beyond a strip's frozen columns.
  int32_t place_tile(TileCoord coord, const Tile& current, const Tile& previous, BandMask bands);
  // Moves the strip's owned columns to [first, last] between epochs (a cut
  // moved by GridStepper): tiles beyond the new ghost and frozen columns
  // go, and those in the ends' columns take their new roles. A frozen tile
  // that steps again wakes (it stood still, its wake records ignored), as
  // does one the CPU now owns (set_owner()); other tiles keep their sleep,
  // which their new roles leave valid.
  // Returns the tiles woken. The caller then brings in, from the
  // neighbour, what the strip newly owns, ghosts and freezes, and replans
  // near those tiles.
  std::vector<int32_t> set_strip_columns(int64_t first, int64_t last);
  // Makes a strip the whole plane again: its ghost and frozen tiles go,
  // its own keep their state; the other strips' tiles then come in by
  // adopt(), and replan() follows.
  void end_strip();
  // Takes in every tile of `other`, a strip at the same generation after
  // end_strip() whose columns none here overlaps, where they lie in memory,
  // with the steps it planned; `other` is left an empty plane. Replan once
  // all are in.
  void adopt(SparseGrid& other);
  int64_t strip_first() const { return strip_first_; }
  int64_t strip_last() const { return strip_last_; }
  // A strip's held tiles in columns [first, last]: how many, and which in
  // no set order (a strip keeps them by column; a whole plane does not).
  // Either costs the columns in the range or the columns held, the fewer.
  size_t column_tile_count(int64_t first, int64_t last) const;
  std::vector<int32_t> column_tiles(int64_t first, int64_t last) const;
  // The generation (counted from 1) in which `slot` last changed (differed
  // from two generations before) or was made; 0 if never since load().
  uint64_t changed_in(int32_t slot) const { return map_.changed_in(slot); }
  // Marks `slot` changed now, between generations, for a change made to
  // it from outside (GliderFlights) that a strip's exchange must take
  // into its neighbours' copies.
  void note_changed(int32_t slot) { map_.changed_in(slot) = generation_ + 1; }
  // A strip's own tiles freed in the kStripEdgeColumns columns at each of
  // its ends (those its neighbours ghost and freeze) since the last
  // clear_freed_near_ends(): what an exchange must empty on the other side
  // though no tile held there changed.
  std::span<const TileCoord> freed_near_ends() const { return freed_near_ends_; }
  void clear_freed_near_ends() { freed_near_ends_.clear(); }

  // Every tile as held here: GPU tiles as of their last import.
  uint64_t population() const;
  CellSet cells() const;
  // The world's reads, over only the tiles the CPU owns: a hybrid's ghosts
  // are the GPU's, and a strip's ghost and frozen columns its neighbours'.
  uint64_t cpu_population() const;
  CellSet cpu_cells() const;
  // cpu_cells().bbox() without the copy.
  std::optional<BBox> cpu_bbox() const;
  // The box of all `parts`' cpu_cells() (a world held in strips), reading
  // the cells of only the tiles on the sides of the box around all their
  // tiles: not those on each strip's own sides (its cut column, the
  // height of the world).
  static std::optional<BBox> cpu_bbox_of(std::span<const SparseGrid* const> parts);
  // Calls visit(coord, tile) for each tile of cpu_cells() holding a live
  // cell, in slot order, without the copy.
  void visit_cpu_tiles(const std::function<void(TileCoord, const Tile&)>& visit) const;
  // visit_cpu_tiles() of share `share` of `shares` (each a contiguous run
  // of the held tiles): the shares together visit each tile once, and
  // distinct shares may be visited concurrently.
  void visit_cpu_tiles_share(size_t share, size_t shares,
                             const std::function<void(TileCoord, const Tile&)>& visit) const;
  size_t cpu_tile_count() const { return map_.size() - tiles_not_cpu_; }
  // The listed tiles that are the CPU's: a strip also steps its ghost
  // columns, which the strip beside it counts as its own.
  size_t cpu_active_count() const;
  size_t tile_count() const { return map_.size(); }
  // How many tiles it holds before its coordinate index grows (the tables
  // by slot grow about then too), and room for `tiles` tiles in all of
  // them at once.
  size_t tile_room() const { return map_.room(); }
  void reserve_tiles(size_t tiles);
  // Whether every tile is the CPU's (no GPU tiles or ghosts).
  bool all_cpu() const { return tiles_not_cpu_ == 0; }
  const TileMap& map() const { return map_; }

 private:
  // What commit() learnt about one stepped tile, for finish_generation().
  struct Outcome {
    uint8_t create = 0;      // directions whose absent neighbour must be created
    uint8_t maybe_free = 0;  // empty now and one generation back
    uint8_t woke = 0;        // directions of the neighbours it handed bands to
    uint8_t dense = 0;       // a live cell in every column: maybe part of an agar
    uint8_t changed = 0;     // differs from two generations back
  };

  int current_parity() const { return static_cast<int>(generation_ & 1); }
  // Marks every band of `slot` to step next generation (between generations).
  void wake(int32_t slot);
  // commit_written() of one tile, inlined into both of its forms.
  void commit_one(size_t index, const TileChange& change);
  // The bands `slot` steps next generation; clears its wake record.
  BandMask take_wake(int32_t slot);
  // take_wake(), but none for a tile that stands still (stepped elsewhere):
  // what planning lists.
  BandMask take_bands_to_step(int32_t slot);
  // Whether `slot` has bands to step next generation (keeps the record).
  bool has_wake(int32_t slot) const;
  // Shares the pair of a dense tile just stepped (Outcome::dense) if it
  // falls asleep now (TileMap::share): an agar's tiles are alike.
  void share_if_asleep(int32_t slot);
  // Gives every listed tile whose pair is shared one of its own, so that
  // stepping may write it.
  void own_listed_pairs();
  void create_neighbours(int32_t slot, uint8_t directions);
  bool shows_live_border(int32_t slot) const;
  void plan_from_wake_flags(size_t previous_count);
  // plan_from_wake_flags() under list_by_slot().
  void plan_in_slot_order(size_t previous_count);
  // Lists next_active_ (with next_bands_, in slot order where
  // `listed_in_order` says so) and woken_ (in any order) as active_, in
  // slot order.
  void list_in_slot_order(bool listed_in_order);
  // visit(slot) for each neighbour that active_[i]'s step handed bands to
  // or made (outcomes_[i]).
  template <typename Visit>
  void for_each_woken_neighbour(size_t i, Visit visit) const;
  // The active list from the wake flags of the slots `visit_candidates`
  // hands to its argument (take(slot)), in the order first visited.
  template <typename VisitCandidates>
  void plan_from_candidates(VisitCandidates visit_candidates);
  // Picks how the next generation's planning finds the woken slots (which
  // commits must then record), from the active tiles and the slots.
  void choose_next_plan();
  void plan_by_scan();
  void load_plane(const CellSet& cells);
  void load_plane(CellSet&& cells);
  // The parts of a plane load around copying the tiles in: an empty map
  // with room for them, one tile placed (its slot noted in `loaded`), and
  // the absent neighbours a live border cell faces created.
  void begin_plane_load(size_t pattern_tiles);
  void place_loaded(TileCoord coord, const Tile& tile, std::vector<int32_t>& loaded);
  void create_load_ring(std::span<const int32_t> loaded);
  // Either load(): `cells` copied, or taken apart on the plane.
  template <typename Cells>
  void load_cells(Cells&& cells, const Topology& topology, bool keep_all_active);
  // What every load ends with: the history and the first active list.
  void finish_load(bool keep_all_active);
  // Throws RuntimeError (exit 4) before anything is allocated when the grid
  // for `cells` on `topology` would not fit the memory budget.
  static void check_load_memory(const CellSet& cells, const Topology& topology);
  void fit_slot_arrays();
  int32_t create_awake(TileCoord coord, TileMap::Beside beside = TileMap::kBesideNone);
  // create_awake() of the plane tile in `direction` from the held `slot`.
  int32_t create_beside(int32_t slot, int direction);
  // A strip's tile made in, or freed from, column `tx`.
  void add_to_column(int32_t slot, int64_t tx);
  void remove_from_column(int32_t slot);  // no-op on a whole plane
  // Takes the active tiles for which unlist(slot) holds off the list.
  template <typename Unlist>
  void unlist_active_if(Unlist unlist);
  // visit(slots) for each column of [first, last] holding tiles.
  template <typename Visit>
  void for_each_column(int64_t first, int64_t last, Visit visit) const;
  // Frees a held tile whatever it holds, with its wake records and role.
  void drop_tile(int32_t slot);
  // Of a strip's columns: the ghost and frozen ones beyond its ends.
  bool in_strip_edge(int64_t tx) const {
    return (tx >= strip_first_ - kStripEdgeColumns && tx < strip_first_) ||
           (tx > strip_last_ && tx <= strip_last_ + kStripEdgeColumns);
  }
  TileOwner strip_owner(int64_t tx) const {
    if (tx == strip_first_ - kStripEdgeColumns || tx == strip_last_ + kStripEdgeColumns) {
      return TileOwner::kFrozen;
    }
    return in_strip_edge(tx) ? TileOwner::kGhost : TileOwner::kCpu;
  }
  template <typename Visit>
  void for_each_nonempty(bool cpu_only, Visit visit) const;
  // Whether the CPU's tiles are those of columns [strip_first_,
  // strip_last_] (all tiles, but a strip's edge columns), so that the
  // map's kept lines find their box; not beside a hybrid's GPU regions.
  bool cpu_tiles_by_columns() const { return tiles_not_cpu_ == 0 || counting_columns_; }
  // cpu_bbox() by a pass over every tile, where the owners are mixed.
  std::optional<BBox> scanned_cpu_bbox() const;
  // for_each_nonempty() over map_.held()[first, end).
  template <typename Visit>
  void for_each_nonempty_in(size_t first, size_t end, bool cpu_only, Visit visit) const;
  // visit(slot) for the same tiles.
  template <typename Visit>
  void for_each_nonempty_slot_in(size_t first, size_t end, bool cpu_only, Visit visit) const;
  // population() or cpu_population(), from the tiles' kept counts.
  uint64_t counted_population(bool cpu_only) const;
  void load_torus(const CellSet& cells, const Topology& topology);

  TileMap map_;
  uint64_t generation_ = 0;
  bool keep_all_active_ = false;
  std::vector<int32_t> active_;
  std::vector<Outcome> outcomes_;       // by index into active_
  bool gather_next_ = false;            // see choose_next_plan()
  std::vector<BandMask> active_bands_;  // by index into active_
  std::vector<int32_t> next_active_;    // active_ being planned
  std::vector<BandMask> next_bands_;    // active_bands_ being planned
  // A tile planning lists, and the bands it steps.
  struct Planned {
    int32_t slot;
    BandMask bands;
  };
  std::vector<Planned> woken_;  // planned tiles to merge into next_active_
  bool list_by_slot_ = false;   // see list_by_slot()
  bool in_slot_order_ = false;  // see kSlotOrderTiles
  // Wake records, by slot: the bands to step next generation, as the
  // contributions commits store in parallel without atomics.
  // from_neighbours_[slot][d] is written only by the neighbour in
  // direction d (the empty slot's by every tile with an absent neighbour,
  // and never read); from_self_[slot] by the tile itself, or between
  // generations. Planning ORs and clears them.
  PopulatedVector<std::array<BandMask, kDirections>> from_neighbours_;
  PopulatedVector<BandMask> from_self_;
  PopulatedVector<TileOwner> owners_;   // by slot
  size_t tiles_not_cpu_ = 0;            // slots whose owner is not kCpu
  std::vector<int32_t> torus_slots_;    // see torus_slots()
  std::vector<TileCoord> beyond_edge_;  // see beyond_edge()
  // The strip's owned columns (see start_empty_plane()), and while a strip
  // its held tiles by column, with each slot's place in its column's list.
  int64_t strip_first_ = -kNoColumnLimit;
  int64_t strip_last_ = kNoColumnLimit - 1;
  bool counting_columns_ = false;
  std::unordered_map<int64_t, std::vector<int32_t>> column_slots_;
  PopulatedVector<int32_t> column_place_;   // by slot
  std::vector<TileCoord> freed_near_ends_;  // see freed_near_ends()
  // Notes a strip's own tile about to be freed, where freed_near_ends() asks.
  void note_freed(int32_t slot);
  // In a plane block, by index into active_: the live cells of a tile's
  // first and last rows and of its OR of rows that face an absent
  // neighbour, and the directions of its held neighbours not listed
  // (asleep), which a change of the facing border wakes; and what
  // settle_block() reads: the tile's steps in a row that left it unchanged
  // (up to 2) and live, and the directions whose facing border its last
  // step changed.
  struct BorderWatch {
    uint64_t top = 0, bottom = 0, columns = 0;
    uint8_t unlisted = 0;
    uint8_t quiet = 0;
    uint8_t changed = 0;
  };
  std::vector<BorderWatch> block_watch_;
  // The indices of the tiles whose last two steps left them unchanged and
  // live, noted by note_block_edges() for settle_block(); what it took off
  // and moved.
  std::vector<size_t> block_settling_;
  std::vector<int32_t> block_settled_slots_;
  std::vector<int32_t> block_moved_pairs_;
  std::vector<std::pair<uint32_t, uint32_t>> block_moves_;
  // Whether a listed neighbour's facing border changed in the last
  // generation of the block.
  bool disturbed_in_block(int32_t slot) const;
  // watch_borders() again for the listed neighbours of `slot`, which has
  // joined or left the block.
  void rewatch_listed_around(int32_t slot);
  // By slot: 1 + the tile's index in active_ while a plane block lists
  // it, else 0.
  PopulatedVector<int32_t> block_place_;
  bool in_plane_block_ = false;
  size_t changed_last_ = 0;
  void watch_borders(size_t index);
  // Lists a held tile in the plane block from the next generation on.
  void list_in_block(int32_t slot);
  void end_plane_block();
  bool allows_plane_blocks() const;
};

}  // namespace gol::sparse
