// The tile pools (the CPU stand-in always, the CUDA pool where a device is
// usable) against the bit reference: regions on the plane and on tori, epochs
// of 1 to 32 generations with the ring re-uploaded from the reference before
// each, two generations of history, activity, transfers and their
// accounting, and the calls the pools refuse.
#include "gpu/tile_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "cpu/reference/reference_backends.h"
#include "engine/core/error.h"
#include "engine/core/rule.h"
#include "gpu/gpu_backend.h"

namespace gol::gpu {
namespace {

enum class PoolKind { kStandin, kCuda };

std::string kind_name(const ::testing::TestParamInfo<PoolKind>& info) {
  return info.param == PoolKind::kStandin ? "Standin" : "Cuda";
}

void PrintTo(PoolKind kind, std::ostream* out) {
  *out << (kind == PoolKind::kStandin ? "cpu-standin" : "cuda");
}

void fill_tile(Tile& tile, double density, std::mt19937_64& random) {
  std::bernoulli_distribution alive(density);
  for (int y = 0; y < kTileSize; ++y) {
    for (int x = 0; x < kTileSize; ++x) tile.set(x, y, alive(random));
  }
}

// A world of the tiles in `rect`, each filled at a density drawn from
// {0, 0.1, 0.3, 0.5}, so empty, sparse and dense tiles sit side by side.
CellSet random_tiles(const TileRect& rect, uint64_t seed) {
  std::mt19937_64 random(seed);
  const double densities[] = {0.0, 0.1, 0.3, 0.5};
  std::uniform_int_distribution<int> pick(0, 3);
  CellSet cells;
  for (int64_t ty = rect.ty; ty < rect.ty + rect.height; ++ty) {
    for (int64_t tx = rect.tx; tx < rect.tx + rect.width; ++tx) {
      fill_tile(cells.tile({tx, ty}), densities[pick(random)], random);
    }
  }
  cells.prune_empty();
  return cells;
}

// Generations 0..generations of `start` by the bit reference.
std::vector<CellSet> reference_history(const CellSet& start, const Rule& rule,
                                       const Topology& topology, int generations) {
  auto backend = cpu::make_bit_backend();
  backend->load(start, rule, topology);
  std::vector<CellSet> history{backend->cells()};
  for (int g = 0; g < generations; ++g) {
    backend->step(1);
    history.push_back(backend->cells());
  }
  return history;
}

// The world's layout: the torus size in tiles (0 on the plane).
struct Layout {
  int64_t torus_x = 0;
  int64_t torus_y = 0;
  Topology topology() const {
    return torus_x > 0 ? Topology::torus(torus_x * kTileSize, torus_y * kTileSize)
                       : Topology::plane();
  }
  TileCoord canonical(TileCoord c) const {
    return torus_x > 0 ? TileCoord{wrap(c.tx, torus_x), wrap(c.ty, torus_y)} : c;
  }
};

Tile tile_at(const CellSet& cells, const Layout& layout, TileCoord coord) {
  const Tile* tile = cells.find_tile(layout.canonical(coord));
  return tile != nullptr ? *tile : Tile{};
}

std::vector<Tile> tiles_at(const CellSet& cells, const Layout& layout,
                           const std::vector<TileCoord>& coords) {
  std::vector<Tile> tiles;
  for (const TileCoord& c : coords) tiles.push_back(tile_at(cells, layout, c));
  return tiles;
}

std::vector<TileCoord> owned_coords(const TileRect& owned) {
  std::vector<TileCoord> coords;
  for (int64_t ty = owned.ty; ty < owned.ty + owned.height; ++ty) {
    for (int64_t tx = owned.tx; tx < owned.tx + owned.width; ++tx) coords.push_back({tx, ty});
  }
  return coords;
}

// The ring around `owned`, as unwrapped coordinates (on a torus the pool
// must accept any representative).
std::vector<TileCoord> ring_coords(const TileRect& owned) {
  std::vector<TileCoord> coords;
  for (int64_t ty = owned.ty - 1; ty <= owned.ty + owned.height; ++ty) {
    for (int64_t tx = owned.tx - 1; tx <= owned.tx + owned.width; ++tx) {
      const bool inside = tx >= owned.tx && tx < owned.tx + owned.width && ty >= owned.ty &&
                          ty < owned.ty + owned.height;
      if (!inside) coords.push_back({tx, ty});
    }
  }
  return coords;
}

TileRect grown(const TileRect& r, int64_t by) {
  return {r.tx - by, r.ty - by, r.width + 2 * by, r.height + 2 * by};
}

class TilePoolTest : public ::testing::TestWithParam<PoolKind> {
 protected:
  void SetUp() override {
    if (GetParam() == PoolKind::kCuda && !device_available()) {
      GTEST_SKIP() << "no GPU: " << device_unavailable_reason();
    }
  }
  std::unique_ptr<TilePool> make_pool() const {
    std::unique_ptr<TilePool> pool = make_tile_pool(GetParam() == PoolKind::kStandin);
    EXPECT_EQ(pool->name(), GetParam() == PoolKind::kStandin ? "cpu-standin" : "cuda");
    return pool;
  }
};

struct EpochCase {
  Layout layout;
  TileRect owned;
  Rule rule;
  std::vector<int> epochs;  // generations of each epoch, in order
};

// Runs the epochs on a pool region holding `owned` of a random world,
// uploading the ring from the reference before each epoch as a scheduler
// would, and checks the owned tiles, their history and activity after each.
void check_epochs(TilePool& pool, const EpochCase& c, uint64_t seed) {
  const int total = std::accumulate(c.epochs.begin(), c.epochs.end(), 0);
  const TileRect world_rect =
      c.layout.torus_x > 0 ? TileRect{0, 0, c.layout.torus_x, c.layout.torus_y} : grown(c.owned, 2);
  // Generation 1 is the pool's first t, so that t-1 exists.
  const std::vector<CellSet> history =
      reference_history(random_tiles(world_rect, seed), c.rule, c.layout.topology(), total + 1);

  pool.reset(c.rule, c.layout.torus_x, c.layout.torus_y);
  const int region = pool.add_region(c.owned);
  std::vector<TileCoord> owned = owned_coords(c.owned);
  const bool wraps = c.layout.torus_x > 0 && (c.owned.width + 2 > c.layout.torus_x ||
                                              c.owned.height + 2 > c.layout.torus_y);
  const std::vector<TileCoord> ring = wraps ? std::vector<TileCoord>{} : ring_coords(c.owned);
  pool.upload(region, owned, tiles_at(history[1], c.layout, owned),
              tiles_at(history[0], c.layout, owned));

  std::mt19937_64 random(seed);
  int t = 1;
  for (int k : c.epochs) {
    SCOPED_TRACE("epoch of " + std::to_string(k) + " generations from " + std::to_string(t));
    pool.upload(region, ring, tiles_at(history[t], c.layout, ring),
                tiles_at(history[t - 1], c.layout, ring));
    pool.step_async(k);
    pool.wait();
    t += k;

    std::shuffle(owned.begin(), owned.end(), random);
    std::vector<Tile> current(owned.size());
    std::vector<Tile> previous(owned.size());
    pool.download(region, owned, current, previous);
    for (size_t i = 0; i < owned.size(); ++i) {
      ASSERT_EQ(current[i], tile_at(history[t], c.layout, owned[i]))
          << "tile (" << owned[i].tx << ", " << owned[i].ty << ") at t+k";
      ASSERT_EQ(previous[i], tile_at(history[t - 1], c.layout, owned[i]))
          << "tile (" << owned[i].tx << ", " << owned[i].ty << ") at t+k-1";
    }

    const RegionActivity activity = pool.activity(region);
    const std::vector<TileCoord> in_order = owned_coords(c.owned);
    ASSERT_EQ(activity.changed.size(), in_order.size());
    ASSERT_EQ(activity.nonempty.size(), in_order.size());
    uint64_t population = 0;
    for (size_t i = 0; i < in_order.size(); ++i) {
      const Tile now = tile_at(history[t], c.layout, in_order[i]);
      const Tile before = tile_at(history[t - 2], c.layout, in_order[i]);
      EXPECT_EQ(activity.changed[i] != 0, now != before) << "changed, owned tile " << i;
      EXPECT_EQ(activity.nonempty[i] != 0, !now.empty()) << "nonempty, owned tile " << i;
      population += now.population();
    }
    EXPECT_EQ(activity.population, population);
  }
}

std::vector<int> one_to(int n) {
  std::vector<int> epochs(static_cast<size_t>(n));
  std::iota(epochs.begin(), epochs.end(), 1);
  return epochs;
}

TEST_P(TilePoolTest, PlaneEpochsOfEveryLengthMatchTheReference) {
  auto pool = make_pool();
  check_epochs(*pool, {{}, {-2, -1, 4, 3}, Rule::conway(), one_to(32)}, 11);
}

TEST_P(TilePoolTest, TorusRegionAcrossBothEdgesMatchesTheReference) {
  auto pool = make_pool();
  std::vector<int> epochs = one_to(32);
  std::reverse(epochs.begin(), epochs.end());
  check_epochs(*pool, {{7, 6}, {5, 4, 3, 2}, Rule::conway(), epochs}, 12);
}

TEST_P(TilePoolTest, WholeTorusRegionWraps) {
  auto pool = make_pool();
  check_epochs(*pool, {{3, 2}, {0, 0, 3, 2}, Rule::conway(), {1, 5, 16, 17, 32, 2}}, 13);
  // With no ring, epochs may run past kMaxEpochGenerations.
  check_epochs(*pool, {{3, 2}, {0, 0, 3, 2}, Rule::conway(), {33, 1, 100, 2}}, 19);
  // Any origin names the same whole torus; a one-tile torus wraps onto
  // itself.
  check_epochs(*pool, {{4, 3}, {2, 1, 4, 3}, Rule::conway(), {32, 1, 3}}, 14);
  check_epochs(*pool, {{1, 1}, {0, 0, 1, 1}, Rule::conway(), {7, 32}}, 15);
}

TEST_P(TilePoolTest, OtherRules) {
  auto pool = make_pool();
  const Rule highlife = parse_rule("B36/S23").rule;
  check_epochs(*pool, {{}, {0, 0, 3, 2}, highlife, {3, 17, 32}}, 16);
  // B0 runs on tori only: on a whole torus and with a ring.
  const Rule b0 = parse_rule("B0123478/S34678").rule;
  check_epochs(*pool, {{2, 3}, {0, 0, 2, 3}, b0, {1, 2, 15, 32}}, 17);
  check_epochs(*pool, {{6, 6}, {1, 2, 2, 3}, b0, {1, 2, 15, 32}}, 18);
  EXPECT_THROW(pool->reset(b0, 0, 0), InputError);
}

// Still lifes and period-2 oscillators count as unchanged (t+k equals
// t+k-2), a 1-generation epoch included, which needs the uploaded t-1.
TEST_P(TilePoolTest, ActivityComparesWithTwoGenerationsBack) {
  auto pool = make_pool();
  pool->reset(Rule::conway(), 0, 0);
  const TileRect owned{0, 0, 5, 1};
  const int region = pool->add_region(owned);
  // Tile 0: a soup (whose sparks may reach tile 1); tile 2: a blinker;
  // tile 3: empty; tile 4: a block.
  CellSet world;
  std::mt19937_64 random(21);
  fill_tile(world.tile({0, 0}), 0.5, random);
  for (int x : {30, 31, 32}) world.set(2 * kTileSize + x, 20);
  for (int x : {10, 11}) {
    for (int y : {40, 41}) world.set(4 * kTileSize + x, y);
  }
  const Layout plane;
  const std::vector<CellSet> history = reference_history(world, Rule::conway(), {}, 2);
  const std::vector<TileCoord> coords = owned_coords(owned);
  pool->upload(region, coords, tiles_at(history[1], plane, coords),
               tiles_at(history[0], plane, coords));
  const std::vector<TileCoord> ring = ring_coords(owned);
  pool->upload(region, ring, tiles_at(history[1], plane, ring), {});
  pool->step_async(1);
  pool->wait();
  const RegionActivity activity = pool->activity(region);
  ASSERT_EQ(activity.changed.size(), 5u);
  const uint8_t tile1_changed =
      tile_at(history[2], plane, {1, 0}) != tile_at(history[0], plane, {1, 0});
  const uint8_t tile1_nonempty = !tile_at(history[2], plane, {1, 0}).empty();
  EXPECT_EQ(activity.changed, (std::vector<uint8_t>{1, tile1_changed, 0, 0, 0}));
  EXPECT_EQ(activity.nonempty, (std::vector<uint8_t>{1, tile1_nonempty, 1, 0, 1}));
  uint64_t population = 0;
  for (const TileCoord& c : coords) population += tile_at(history[2], plane, c).population();
  EXPECT_EQ(activity.population, population);
}

TEST_P(TilePoolTest, UploadDownloadRoundTrip) {
  auto pool = make_pool();
  const Layout torus{8, 8};
  pool->reset(Rule::conway(), torus.torus_x, torus.torus_y);
  const TileRect owned{6, 7, 3, 2};
  const int region = pool->add_region(owned);
  const std::vector<TileCoord> coords = owned_coords(owned);
  const CellSet now = random_tiles({0, 0, 8, 8}, 31);
  const CellSet before = random_tiles({0, 0, 8, 8}, 32);
  std::vector<Tile> current(coords.size());
  std::vector<Tile> previous(coords.size());

  // A new region is empty in both generations.
  pool->download(region, coords, current, previous);
  for (size_t i = 0; i < coords.size(); ++i) {
    EXPECT_TRUE(current[i].empty());
    EXPECT_TRUE(previous[i].empty());
  }

  pool->upload(region, coords, tiles_at(now, torus, coords), tiles_at(before, torus, coords));
  // Read back through other representatives of the same torus tiles.
  std::vector<TileCoord> shifted;
  for (const TileCoord& c : coords) shifted.push_back({c.tx - 8, c.ty + 16});
  pool->download(region, shifted, current, previous);
  EXPECT_EQ(current, tiles_at(now, torus, coords));
  EXPECT_EQ(previous, tiles_at(before, torus, coords));

  // Without history, t-1 is taken to be t; only the tiles given change.
  const std::vector<TileCoord> two{coords[1], coords[4]};
  const std::vector<Tile> replacement = tiles_at(before, torus, {coords[0], coords[2]});
  pool->upload(region, two, replacement, {});
  pool->download(region, coords, current, {});
  for (size_t i = 0; i < coords.size(); ++i) {
    const Tile expected = i == 1   ? replacement[0]
                          : i == 4 ? replacement[1]
                                   : tile_at(now, torus, coords[i]);
    EXPECT_EQ(current[i], expected) << i;
  }
  std::vector<Tile> two_now(2);
  std::vector<Tile> two_before(2);
  pool->download(region, two, two_now, two_before);
  EXPECT_EQ(two_before, replacement);
}

// Several regions at once, each exact; a removed region's memory comes back
// empty in a new one.
TEST_P(TilePoolTest, RegionsAreIndependent) {
  auto pool = make_pool();
  const Layout plane;
  pool->reset(Rule::conway(), 0, 0);
  const TileRect a{0, 0, 2, 2};
  const TileRect b{4, 0, 3, 1};  // one CPU tile column between the two rings
  const TileRect c{-3, 5, 1, 4};
  const std::vector<CellSet> history =
      reference_history(random_tiles({-5, -2, 13, 12}, 41), Rule::conway(), {}, 33);
  std::vector<int> ids;
  for (const TileRect& r : {a, b, c}) {
    ids.push_back(pool->add_region(r));
    const std::vector<TileCoord> owned = owned_coords(r);
    const std::vector<TileCoord> ring = ring_coords(r);
    pool->upload(ids.back(), owned, tiles_at(history[1], plane, owned),
                 tiles_at(history[0], plane, owned));
    pool->upload(ids.back(), ring, tiles_at(history[1], plane, ring), {});
  }
  pool->step_async(32);
  pool->wait();
  const TileRect rects[] = {a, b, c};
  for (size_t r = 0; r < 3; ++r) {
    const std::vector<TileCoord> owned = owned_coords(rects[r]);
    std::vector<Tile> current(owned.size());
    pool->download(ids[r], owned, current, {});
    EXPECT_EQ(current, tiles_at(history[33], plane, owned)) << "region " << r;
  }

  pool->remove_region(ids[1]);
  pool->remove_region(ids[0]);
  const TileRect d{0, -1, 7, 2};
  const int fresh = pool->add_region(d);
  const std::vector<TileCoord> owned = owned_coords(d);
  std::vector<Tile> current(owned.size());
  std::vector<Tile> previous(owned.size());
  pool->download(fresh, owned, current, previous);
  for (size_t i = 0; i < owned.size(); ++i) {
    EXPECT_TRUE(current[i].empty()) << i;
    EXPECT_TRUE(previous[i].empty()) << i;
  }
}

// Tiles owned before and after have the region's steps
// in both generations, each on a fresh table; the newly owned tiles start
// empty until uploaded, and the grown region then steps exactly.
void check_growth(TilePool& pool, const Layout& layout, const TileRect& from, const TileRect& to) {
  const TileRect world =
      layout.torus_x > 0 ? TileRect{0, 0, layout.torus_x, layout.torus_y} : grown(to, 2);
  const std::vector<CellSet> history =
      reference_history(random_tiles(world, 51), Rule::conway(), layout.topology(), 20);
  pool.reset(Rule::conway(), layout.torus_x, layout.torus_y);
  // A neighbour two tiles clear of the grown region, which must not move.
  const TileRect bystander{to.tx + to.width + 2, to.ty, 1, 1};
  const int other = layout.torus_x > 0 ? -1 : pool.add_region(bystander);
  const int region = pool.add_region(from);
  const auto upload_epoch = [&](const TileRect& owned, int t, bool with_owned) {
    if (with_owned) {
      const std::vector<TileCoord> coords = owned_coords(owned);
      pool.upload(region, coords, tiles_at(history[t], layout, coords),
                  tiles_at(history[t - 1], layout, coords));
    }
    const bool wraps =
        layout.torus_x > 0 && owned.width == layout.torus_x && owned.height == layout.torus_y;
    if (wraps) return;
    const std::vector<TileCoord> ring = ring_coords(owned);
    pool.upload(region, ring, tiles_at(history[t], layout, ring), {});
  };
  upload_epoch(from, 1, true);
  pool.step_async(5);
  pool.wait();

  pool.grow_region(region, to);
  std::vector<TileCoord> kept = owned_coords(from);
  std::vector<Tile> current(kept.size());
  std::vector<Tile> previous(kept.size());
  pool.download(region, kept, current, previous);
  EXPECT_EQ(current, tiles_at(history[6], layout, kept));
  EXPECT_EQ(previous, tiles_at(history[5], layout, kept));
  std::vector<TileCoord> added;
  for (const TileCoord& c : owned_coords(to)) {
    const TileCoord at = layout.canonical(c);
    const bool was_owned = std::any_of(
        kept.begin(), kept.end(), [&](const TileCoord& k) { return layout.canonical(k) == at; });
    if (!was_owned) added.push_back(c);
  }
  ASSERT_FALSE(added.empty());
  std::vector<Tile> added_now(added.size());
  std::vector<Tile> added_before(added.size());
  pool.download(region, added, added_now, added_before);
  for (size_t i = 0; i < added.size(); ++i) {
    EXPECT_TRUE(added_now[i].empty() && added_before[i].empty()) << "new tile " << i;
  }

  pool.upload(region, added, tiles_at(history[6], layout, added),
              tiles_at(history[5], layout, added));
  upload_epoch(to, 6, false);
  pool.step_async(13);
  pool.wait();
  const std::vector<TileCoord> all = owned_coords(to);
  current.resize(all.size());
  previous.resize(all.size());
  pool.download(region, all, current, previous);
  EXPECT_EQ(current, tiles_at(history[19], layout, all));
  EXPECT_EQ(previous, tiles_at(history[18], layout, all));
  EXPECT_EQ(pool.activity(region).changed.size(), static_cast<size_t>(to.area()));
  if (other >= 0) {
    std::vector<Tile> untouched(1);
    pool.download(other, owned_coords(bystander), untouched, {});
    EXPECT_TRUE(untouched[0].empty());
  }
}

TEST_P(TilePoolTest, GrowingARegionKeepsItsTilesAndStartsTheNewOnesEmpty) {
  {
    SCOPED_TRACE("plane, on every side");
    auto pool = make_pool();
    check_growth(*pool, Layout{}, {0, 0, 2, 2}, {-1, -2, 5, 4});
  }
  {
    SCOPED_TRACE("plane, one side");
    auto pool = make_pool();
    check_growth(*pool, Layout{}, {0, 0, 2, 2}, {0, 0, 3, 2});
  }
  {
    SCOPED_TRACE("torus, across its edges");
    auto pool = make_pool();
    check_growth(*pool, Layout{10, 9}, {9, 8, 2, 2}, {8, 7, 4, 3});
  }
  {
    SCOPED_TRACE("torus, into the whole torus");
    auto pool = make_pool();
    check_growth(*pool, Layout{6, 5}, {1, 1, 2, 2}, {0, 0, 6, 5});
  }
}

// The ring holds only what was uploaded for the epoch: after an epoch the
// old ring is gone, and stepping again sees dead tiles there.
TEST_P(TilePoolTest, QueuedDownloadsReadTheTilesBeforeTheNextEpoch) {
  auto pool = make_pool();
  const Layout plane;
  pool->reset(Rule::conway(), 0, 0);
  const TileRect a{0, 0, 3, 2};
  const TileRect b{5, 1, 2, 2};
  const std::vector<CellSet> history =
      reference_history(random_tiles({-2, -2, 11, 7}, 43), Rule::conway(), {}, 12);
  std::vector<int> ids;
  for (const TileRect& r : {a, b}) {
    ids.push_back(pool->add_region(r));
    const std::vector<TileCoord> owned = owned_coords(r);
    pool->upload(ids.back(), owned, tiles_at(history[1], plane, owned),
                 tiles_at(history[0], plane, owned));
    const std::vector<TileCoord> ring = ring_coords(r);
    pool->upload(ids.back(), ring, tiles_at(history[1], plane, ring), {});
  }
  pool->step_async(2);
  pool->wait();
  // Queued at generation 3 (both regions, with and without t-1); the next
  // epoch is launched before they are collected, and runs on.
  const std::vector<TileCoord> owned_a = owned_coords(a);
  const std::vector<TileCoord> owned_b = owned_coords(b);
  std::vector<Tile> current_a(owned_a.size());
  std::vector<Tile> previous_a(owned_a.size());
  std::vector<Tile> current_b(owned_b.size());
  const RegionActivity expected_b = pool->activity(ids[1]);
  pool->download_async(ids[0], owned_a, current_a, previous_a);
  pool->download_async(ids[1], owned_b, current_b, {});
  RegionActivity activity_b;
  pool->activity_async(ids[1], activity_b);
  pool->step_async(5);
  pool->finish_downloads();
  pool->wait();
  // The activity as the first epoch left it, not the second's.
  EXPECT_EQ(activity_b.changed, expected_b.changed);
  EXPECT_EQ(activity_b.nonempty, expected_b.nonempty);
  EXPECT_EQ(activity_b.population, expected_b.population);
  uint64_t population_b = 0;
  for (const TileCoord& c : owned_b) population_b += tile_at(history[3], plane, c).population();
  EXPECT_EQ(activity_b.population, population_b);
  EXPECT_NE(pool->activity(ids[1]).population, activity_b.population) << "the second epoch ran";
  // The rings went up at generation 1, so the owned tiles are exact at 3.
  EXPECT_EQ(current_a, tiles_at(history[3], plane, owned_a));
  EXPECT_EQ(previous_a, tiles_at(history[2], plane, owned_a));
  EXPECT_EQ(current_b, tiles_at(history[3], plane, owned_b));
  std::vector<Tile> later(owned_a.size());
  pool->download(ids[0], owned_a, later, {});
  EXPECT_NE(later, current_a) << "the second epoch ran";
}

TEST_P(TilePoolTest, EachEpochDropsTheRing) {
  auto pool = make_pool();
  const Layout plane;
  pool->reset(Rule::conway(), 0, 0);
  const TileRect owned{0, 0, 2, 2};
  const int region = pool->add_region(owned);
  const CellSet world = random_tiles(grown(owned, 1), 51);
  const std::vector<TileCoord> coords = owned_coords(owned);
  const std::vector<TileCoord> ring = ring_coords(owned);
  pool->upload(region, coords, tiles_at(world, plane, coords), {});
  pool->upload(region, ring, tiles_at(world, plane, ring), {});
  pool->step_async(20);
  pool->wait();

  std::vector<Tile> after_first(coords.size());
  pool->download(region, coords, after_first, {});
  CellSet owned_only;
  for (size_t i = 0; i < coords.size(); ++i) owned_only.put_tile(coords[i], after_first[i]);
  const std::vector<CellSet> expected = reference_history(owned_only, Rule::conway(), {}, 25);
  pool->step_async(25);
  pool->wait();
  std::vector<Tile> after_second(coords.size());
  pool->download(region, coords, after_second, {});
  EXPECT_EQ(after_second, tiles_at(expected[25], plane, coords));
}

TEST_P(TilePoolTest, StatsCountTransfersAndWork) {
  auto pool = make_pool();
  pool->reset(Rule::conway(), 0, 0);
  const TileRect owned{0, 0, 3, 2};
  const int region = pool->add_region(owned);
  const std::vector<TileCoord> coords = owned_coords(owned);
  const std::vector<TileCoord> ring = ring_coords(owned);
  const std::vector<Tile> tiles(coords.size());
  const std::vector<Tile> ring_tiles(ring.size());
  pool->upload(region, coords, tiles, tiles);          // 6 tiles, each with t-1
  pool->upload(region, ring, ring_tiles, ring_tiles);  // 14 tiles, no history kept
  constexpr uint64_t kStaged = sizeof(Tile) + 4;
  EXPECT_EQ(pool->stats().bytes_uploaded, (12 + 14) * kStaged);
  pool->step_async(5);
  pool->wait();
  pool->step_async(32);
  pool->wait();
  std::vector<Tile> current(coords.size());
  std::vector<Tile> previous(coords.size());
  pool->download(region, coords, current, previous);  // 12 tiles down, their slots up
  pool->download(region, coords, current, {});        // 6 more
  pool->activity(region);                             // 6 flags and a population
  const TilePoolStats stats = pool->stats();
  EXPECT_EQ(stats.bytes_uploaded, (12 + 14) * kStaged + 18 * 4);
  EXPECT_EQ(stats.bytes_downloaded, 18 * sizeof(Tile) + 6 * 4 + 8);
  EXPECT_EQ(stats.epochs, 2u);
  EXPECT_GE(stats.cells_computed, uint64_t{5 * 4 * 37} * kTileSize * kTileSize);
  EXPECT_GT(stats.device_seconds, 0.0);
  pool->reset(Rule::conway(), 0, 0);
  EXPECT_EQ(pool->stats().epochs, 0u);
  EXPECT_EQ(pool->stats().bytes_uploaded, 0u);
}

using TilePoolDeathTest = TilePoolTest;

TEST_P(TilePoolDeathTest, RefusesMisuse) {
  auto pool = make_pool();
  pool->reset(Rule::conway(), 8, 8);
  const int region = pool->add_region({0, 0, 2, 2});
  // Rings may not hold another region's owned tiles, also across the wrap.
  EXPECT_DEATH(pool->add_region({2, 0, 2, 2}), "regions_conflict");
  EXPECT_DEATH(pool->add_region({7, 7, 1, 1}), "regions_conflict");
  // A ring that would close around the torus, and coordinates off the torus.
  EXPECT_DEATH(pool->add_region({3, 3, 7, 2}), "internal check failed");
  EXPECT_DEATH(pool->add_region({8, 0, 1, 1}), "internal check failed");
  // Outside the rectangle+ring; ring tiles cannot be read.
  const std::vector<Tile> one(1);
  std::vector<Tile> out(1);
  EXPECT_DEATH(pool->upload(region, std::vector<TileCoord>{{3, 0}}, one, {}), "position");
  EXPECT_DEATH(pool->download(region, std::vector<TileCoord>{{2, 0}}, out, {}), "is_owned");
  EXPECT_DEATH(pool->step_async(kMaxEpochGenerations + 1), "generations");
  // Nothing but stats between an epoch's start and its wait.
  pool->step_async(1);
  EXPECT_DEATH(pool->download(region, std::vector<TileCoord>{{0, 0}}, out, {}), "pending");
  EXPECT_DEATH(pool->step_async(1), "pending");
  pool->wait();
  pool->download(region, std::vector<TileCoord>{{0, 0}}, out, {});
}

INSTANTIATE_TEST_SUITE_P(Pools, TilePoolTest,
                         ::testing::Values(PoolKind::kStandin, PoolKind::kCuda), kind_name);
INSTANTIATE_TEST_SUITE_P(Pools, TilePoolDeathTest,
                         ::testing::Values(PoolKind::kStandin, PoolKind::kCuda), kind_name);

TEST(TilePoolFactory, TheCudaPoolWhereADeviceIsUsable) {
  EXPECT_EQ(make_tile_pool(true)->name(), "cpu-standin");
  EXPECT_EQ(make_tile_pool()->name(), device_available() ? "cuda" : "cpu-standin");
}

}  // namespace
}  // namespace gol::gpu
