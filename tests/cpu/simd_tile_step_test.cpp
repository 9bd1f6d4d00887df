// The SIMD tile kernel against a per-cell reference: every Highway target
// this CPU runs and the xsimd back end, several rules, random and edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "cpu/simd/tile_step.h"
#include "cpu/simd/tile_step_backends.h"
#include "engine/core/rule.h"
#include "tests/cpu/simd_test_support.h"

namespace gol::cpu {
namespace {

using simd_test::OwnedNeighbourhood;
using simd_test::random_tile;
using simd_test::reference_step;

using StepFunction = std::function<void(const TileNeighbourhood*, Tile*, size_t, const Rule&)>;

struct Kernel {
  std::string name;
  StepFunction step;
};

void PrintTo(const Kernel& kernel, std::ostream* os) { *os << kernel.name; }

std::vector<Kernel> all_kernels() {
  std::vector<Kernel> kernels;
  for (SimdLibrary library : {SimdLibrary::kHighway, SimdLibrary::kXsimd}) {
    const std::string prefix = library == SimdLibrary::kHighway ? "Highway_" : "xsimd_";
    const std::vector<std::string> targets = simd_targets_supported(library);
    for (size_t index = 0; index < targets.size(); ++index) {
      kernels.push_back(
          {prefix + targets[index], [index, library](const TileNeighbourhood* in, Tile* out,
                                                     size_t count, const Rule& rule) {
             step_tiles_on_target(in, out, count, rule, index, library);
           }});
    }
    kernels.push_back({prefix + "dispatched",
                       [library](const TileNeighbourhood* in, Tile* out, size_t count,
                                 const Rule& rule) { step_tiles(in, out, count, rule, library); }});
  }
  return kernels;
}

Rule rule_of(const char* text) { return parse_rule(text).rule; }

// Conway, HighLife, a birth-only rule, a parity rule and one using counts
// 0 and 8 for survival.
const char* const kRules[] = {"B3/S23", "B36/S23", "B2/S", "B1357/S1357", "B3678/S0348"};

class SimdTileStepTest : public testing::TestWithParam<Kernel> {
 protected:
  // Steps every neighbourhood in one batch and compares each result with
  // the reference.
  void expect_matches_reference(const std::vector<OwnedNeighbourhood>& cases, const Rule& rule) {
    std::vector<TileNeighbourhood> views;
    for (const OwnedNeighbourhood& owned : cases) views.push_back(owned.view());
    std::vector<Tile> out(cases.size());
    GetParam().step(views.data(), out.data(), views.size(), rule);
    for (size_t i = 0; i < cases.size(); ++i) {
      ASSERT_EQ(out[i], reference_step(views[i], rule))
          << "case " << i << ", rule " << rule.to_string();
    }
  }
};

std::vector<OwnedNeighbourhood> random_cases(uint64_t seed, bool empty_neighbours) {
  std::mt19937_64 random(seed);
  std::vector<OwnedNeighbourhood> cases;
  for (double density : {0.05, 0.3, 0.5, 0.8}) {
    OwnedNeighbourhood owned;
    for (int row = 0; row < 3; ++row) {
      for (int column = 0; column < 3; ++column) {
        const bool centre = row == 1 && column == 1;
        if (centre || !empty_neighbours) owned.at[row][column] = random_tile(random, density);
      }
    }
    cases.push_back(owned);
  }
  return cases;
}

TEST_P(SimdTileStepTest, RandomTilesWithRandomNeighboursMatchReference) {
  const std::vector<OwnedNeighbourhood> cases = random_cases(1, false);
  for (const char* rule : kRules) expect_matches_reference(cases, rule_of(rule));
}

TEST_P(SimdTileStepTest, RandomTilesWithEmptyNeighboursMatchReference) {
  const std::vector<OwnedNeighbourhood> cases = random_cases(2, true);
  for (const char* rule : kRules) expect_matches_reference(cases, rule_of(rule));
}

// Rules of a single count each, for birth and for survival, so every count
// 0..8 must be decoded on its own; a dense soup holds every count.
// Whether the centre tiles hold, for every count 0..8, both a live and a
// dead cell with that many live neighbours.
bool every_count_occurs(const std::vector<OwnedNeighbourhood>& cases) {
  bool seen[2][9] = {};
  for (const OwnedNeighbourhood& owned : cases) {
    const TileNeighbourhood view = owned.view();
    for (int y = 0; y < kTileSize; ++y) {
      for (int x = 0; x < kTileSize; ++x) {
        seen[owned.at[1][1].get(x, y)][simd_test::live_neighbours(view, x, y)] = true;
      }
    }
  }
  for (const auto& by_count : seen) {
    for (bool count_seen : by_count) {
      if (!count_seen) return false;
    }
  }
  return true;
}

TEST_P(SimdTileStepTest, EachCountAloneMatchesReference) {
  const std::vector<OwnedNeighbourhood> cases = random_cases(3, false);
  ASSERT_TRUE(every_count_occurs(cases));
  for (int count = 0; count <= 8; ++count) {
    const uint16_t bit = static_cast<uint16_t>(1u << count);
    expect_matches_reference(cases, Rule{bit, 0});
    expect_matches_reference(cases, Rule{0, bit});
  }
}

TEST_P(SimdTileStepTest, RandomRulesMatchReference) {
  const std::vector<OwnedNeighbourhood> cases = random_cases(4, false);
  std::mt19937_64 random(5);
  std::uniform_int_distribution<int> mask(0, 511);
  for (int i = 0; i < 16; ++i) {
    expect_matches_reference(
        cases, Rule{static_cast<uint16_t>(mask(random)), static_cast<uint16_t>(mask(random))});
  }
}

// A single live cell in a neighbour tile, at each position that touches the
// centre tile (its facing column, row or corner), with a random centre.
std::vector<OwnedNeighbourhood> edge_and_corner_cases() {
  std::mt19937_64 random(6);
  std::vector<OwnedNeighbourhood> cases;
  auto add = [&](int row, int column, int x, int y) {
    OwnedNeighbourhood owned;
    owned.at[1][1] = random_tile(random, 0.3);
    owned.at[row][column].set(x, y, true);
    cases.push_back(owned);
  };
  constexpr int kLast = kTileSize - 1;
  for (int i = 0; i < kTileSize; ++i) {
    add(1, 0, kLast, i);  // west tile, its east column
    add(1, 2, 0, i);      // east tile, its west column
    add(0, 1, i, kLast);  // north tile, its bottom row
    add(2, 1, i, 0);      // south tile, its top row
  }
  add(0, 0, kLast, kLast);
  add(0, 2, 0, kLast);
  add(2, 0, kLast, 0);
  add(2, 2, 0, 0);
  return cases;
}

TEST_P(SimdTileStepTest, EdgeAndCornerNeighboursMatchReference) {
  const std::vector<OwnedNeighbourhood> cases = edge_and_corner_cases();
  // B1/S1 makes a lone neighbour cell visible in the centre tile whatever
  // surrounds it; Conway takes the specialised path.
  expect_matches_reference(cases, rule_of("B1/S1"));
  expect_matches_reference(cases, rule_of("B3/S23"));
}

TEST_P(SimdTileStepTest, CornerCellReachesOnlyTheTouchingCell) {
  OwnedNeighbourhood owned;
  owned.at[0][0].set(kTileSize - 1, kTileSize - 1, true);
  const TileNeighbourhood view = owned.view();
  Tile out;
  GetParam().step(&view, &out, 1, rule_of("B1/S"));
  Tile expected;
  expected.set(0, 0, true);
  EXPECT_EQ(out, expected);
}

TEST_P(SimdTileStepTest, EmptyBatchWritesNothing) {
  Tile out;
  out.set(5, 5, true);
  GetParam().step(nullptr, &out, 0, Rule::conway());
  EXPECT_TRUE(out.get(5, 5));
}

INSTANTIATE_TEST_SUITE_P(AllKernels, SimdTileStepTest, testing::ValuesIn(all_kernels()),
                         [](const testing::TestParamInfo<Kernel>& kernel_info) {
                           return kernel_info.param.name;
                         });

// How finely the kernel notes unchanged rows: each row where it steps some
// bands, whole bands where it steps the whole tile.
enum class Notes { kEachRow, kEachBand };

// The edge columns are noted together: a column that changed anywhere
// counts as changed in every row where either edge column changed.
TileChange expected_change(const Tile& overwritten, const Tile& next, Notes notes) {
  TileChange change;
  uint64_t edge_unchanged_rows = 0;
  for (int row = 0; row < kTileSize; ++row) {
    const uint64_t row_change = next.rows[row] ^ overwritten.rows[row];
    change.changed_columns |= row_change;
    change.live_columns |= next.rows[row];
    if (row_change == 0) change.unchanged_rows |= uint64_t{1} << row;
    if ((row_change & kEdgeColumns) == 0) edge_unchanged_rows |= uint64_t{1} << row;
  }
  const uint64_t kEast = uint64_t{1} << (kTileSize - 1);
  change.west_unchanged_rows =
      (change.changed_columns & 1) != 0 ? edge_unchanged_rows : ~uint64_t{0};
  change.east_unchanged_rows =
      (change.changed_columns & kEast) != 0 ? edge_unchanged_rows : ~uint64_t{0};
  if (notes == Notes::kEachBand) {
    for (int band = 0; band < kTileBands; ++band) {
      const uint64_t rows = uint64_t{0xFF} << (band * kBandRows);
      if ((change.unchanged_rows & rows) != rows) change.unchanged_rows &= ~rows;
    }
  }
  change.top_change = next.rows[0] ^ overwritten.rows[0];
  change.bottom_change = next.rows[kTileSize - 1] ^ overwritten.rows[kTileSize - 1];
  change.top_row = next.rows[0];
  change.bottom_row = next.rows[kTileSize - 1];
  return change;
}

void expect_change(const TileChange& actual, const TileChange& expected, const std::string& what) {
  EXPECT_EQ(actual.changed_columns, expected.changed_columns) << what;
  EXPECT_EQ(actual.live_columns, expected.live_columns) << what;
  EXPECT_EQ(actual.top_change, expected.top_change) << what;
  EXPECT_EQ(actual.bottom_change, expected.bottom_change) << what;
  EXPECT_EQ(actual.top_row, expected.top_row) << what;
  EXPECT_EQ(actual.bottom_row, expected.bottom_row) << what;
  EXPECT_EQ(actual.unchanged_rows, expected.unchanged_rows) << what;
  EXPECT_EQ(actual.west_unchanged_rows, expected.west_unchanged_rows) << what;
  EXPECT_EQ(actual.east_unchanged_rows, expected.east_unchanged_rows) << what;
}

// The address of each tile, for a batch's targets.
std::vector<Tile*> addresses_of(std::vector<Tile>& tiles) {
  std::vector<Tile*> addresses;
  for (Tile& tile : tiles) addresses.push_back(&tile);
  return addresses;
}

// step_tiles_over's kernels: the public entry point (dispatched) of each
// library, then every compiled instruction set of each.
using StepOver = std::function<void(const TileBatch&, const Rule&)>;
std::vector<StepOver> all_step_over_kernels() {
  std::vector<StepOver> kernels;
  for (SimdLibrary library : {SimdLibrary::kHighway, SimdLibrary::kXsimd}) {
    kernels.push_back([library](const TileBatch& batch, const Rule& rule) {
      step_tiles_over(batch.in, batch.targets, batch.changes, batch.count, rule, library,
                      batch.bands);
    });
    for (size_t index = 0; index < simd_targets_supported(library).size(); ++index) {
      kernels.push_back([index, library](const TileBatch& batch, const Rule& rule) {
        step_tiles_over_on_target(batch.in, batch.targets, batch.changes, batch.count, rule,
                                  batch.bands, index, library);
      });
    }
  }
  return kernels;
}

// step_tiles_over: the same results, written over older tiles (random ones,
// the tile itself, empty ones), and the differences it reports.
TEST(SimdStepTilesOver, WritesOverTargetsAndReportsTheirChanges) {
  std::vector<OwnedNeighbourhood> cases = random_cases(10, false);
  const std::vector<OwnedNeighbourhood> more = random_cases(11, true);
  cases.insert(cases.end(), more.begin(), more.end());
  std::vector<TileNeighbourhood> views;
  for (const OwnedNeighbourhood& owned : cases) views.push_back(owned.view());
  std::mt19937_64 random(12);
  std::vector<Tile> older;
  for (size_t i = 0; i < cases.size(); ++i) {
    older.push_back(i % 3 == 0   ? random_tile(random, 0.4)
                    : i % 3 == 1 ? cases[i].at[1][1]
                                 : Tile{});
  }
  const std::vector<StepOver> kernels = all_step_over_kernels();
  for (size_t kernel = 0; kernel < kernels.size(); ++kernel) {
    for (const char* text : {"B3/S23", "B36/S23"}) {
      const Rule rule = rule_of(text);
      std::vector<Tile> targets = older;
      const std::vector<Tile*> target_pointers = addresses_of(targets);
      std::vector<TileChange> changes(cases.size());
      kernels[kernel]({views.data(), views.size(), nullptr, target_pointers.data(), changes.data()},
                      rule);
      for (size_t i = 0; i < cases.size(); ++i) {
        const Tile next = reference_step(views[i], rule);
        ASSERT_EQ(targets[i], next) << "kernel " << kernel << ", case " << i << ", rule " << text;
        expect_change(changes[i], expected_change(older[i], next, Notes::kEachBand),
                      "case " + std::to_string(i));
      }
    }
  }
}

// Stepping only some bands: the target already holds the next generation
// in the other bands (as the sparse world guarantees), older rows in the
// stepped ones. The result must be the whole next generation, and the
// change record must cover the stepped bands' changes and every live row.
TEST(SimdStepTilesOver, StepsOnlyTheBandsAskedAndKeepsTheRest) {
  const std::vector<OwnedNeighbourhood> cases = random_cases(20, false);
  std::vector<TileNeighbourhood> views;
  for (const OwnedNeighbourhood& owned : cases) views.push_back(owned.view());
  std::mt19937_64 random(21);
  const BandMask masks[] = {0x00, 0x01, 0x80, 0x81, 0x5A, 0x3C, 0xFE, 0x7F, 0xA5, 0x18, 0xFF};
  for (const StepOver& kernel : all_step_over_kernels()) {
    for (const char* text : {"B3/S23", "B36/S23"}) {
      const Rule rule = rule_of(text);
      for (BandMask mask : masks) {
        std::vector<Tile> targets, older, next;
        for (const TileNeighbourhood& view : views) {
          next.push_back(reference_step(view, rule));
          // Stepped bands start from random rows, from the result itself, or
          // from the result with one cell changed (in a band's edge row or
          // not; in the tile's edge column or not).
          Tile start = random() % 2 == 0 ? next.back() : random_tile(random, 0.3);
          if (random() % 2 == 0) {
            const uint64_t columns[] = {0, kTileSize - 1, random() % kTileSize};
            start.rows[random() % kTileSize] ^= uint64_t{1} << columns[random() % 3];
          }
          for (int row = 0; row < kTileSize; ++row) {
            if (!(mask >> (row / kBandRows) & 1)) start.rows[row] = next.back().rows[row];
          }
          older.push_back(start);
        }
        targets = older;
        const std::vector<Tile*> target_pointers = addresses_of(targets);
        std::vector<TileChange> changes(cases.size());
        const std::vector<BandMask> bands(cases.size(), mask);
        kernel({views.data(), views.size(), nullptr, target_pointers.data(), changes.data(),
                bands.data()},
               rule);
        for (size_t i = 0; i < cases.size(); ++i) {
          const std::string what =
              "case " + std::to_string(i) + ", bands " + std::to_string(mask) + ", rule " + text;
          ASSERT_EQ(targets[i], next[i]) << what;
          const Notes notes = mask == kAllBands ? Notes::kEachBand : Notes::kEachRow;
          expect_change(changes[i], expected_change(older[i], next[i], notes), what);
        }
      }
    }
  }
}

// step_tiles_noting_edges: the same results, written over older tiles, and
// what the neighbours read of each (first and last rows, the columns
// holding a live cell) and how those differ from the older tile, on every
// kernel; a tile that dies notes no live cell.
TEST(SimdStepTilesNotingEdges, WritesOverTargetsAndNotesTheirEdges) {
  std::vector<OwnedNeighbourhood> cases = random_cases(30, false);
  const std::vector<OwnedNeighbourhood> more = random_cases(31, true);
  cases.insert(cases.end(), more.begin(), more.end());
  cases.emplace_back();  // all empty: stays empty
  OwnedNeighbourhood lone_cell;
  lone_cell.at[1][1].rows[0] = uint64_t{1} << 63;  // dies
  cases.push_back(lone_cell);
  std::vector<TileNeighbourhood> views;
  for (const OwnedNeighbourhood& owned : cases) views.push_back(owned.view());
  std::mt19937_64 random(32);
  std::vector<Tile> older;
  for (size_t i = 0; i < cases.size(); ++i) older.push_back(random_tile(random, 0.4));
  using StepNotingEdges =
      std::function<void(const TileNeighbourhood*, Tile* const*, TileEdges*, size_t, const Rule&)>;
  std::vector<StepNotingEdges> kernels;
  for (SimdLibrary library : {SimdLibrary::kHighway, SimdLibrary::kXsimd}) {
    kernels.push_back([library](const TileNeighbourhood* in, Tile* const* targets, TileEdges* edges,
                                size_t count, const Rule& rule) {
      step_tiles_noting_edges(in, targets, edges, count, rule, library);
    });
    for (size_t index = 0; index < simd_targets_supported(library).size(); ++index) {
      kernels.push_back([index, library](const TileNeighbourhood* in, Tile* const* targets,
                                         TileEdges* edges, size_t count, const Rule& rule) {
        step_tiles_noting_edges_on_target(in, targets, edges, count, rule, index, library);
      });
    }
  }
  for (size_t kernel = 0; kernel < kernels.size(); ++kernel) {
    for (const char* text : {"B3/S23", "B36/S23"}) {
      const Rule rule = rule_of(text);
      std::vector<Tile> targets = older;
      const std::vector<Tile*> target_pointers = addresses_of(targets);
      std::vector<TileEdges> edges(cases.size(), TileEdges{1, 1, 1});
      kernels[kernel](views.data(), target_pointers.data(), edges.data(), views.size(), rule);
      for (size_t i = 0; i < cases.size(); ++i) {
        const std::string what =
            "kernel " + std::to_string(kernel) + ", case " + std::to_string(i) + ", rule " + text;
        const Tile next = reference_step(views[i], rule);
        ASSERT_EQ(targets[i], next) << what;
        uint64_t live_columns = 0;
        uint64_t changed_columns = 0;
        for (size_t row = 0; row < kTileSize; ++row) {
          live_columns |= next.rows[row];
          changed_columns |= next.rows[row] ^ older[i].rows[row];
        }
        EXPECT_EQ(edges[i].top, next.rows[0]) << what;
        EXPECT_EQ(edges[i].bottom, next.rows[kTileSize - 1]) << what;
        EXPECT_EQ(edges[i].live_columns, live_columns) << what;
        EXPECT_EQ(edges[i].top_change, next.rows[0] ^ older[i].rows[0]) << what;
        EXPECT_EQ(edges[i].bottom_change, next.rows[kTileSize - 1] ^ older[i].rows[kTileSize - 1])
            << what;
        EXPECT_EQ(edges[i].changed_columns, changed_columns) << what;
      }
      EXPECT_EQ(edges[cases.size() - 1].live_columns, 0u) << "the lone cell dies";
    }
  }
}

// step_tile_row_over on every kernel: three rows of random tiles (one of
// them empty, one the same tile twice), the middle row's tiles stepped in
// runs of several lengths from the row's lists, each equal to the
// reference's step of the nine tiles the lists name, plainly and noted.
TEST(SimdStepTileRowOver, StepsEachTileOfTheRunFromTheRowsLists) {
  constexpr size_t kColumns = 9;
  std::mt19937_64 random(40);
  std::vector<Tile> tiles;
  for (size_t i = 0; i < 3 * (kColumns + 2); ++i) {
    tiles.push_back(i == 4 ? Tile{} : random_tile(random, i % 2 == 0 ? 0.3 : 0.55));
  }
  const auto lists = [&](size_t row) {
    std::vector<const Tile*> list;
    for (size_t column = 0; column < kColumns + 2; ++column) {
      list.push_back(&tiles[row * (kColumns + 2) + column]);
    }
    return list;
  };
  std::vector<const Tile*> north = lists(0);
  const std::vector<const Tile*> middle = lists(1);
  const std::vector<const Tile*> south = lists(2);
  north[3] = north[2];  // a tile may border several in the run
  using StepRow =
      std::function<void(const TileRowRun&, Tile* const*, TileChange*, size_t, const Rule&)>;
  std::vector<StepRow> kernels;
  for (SimdLibrary library : {SimdLibrary::kHighway, SimdLibrary::kXsimd}) {
    kernels.push_back([library](const TileRowRun& run, Tile* const* targets, TileChange* changes,
                                size_t count, const Rule& rule) {
      step_tile_row_over(run, targets, changes, count, rule, library);
    });
    for (size_t index = 0; index < simd_targets_supported(library).size(); ++index) {
      kernels.push_back([index, library](const TileRowRun& run, Tile* const* targets,
                                         TileChange* changes, size_t count, const Rule& rule) {
        step_tile_row_over_on_target(run, targets, changes, count, rule, index, library);
      });
    }
  }
  std::vector<Tile> older;
  for (size_t i = 0; i < kColumns; ++i) older.push_back(random_tile(random, 0.4));
  for (size_t kernel = 0; kernel < kernels.size(); ++kernel) {
    for (const char* text : {"B3/S23", "B36/S23"}) {
      const Rule rule = rule_of(text);
      for (size_t first : {size_t{0}, size_t{2}}) {
        for (const bool noted : {false, true}) {
          const size_t count = kColumns - first;
          std::vector<Tile> targets = older;
          const std::vector<Tile*> target_pointers = addresses_of(targets);
          std::vector<TileChange> changes(count);
          const TileRowRun run{north.data() + first, middle.data() + first, south.data() + first};
          kernels[kernel](run, target_pointers.data() + first, noted ? changes.data() : nullptr,
                          count, rule);
          for (size_t i = 0; i < kColumns; ++i) {
            const std::string what = "kernel " + std::to_string(kernel) + ", tile " +
                                     std::to_string(i) + ", first " + std::to_string(first) +
                                     ", rule " + text;
            if (i < first) {
              ASSERT_EQ(targets[i], older[i]) << what << ": outside the run";
              continue;
            }
            TileNeighbourhood view{};
            for (int dx = 0; dx < 3; ++dx) {
              view.at[0][dx] = north[i + static_cast<size_t>(dx)];
              view.at[1][dx] = middle[i + static_cast<size_t>(dx)];
              view.at[2][dx] = south[i + static_cast<size_t>(dx)];
            }
            const Tile next = reference_step(view, rule);
            ASSERT_EQ(targets[i], next) << what;
            if (noted) {
              expect_change(changes[i - first], expected_change(older[i], next, Notes::kEachBand),
                            what);
            }
          }
        }
      }
    }
  }
}

// A 5x5 block of tiles: the centre's 3x3 neighbourhood and the ring the
// neighbours of that need for their own next generation.
struct FiveByFive {
  std::array<std::array<Tile, 5>, 5> at{};

