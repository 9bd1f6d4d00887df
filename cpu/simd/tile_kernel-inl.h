// The adder-tree tile step, written once over a vector-ops policy and
// compiled per instruction set (Highway targets, the xsimd back end).
//
// Include it with GOL_SIMD_NAMESPACE defined as the namespace to put the
// kernel in; for Highway that is HWY_NAMESPACE, between
// HWY_BEFORE_NAMESPACE() and HWY_AFTER_NAMESPACE(), so each target gets its
// own copy compiled with that target's instructions.
//
// Layout: a vector holds kLanes consecutive rows of a tile, one row per
// 64-bit lane, so a tile is 64 / kLanes row blocks. Horizontal neighbours
// are in-lane shifts with the west/east tile's facing column shifted in.
// Vertical neighbours come from the neighbouring row blocks: the policy's
// RowsAbove/RowsBelow join two blocks into the block shifted by one row, and
// the north/south tiles supply the block before the first and after the last.
//
// The policy `Ops` (static members only) provides:
//   V, kLanes                the vector type and its number of uint64_t lanes
//   kTernaryLogic            whether any 3-input boolean function is one op
//   kFunnelShift             whether it has one-op funnel shifts, and then:
//   ShiftInWest(row, west)   row << 1 with bit 0 from west's bit 63, per lane
//   ShiftInEast(row, east)   row >> 1 with bit 63 from east's bit 0, per lane
//   Load, Store              unaligned, from/to uint64_t*
//   Zero, Not, And, Or, Xor, AndNot(a, b) = ~a & b
//   ShiftLeft<k>, ShiftRight<k>   within each 64-bit lane
//   Xor3, Majority, OrAnd(a, b, c) = a | (b & c),
//   XorAndNot(a, b, c) = (a ^ b) & ~c, AndOr(a, b, c) = a & (b | c)
//   RowsAbove(prev, cur)     the rows one above cur's: prev's last, then cur's
//                            but its last
//   RowsBelow(cur, next)     the rows one below cur's
//   AllZero(v)               whether every bit of v is 0
//   OrLanes(v)               the OR of v's lanes
//   ZeroLanes(v)             uint64_t with bit i set where lane i is zero
//   EdgeLanes(v)             uint64_t with bit i set where lane i has bit 0 or
//                            bit 63 set (kEdgeColumns)

// Per-target include guard, as Highway's -inl.h headers do: re-included once
// per target when HWY_TARGET_TOGGLE flips, once in total otherwise.
#if defined(GOL_CPU_SIMD_TILE_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GOL_CPU_SIMD_TILE_KERNEL_INL_H_
#undef GOL_CPU_SIMD_TILE_KERNEL_INL_H_
#else
#define GOL_CPU_SIMD_TILE_KERNEL_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "cpu/simd/tile_step_backends.h"
#include "engine/core/rule.h"
#include "engine/core/tile.h"

namespace gol::cpu::GOL_SIMD_NAMESPACE {

// Neighbour counts of one row block, split as the adder tree leaves them:
// the three rows above and below each contribute a 2-bit sum (0..3) and the
// row itself, without the cell, a 2-bit sum of its west and east cells.
template <class V>
struct BlockCounts {
  V north_ones, north_twos;  // bit 0 and bit 1 of the 3-cell sum above
  V pair_ones, pair_twos;    // west + east in the cell's own row
  V south_ones, south_twos;  // the 3-cell sum below
  V alive;
};

// Horizontal sums of one row block: the 3-cell sum (west, self, east) used
// by the rows above and below, and the 2-cell sum (west, east) used by the
// row itself.
template <class V>
struct RowSums {
  V three_ones, three_twos;
  V pair_ones, pair_twos;
  V alive;
};

// Horizontal sums of a row block given its rows and the rows of the west and
// east tiles beside it.
template <class Ops, class V>
[[gnu::always_inline]] inline RowSums<V> SumRows(V row, V west_tile_rows, V east_tile_rows) {
  // Cell i's west neighbour is bit i - 1 (bit 0's is the west tile's bit 63);
  // its east neighbour is bit i + 1 (bit 63's is the east tile's bit 0).
  RowSums<V> sums;
  if constexpr (Ops::kFunnelShift) {
    // Each shift brings the neighbour tile's facing bit in: four ops where
    // the shifts and ORs below take seven.
    const V west_cells = Ops::ShiftInWest(row, west_tile_rows);
    const V east_cells = Ops::ShiftInEast(row, east_tile_rows);
    sums.pair_ones = Ops::Xor(west_cells, east_cells);
    sums.pair_twos = Ops::And(west_cells, east_cells);
  } else {
    const V shifted_west = Ops::template ShiftLeft<1>(row);
    const V shifted_east = Ops::template ShiftRight<1>(row);
    const V from_west_tile = Ops::template ShiftRight<63>(west_tile_rows);
    const V from_east_tile = Ops::template ShiftLeft<63>(east_tile_rows);
    if constexpr (Ops::kTernaryLogic) {
      // The shifts leave zero the bits the neighbour tiles fill, so both
      // incoming bits travel in one word and west + east is one full adder:
      // one op fewer where a full adder is two ternary-logic ops.
      const V edges = Ops::Or(from_west_tile, from_east_tile);
      sums.pair_ones = Ops::Xor3(shifted_west, shifted_east, edges);
      sums.pair_twos = Ops::Majority(shifted_west, shifted_east, edges);
    } else {
      const V west_cells = Ops::Or(shifted_west, from_west_tile);
      const V east_cells = Ops::Or(shifted_east, from_east_tile);
      sums.pair_ones = Ops::Xor(west_cells, east_cells);
      sums.pair_twos = Ops::And(west_cells, east_cells);
    }
  }
  // The 3-cell sum from the pair sum.
  sums.three_ones = Ops::Xor(sums.pair_ones, row);
  sums.three_twos = Ops::OrAnd(sums.pair_twos, row, sums.pair_ones);
  sums.alive = row;
  return sums;
}

template <class Ops>
[[gnu::always_inline]] inline RowSums<typename Ops::V> SumRows(const uint64_t* west,
                                                               const uint64_t* centre,
                                                               const uint64_t* east) {
  return SumRows<Ops>(Ops::Load(centre), Ops::Load(west), Ops::Load(east));
}

// B3/S23: with the count written as ones + 2 * (carry + twos) + 4 * fours,
// a cell lives iff carry + twos == 1, fours == 0 and (ones or alive).
struct ConwayLogic {
  template <class Ops, class V>
  [[gnu::always_inline]] inline V Next(const BlockCounts<V>& c) const {
    const V ones = Ops::Xor3(c.north_ones, c.pair_ones, c.south_ones);
    const V carry = Ops::Majority(c.north_ones, c.pair_ones, c.south_ones);
    const V twos = Ops::Xor3(c.north_twos, c.pair_twos, c.south_twos);
    const V fours = Ops::Majority(c.north_twos, c.pair_twos, c.south_twos);
    const V two_or_three = Ops::XorAndNot(twos, carry, fours);
    return Ops::AndOr(two_or_three, ones, c.alive);
  }
};

// Any rule: the count as four bit planes, then the birth and survival sets
// as unions of the counts they contain.
class GenericLogic {
 public:
  explicit GenericLogic(const Rule& rule) : birth_(rule.birth), survival_(rule.survival) {}

  template <class Ops, class V>
  [[gnu::always_inline]] inline V Next(const BlockCounts<V>& c) const {
    const V bit0 = Ops::Xor3(c.north_ones, c.pair_ones, c.south_ones);
    const V carry = Ops::Majority(c.north_ones, c.pair_ones, c.south_ones);
    const V twos = Ops::Xor3(c.north_twos, c.pair_twos, c.south_twos);
    const V fours = Ops::Majority(c.north_twos, c.pair_twos, c.south_twos);
    const V bit1 = Ops::Xor(twos, carry);
    const V carry4 = Ops::And(twos, carry);
    const V bit2 = Ops::Xor(fours, carry4);
    const V bit3 = Ops::And(fours, carry4);  // count 8: the lower bits are 0
    // Counts 0..3 and 4..7 by their low two bits; count 8 is bit3 alone.
    const V low[4] = {Ops::Not(Ops::Or(bit0, bit1)), Ops::AndNot(bit1, bit0),
                      Ops::AndNot(bit0, bit1), Ops::And(bit0, bit1)};
    const V below4 = Ops::Not(Ops::Or(bit2, bit3));
    const V born = Matching<Ops>(birth_, low, below4, bit2, bit3);
    const V survives = Matching<Ops>(survival_, low, below4, bit2, bit3);
    return Ops::Or(Ops::AndNot(c.alive, born), Ops::And(c.alive, survives));
  }