  TileNeighbourhood around(int row, int column) const {
    TileNeighbourhood view{};
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) view.at[dy + 1][dx + 1] = &at[row + dy][column + dx];
    }
    return view;
  }
};

// step_tiles_twice on every kernel: t+1 over the target (noted against what
// it held), t+2 into the second output (noted against t), equal to two
// steps of the reference, the second from the first's nine tiles.
TEST(SimdStepTilesTwice, MatchesTwoReferenceStepsAndNotesBothChanges) {
  std::mt19937_64 random(30);
  std::vector<FiveByFive> worlds;
  for (double density : {0.02, 0.1, 0.3, 0.5, 0.9}) {
    FiveByFive world;
    for (auto& row : world.at) {
      for (Tile& tile : row) tile = random_tile(random, density);
    }
    worlds.push_back(world);
  }
  // A five-cell cross on each corner cell of the centre tile, and two cells
  // beyond the middle of each edge, the other tiles empty: what a sparse
  // world's tiles see at a front.
  for (const auto& [x, y] :
       {std::pair{64, 64}, std::pair{127, 64}, std::pair{64, 127}, std::pair{127, 127},
        std::pair{62, 90}, std::pair{129, 90}, std::pair{90, 62}, std::pair{90, 129}}) {
    FiveByFive world;
    for (int dx = -1; dx <= 1; ++dx)
      world.at[(y + 64) / 64][(x + dx + 64) / 64].set((x + dx + 64) % 64, (y + 64) % 64, true);
    for (int dy = -1; dy <= 1; ++dy)
      world.at[(y + dy + 64) / 64][(x + 64) / 64].set((x + 64) % 64, (y + dy + 64) % 64, true);
    worlds.push_back(world);
  }
  const char* const rules[] = {"B3/S23", "B36/S23", "B2/S", "B1357/S1357", "B3678/S0348"};
  std::vector<std::function<void(const TileNeighbourhood*, Tile* const*, TileChange*, Tile*,
                                 TileChange*, size_t, const Rule&)>>
      kernels;
  std::vector<std::string> names;
  for (SimdLibrary library : {SimdLibrary::kHighway, SimdLibrary::kXsimd}) {
    const std::vector<std::string> supported = simd_targets_supported(library);
    for (size_t index = 0; index < supported.size(); ++index) {
      names.push_back(supported[index]);
      kernels.push_back(
          [index, library](const TileNeighbourhood* in, Tile* const* targets, TileChange* changes,
                           Tile* after, TileChange* after_changes, size_t count, const Rule& rule) {
            step_tiles_twice_on_target(in, targets, changes, after, after_changes, count, rule,
                                       index, library);
          });
    }
    names.push_back("dispatched");
    kernels.push_back([library](const TileNeighbourhood* in, Tile* const* targets,
                                TileChange* changes, Tile* after, TileChange* after_changes,
                                size_t count, const Rule& rule) {
      step_tiles_twice(in, targets, changes, after, after_changes, count, rule, library);
    });
  }
  for (const char* text : rules) {
    const Rule rule = rule_of(text);
    std::vector<TileNeighbourhood> views;
    std::vector<Tile> older, first, second;
    for (const FiveByFive& world : worlds) {
      views.push_back(world.around(2, 2));
      FiveByFive next;
      for (int row = 1; row <= 3; ++row) {
        for (int column = 1; column <= 3; ++column) {
          next.at[row][column] = reference_step(world.around(row, column), rule);
        }
      }
      first.push_back(next.at[2][2]);
      second.push_back(reference_step(next.around(2, 2), rule));
      older.push_back(random() % 2 == 0 ? random_tile(random, 0.2) : first.back());
    }
    for (size_t kernel = 0; kernel < kernels.size(); ++kernel) {
      std::vector<Tile> targets = older;
      const std::vector<Tile*> target_pointers = addresses_of(targets);
      std::vector<Tile> after(worlds.size());
      std::vector<TileChange> changes(worlds.size()), after_changes(worlds.size());
      kernels[kernel](views.data(), target_pointers.data(), changes.data(), after.data(),
                      after_changes.data(), views.size(), rule);
      for (size_t i = 0; i < worlds.size(); ++i) {
        const std::string what = names[kernel] + ", case " + std::to_string(i) + ", rule " + text;
        ASSERT_EQ(targets[i], first[i]) << what;
        ASSERT_EQ(after[i], second[i]) << what;
        expect_change(changes[i], expected_change(older[i], first[i], Notes::kEachBand), what);
        expect_change(after_changes[i],
                      expected_change(*views[i].at[1][1], second[i], Notes::kEachRow), what);
      }
    }
  }
}