 private:
  // Cells whose count is in `counts` (bit n set: count n).
  template <class Ops, class V>
  static V Matching(uint16_t counts, const V (&low)[4], V below4, V four_to_7, V eight) {
    V under4 = Ops::Zero();
    V from4 = under4;
    for (int n = 0; n < 4; ++n) {
      if ((counts >> n) & 1u) under4 = Ops::Or(under4, low[n]);
      if ((counts >> (n + 4)) & 1u) from4 = Ops::Or(from4, low[n]);
    }
    V match = Ops::Or(Ops::And(under4, below4), Ops::And(from4, four_to_7));
    if ((counts >> 8) & 1u) match = Ops::Or(match, eight);
    return match;
  }

  uint16_t birth_;
  uint16_t survival_;
};

// Where a tile's result goes: stored as it is.
template <class Ops>
struct StoreRows {
  using V = typename Ops::V;
  uint64_t* rows;

  [[gnu::always_inline]] void Put(V next, size_t block) {
    Ops::Store(next, rows + block * Ops::kLanes);
  }
};

// Stored over an older generation, noting what the neighbours read of the
// new tile and which columns and border rows differ from the older one.
template <class Ops>
struct StoreAndNoteEdges {
  using V = typename Ops::V;
  uint64_t* rows;
  uint64_t old_top = rows[0];
  uint64_t old_bottom = rows[kTileSize - 1];
  V live = Ops::Zero();
  V changed = Ops::Zero();

  [[gnu::always_inline]] void Put(V next, size_t block) {
    live = Ops::Or(live, next);
    changed = Ops::Or(changed, Ops::Xor(next, Ops::Load(rows + block * Ops::kLanes)));
    Ops::Store(next, rows + block * Ops::kLanes);
  }

  TileEdges Edges() const {
    return {rows[0],
            rows[kTileSize - 1],
            Ops::OrLanes(live),
            rows[0] ^ old_top,
            rows[kTileSize - 1] ^ old_bottom,
            Ops::OrLanes(changed)};
  }
};

// Row blocks (one vector each) per band of the sparse world's band masks.
template <class Ops>
inline constexpr size_t kBlocksPerBand = kBandRows / Ops::kLanes;

// How finely a stepped tile's unchanged rows are noted: row by row where
// few bands are stepped (a glider inside a band then wakes that band
// alone), band by band where the whole tile is (a compare and a mask
// extraction a block would cost a dense tile about 8%).
enum class RowNotes { kEachRow, kEachBand };

// Stored over an older generation, noting how they differ while the rows
// are in registers (what sleep and wake decisions need). Blocks not stepped
// keep what they hold and are only read (Keep), for the live columns.
// Few vectors stay live across blocks (with 16 registers, AVX2 spills every
// extra one), so the first and last rows' changes are stored at once and
// unchanged rows go into a bit mask as each block or band ends.
template <class Ops, RowNotes kNotes>
struct StoreAndCompareRows {
  using V = typename Ops::V;
  static constexpr size_t kLanes = Ops::kLanes;
  static constexpr size_t kBlocks = kTileSize / kLanes;
  uint64_t* rows;
  // What the new rows are compared with: `rows` itself where they replace
  // it, or another tile's (StepTileTwice: generation t+2 against t).
  const uint64_t* before;
  V changed = Ops::Zero();
  V live = Ops::Zero();
  V band_change = Ops::Zero();     // kEachBand: the current band's
  uint64_t unchanged_rows = 0;     // bit r: row r equals what it replaced
  uint32_t unchanged_bands = 0;    // kEachBand: bit b: every row of band b does
  uint64_t edge_changed_rows = 0;  // bit r: row r's column 0 or 63 differs
  uint64_t first_change[kLanes] = {};
  uint64_t last_change[kLanes] = {};