TEST(SimdTargets, DispatchedTargetIsTheBestSupported) {
  const std::vector<std::string> targets = simd_targets_supported(SimdLibrary::kXsimd);
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(simd_target_name(SimdLibrary::kXsimd), targets.front());
}

TEST(SimdTargets, HighwayDispatchesItsBestTarget) {
  const std::vector<std::string> targets = simd_targets_supported(SimdLibrary::kHighway);
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(simd_target_name(SimdLibrary::kHighway), targets.front());
}

// The kernel picks its targets itself (libhwy is not linked): those it runs
// here are compiled ones, best first, down to the portable one every CPU
// runs, and include AVX2 wherever the CPU has it.
TEST(SimdTargets, HighwayRunsItsCompiledTargetsThatThisCpuHas) {
  const std::vector<std::string> compiled = simd_targets_compiled(SimdLibrary::kHighway);
  const std::vector<std::string> supported = simd_targets_supported(SimdLibrary::kHighway);
  ASSERT_FALSE(supported.empty());
  auto next = compiled.begin();
  for (const std::string& target : supported) {
    next = std::find(next, compiled.end(), target);
    ASSERT_NE(next, compiled.end()) << target << " runs but is not compiled, or is out of order";
  }
  EXPECT_TRUE(supported.back() == "SCALAR" || supported.back() == "EMU128") << supported.back();
#if defined(__x86_64__)
  const bool has_avx2 = std::find(compiled.begin(), compiled.end(), "AVX2") != compiled.end();
  if (has_avx2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    EXPECT_NE(std::find(supported.begin(), supported.end(), "AVX2"), supported.end());
  }
#endif
}

}  // namespace
}  // namespace gol::cpu