  [[gnu::always_inline]] void Put(V next, size_t block) {
    const V change = Ops::Xor(next, Ops::Load(before + block * kLanes));
    changed = Ops::Or(changed, change);
    live = Ops::Or(live, next);
    if (block == 0) Ops::Store(change, first_change);
    if (block + 1 == kBlocks) Ops::Store(change, last_change);
    // Which rows of the edge columns changed decides which bands of the
    // west and east neighbours wake: a front crossing a tile diagonally
    // changes every band but its edge columns in one or two. Both columns
    // are noted in one test (see Summary).
    edge_changed_rows |= Ops::EdgeLanes(change) << (block * kLanes);
    if constexpr (kNotes == RowNotes::kEachRow) {
      unchanged_rows |= Ops::ZeroLanes(change) << (block * kLanes);
    } else {
      band_change = Ops::Or(band_change, change);
      if (block % kBlocksPerBand<Ops> == kBlocksPerBand<Ops> - 1) {
        const size_t band = block / kBlocksPerBand<Ops>;
        // Arithmetic, not a branch: with a test and a store a band, GCC
        // threaded the eight tests into a table of every outcome's rows
        // (xsimd's AVX2 copy took 1.4 times Highway's for the same code).
        unchanged_bands |= static_cast<uint32_t>(Ops::AllZero(band_change)) << band;
        band_change = Ops::Zero();
      }
    }
    Ops::Store(next, rows + block * kLanes);
  }

  [[gnu::always_inline]] void Keep(size_t block) {
    live = Ops::Or(live, Ops::Load(rows + block * kLanes));
  }

  TileChange Summary() const {
    TileChange summary;
    summary.changed_columns = Ops::OrLanes(changed);
    summary.live_columns = Ops::OrLanes(live);
    summary.top_change = first_change[0];
    summary.bottom_change = last_change[kLanes - 1];
    summary.top_row = rows[0];
    summary.bottom_row = rows[kTileSize - 1];
    summary.unchanged_rows = unchanged_rows | rows_of_bands(static_cast<BandMask>(unchanged_bands));
    // A column that changed nowhere is unchanged in every row; one that
    // did is taken to have changed wherever either edge column did. That
    // is exact unless both edges change, where a neighbour may wake a band
    // it need not step; one test a row block instead of two saves more.
    summary.west_unchanged_rows =
        (summary.changed_columns & 1) != 0 ? ~edge_changed_rows : ~uint64_t{0};
    summary.east_unchanged_rows =
        (summary.changed_columns >> (kTileSize - 1)) != 0 ? ~edge_changed_rows : ~uint64_t{0};
    return summary;
  }
};

// The nine tiles' row pointers, by tile row (north, middle, south) and
// column (west, centre, east).
struct NeighbourRows {
  const uint64_t* north[3];
  const uint64_t* middle[3];
  const uint64_t* south[3];

  explicit NeighbourRows(const TileNeighbourhood& tiles)
      : north{tiles.at[0][0]->rows.data(), tiles.at[0][1]->rows.data(),
              tiles.at[0][2]->rows.data()},
        middle{tiles.at[1][0]->rows.data(), tiles.at[1][1]->rows.data(),
               tiles.at[1][2]->rows.data()},
        south{tiles.at[2][0]->rows.data(), tiles.at[2][1]->rows.data(),
              tiles.at[2][2]->rows.data()} {}
  // Tile i of a row run.
  NeighbourRows(const TileRowRun& run, size_t i)
      : north{run.north[i]->rows.data(), run.north[i + 1]->rows.data(),
              run.north[i + 2]->rows.data()},
        middle{run.middle[i]->rows.data(), run.middle[i + 1]->rows.data(),
               run.middle[i + 2]->rows.data()},
        south{run.south[i]->rows.data(), run.south[i + 1]->rows.data(),
              run.south[i + 2]->rows.data()} {}
};

// Horizontal sums of the middle tile's row block `block`; block -1 is the
// north tile's last block and kBlocks the south tile's first.
template <class Ops>
[[gnu::always_inline]] inline RowSums<typename Ops::V> SumBlock(const NeighbourRows& rows,
                                                                ptrdiff_t block) {
  constexpr ptrdiff_t kLanes = Ops::kLanes;
  constexpr ptrdiff_t kBlocks = kTileSize / kLanes;
  if (block < 0) {
    constexpr ptrdiff_t kLastBlock = kTileSize - kLanes;
    return SumRows<Ops>(rows.north[0] + kLastBlock, rows.north[1] + kLastBlock,
                        rows.north[2] + kLastBlock);
  }
  if (block == kBlocks) return SumRows<Ops>(rows.south[0], rows.south[1], rows.south[2]);
  const ptrdiff_t row = block * kLanes;
  return SumRows<Ops>(rows.middle[0] + row, rows.middle[1] + row, rows.middle[2] + row);
}

// One row block's next generation from the sums of its rows and of the
// blocks above and below (only their nearest rows are used).
template <class Ops, class Logic, class V>
[[gnu::always_inline]] inline V NextBlock(const Logic& logic, const RowSums<V>& previous,
                                          const RowSums<V>& current, const RowSums<V>& next) {
  BlockCounts<V> counts;
  counts.north_ones = Ops::RowsAbove(previous.three_ones, current.three_ones);
  counts.north_twos = Ops::RowsAbove(previous.three_twos, current.three_twos);
  counts.south_ones = Ops::RowsBelow(current.three_ones, next.three_ones);
  counts.south_twos = Ops::RowsBelow(current.three_twos, next.three_twos);
  counts.pair_ones = current.pair_ones;
  counts.pair_twos = current.pair_twos;
  counts.alive = current.alive;
  return logic.template Next<Ops>(counts);
}

// The whole tile, fully unrolled so the sums stay in registers from one
// block to the next.
template <class Ops, class Logic, class Sink>
[[gnu::always_inline]] inline void StepTile(const NeighbourRows& rows, const Logic& logic,
                                            Sink& sink) {
  using V = typename Ops::V;
  constexpr ptrdiff_t kBlocks = kTileSize / Ops::kLanes;
  static_assert(kTileSize % Ops::kLanes == 0, "row blocks must tile the 64 rows");
  RowSums<V> previous = SumBlock<Ops>(rows, -1);
  RowSums<V> current = SumBlock<Ops>(rows, 0);
#pragma GCC unroll 64
  for (ptrdiff_t block = 0; block < kBlocks; ++block) {
    const RowSums<V> next = SumBlock<Ops>(rows, block + 1);
    sink.Put(NextBlock<Ops>(logic, previous, current, next), static_cast<size_t>(block));
    previous = current;
    current = next;
  }
}

// Only the bands in `bands`; the other blocks are kept as they are, and
// noted unchanged (see StoreAndCompareRows::Keep). Unrolled over the bands
// like StepTile, so every row index is a constant; a band following a
// skipped one first sums the block above it.
template <class Ops, class Logic>
[[gnu::always_inline]] inline void StepTileBands(const NeighbourRows& rows, const Logic& logic,
                                                 StoreAndCompareRows<Ops, RowNotes::kEachRow>& sink,
                                                 BandMask bands) {
  using V = typename Ops::V;
  constexpr ptrdiff_t kPerBand = kBlocksPerBand<Ops>;
  static_assert(kBandRows % Ops::kLanes == 0, "row blocks must tile a band");
  RowSums<V> previous{};
  RowSums<V> current{};
  sink.unchanged_rows = rows_of_bands(static_cast<BandMask>(~bands));
#pragma GCC unroll 8
  for (ptrdiff_t band = 0; band < kTileBands; ++band) {
    const ptrdiff_t first = band * kPerBand;
    if (!(bands >> band & 1)) {
#pragma GCC unroll 64
      for (ptrdiff_t block = first; block < first + kPerBand; ++block) {
        sink.Keep(static_cast<size_t>(block));
      }
      continue;
    }
    if (band == 0 || !(bands >> (band - 1) & 1)) {
      previous = SumBlock<Ops>(rows, first - 1);
      current = SumBlock<Ops>(rows, first);
    }
#pragma GCC unroll 64
    for (ptrdiff_t block = first; block < first + kPerBand; ++block) {
      const RowSums<V> next = SumBlock<Ops>(rows, block + 1);
      sink.Put(NextBlock<Ops>(logic, previous, current, next), static_cast<size_t>(block));
      previous = current;
      current = next;
    }
  }
}

// Rows of block `block` of the tile column `column` (0 west, 1 centre, 2
// east), counting from the middle tile's first block: negative blocks are
// the north tile's, kBlocks and on the south tile's.
template <class Ops>
[[gnu::always_inline]] inline const uint64_t* BlockRows(const NeighbourRows& rows, int column,
                                                        ptrdiff_t block) {
  constexpr ptrdiff_t kLanes = Ops::kLanes;
  constexpr ptrdiff_t kBlocks = kTileSize / kLanes;
  if (block < 0) return rows.north[column] + (kBlocks + block) * kLanes;
  if (block >= kBlocks) return rows.south[column] + (block - kBlocks) * kLanes;
  return rows.middle[column] + block * kLanes;
}

// A row block's horizontal sums, and those of its side columns packed into
// one word a row: columns -2..1 in bits 0-3 and 62..65 in bits 8-11. The
// packed word steps with the same logic (nothing comes in from its sides,
// and the gaps keep the two groups apart), which leaves generation t+1 of
// columns -1 and 0 in bits 1-2 and of columns 63 and 64 in bits 9-10 exact.
template <class V>
struct SidedSums {
  RowSums<V> centre;
  RowSums<V> sides;
};

template <class Ops>
[[gnu::always_inline]] inline SidedSums<typename Ops::V> SumSidedBlock(const NeighbourRows& rows,
                                                                       ptrdiff_t block) {
  using V = typename Ops::V;
  const V west = Ops::Load(BlockRows<Ops>(rows, 0, block));
  const V centre = Ops::Load(BlockRows<Ops>(rows, 1, block));
  const V east = Ops::Load(BlockRows<Ops>(rows, 2, block));
  const V low = Ops::Or(Ops::template ShiftRight<62>(west),
                        Ops::template ShiftRight<60>(Ops::template ShiftLeft<62>(centre)));
  const V high = Ops::Or(Ops::template ShiftLeft<8>(Ops::template ShiftRight<62>(centre)),
                         Ops::template ShiftRight<52>(Ops::template ShiftLeft<62>(east)));
  return {SumRows<Ops>(centre, west, east),
          SumRows<Ops>(Ops::Or(low, high), Ops::Zero(), Ops::Zero())};
}

// Two generations of the middle tile from the nine at t (lifelib's way of
// stepping a sparse tile): generation t+1 of rows -kLanes..63+kLanes (a
// block of the north and of the south tile besides the tile's own), with
// their columns -1 and 64 from the packed side words, then t+2 of the tile
// from those. Generation t+1 of the tile itself goes to `middle`, t+2 to
// `after`. The engine does not call it: it costs about twice a single
// step's time per generation, more than halving the bookkeeping saves
// (`gol bench --cpu-kernels`, bench/RESULTS.md).
template <class Ops, class Logic, class MiddleSink, class AfterSink>
[[gnu::always_inline]] inline void StepTileTwice(const TileNeighbourhood& tiles, const Logic& logic,
                                                 MiddleSink& middle, AfterSink& after) {
  using V = typename Ops::V;
  constexpr ptrdiff_t kBlocks = kTileSize / Ops::kLanes;
  const NeighbourRows rows(tiles);
  // Generation t+1 of blocks -1 .. kBlocks, and of their side columns
  // (column -1 as a west tile's bit 63, column 64 as an east tile's bit 0),
  // kept for the second step: two passes, fewer vectors live at once, took
  // 42 ns a generation where one interleaved pass took 48 (AVX3_DL).
  V centres[kBlocks + 2];
  V wests[kBlocks + 2];
  V easts[kBlocks + 2];
  SidedSums<V> previous = SumSidedBlock<Ops>(rows, -2);
  SidedSums<V> current = SumSidedBlock<Ops>(rows, -1);
#pragma GCC unroll 64
  for (ptrdiff_t block = -1; block <= kBlocks; ++block) {
    const SidedSums<V> next = SumSidedBlock<Ops>(rows, block + 1);
    const V centre = NextBlock<Ops>(logic, previous.centre, current.centre, next.centre);
    const V sides = NextBlock<Ops>(logic, previous.sides, current.sides, next.sides);
    if (block >= 0 && block < kBlocks) middle.Put(centre, static_cast<size_t>(block));
    centres[block + 1] = centre;
    wests[block + 1] = Ops::template ShiftLeft<62>(sides);
    easts[block + 1] = Ops::template ShiftRight<10>(sides);
    previous = current;
    current = next;
  }
  RowSums<V> above = SumRows<Ops>(centres[0], wests[0], easts[0]);
  RowSums<V> here = SumRows<Ops>(centres[1], wests[1], easts[1]);
#pragma GCC unroll 64
  for (ptrdiff_t block = 0; block < kBlocks; ++block) {
    const RowSums<V> below = SumRows<Ops>(centres[block + 2], wests[block + 2], easts[block + 2]);
    after.Put(NextBlock<Ops>(logic, above, here, below), static_cast<size_t>(block));
    above = here;
    here = below;
  }
}

template <class Ops, class Logic>
void StepTilesTwiceWith(const TileBatch& batch, const Logic& logic) {
  for (size_t i = 0; i < batch.count; ++i) {
    uint64_t* const rows = batch.targets[i]->rows.data();
    StoreAndCompareRows<Ops, RowNotes::kEachBand> middle{rows, rows};
    uint64_t* const after_rows = batch.after[i].rows.data();
    StoreAndCompareRows<Ops, RowNotes::kEachRow> after{after_rows,
                                                       batch.in[i].at[1][1]->rows.data()};
    StepTileTwice<Ops>(batch.in[i], logic, middle, after);
    batch.changes[i] = middle.Summary();
    batch.after_changes[i] = after.Summary();
  }
}

// A row run's plain and compared steps: one loop each, as the sparse
// world's below.
template <class Ops, class Logic>
void StepTileRowWith(const TileBatch& batch, const Logic& logic) {
  const TileRowRun& run = *batch.row_run;
  if (batch.changes == nullptr) {
    for (size_t i = 0; i < batch.count; ++i) {
      StoreRows<Ops> sink{batch.targets[i]->rows.data()};
      StepTile<Ops>(NeighbourRows(run, i), logic, sink);
    }
    return;
  }
  for (size_t i = 0; i < batch.count; ++i) {
    uint64_t* const rows = batch.targets[i]->rows.data();
    StoreAndCompareRows<Ops, RowNotes::kEachBand> sink{rows, rows};
    StepTile<Ops>(NeighbourRows(run, i), logic, sink);
    batch.changes[i] = sink.Summary();
  }
}

template <class Ops, class Logic>
void StepTilesWith(const TileBatch& batch, const Logic& logic) {
  if (batch.after != nullptr) {
    StepTilesTwiceWith<Ops>(batch, logic);
    return;
  }
  if (batch.row_run != nullptr) {
    StepTileRowWith<Ops>(batch, logic);
    return;
  }
  // One loop per kind of batch, so the sparse world's (compared, by band)
  // tests nothing else per tile.
  if (batch.edges != nullptr) {
    for (size_t i = 0; i < batch.count; ++i) {
      StoreAndNoteEdges<Ops> sink{batch.targets[i]->rows.data()};
      StepTile<Ops>(NeighbourRows(batch.in[i]), logic, sink);
      batch.edges[i] = sink.Edges();
    }
    return;
  }
  if (batch.changes == nullptr) {
    for (size_t i = 0; i < batch.count; ++i) {
      Tile& out = batch.targets == nullptr ? batch.out[i] : *batch.targets[i];
      StoreRows<Ops> sink{out.rows.data()};
      StepTile<Ops>(NeighbourRows(batch.in[i]), logic, sink);
    }
    return;
  }
  for (size_t i = 0; i < batch.count; ++i) {
    uint64_t* const rows = batch.targets[i]->rows.data();
    const BandMask bands = batch.bands == nullptr ? kAllBands : batch.bands[i];
    if (bands == kAllBands) {
      StoreAndCompareRows<Ops, RowNotes::kEachBand> sink{rows, rows};
      StepTile<Ops>(NeighbourRows(batch.in[i]), logic, sink);
      batch.changes[i] = sink.Summary();
    } else {
      StoreAndCompareRows<Ops, RowNotes::kEachRow> sink{rows, rows};
      StepTileBands<Ops>(NeighbourRows(batch.in[i]), logic, sink, bands);
      batch.changes[i] = sink.Summary();
    }
  }
}

// The entry point each back end instantiates: picks the rule logic once per
// batch, not per tile.
template <class Ops>
void StepTilesForRule(const TileBatch& batch, const Rule& rule) {
  if (rule.is_conway()) {
    StepTilesWith<Ops>(batch, ConwayLogic{});
  } else {
    StepTilesWith<Ops>(batch, GenericLogic(rule));
  }
}

}  // namespace gol::cpu::GOL_SIMD_NAMESPACE

#endif  // GOL_CPU_SIMD_TILE_KERNEL_INL_H_
