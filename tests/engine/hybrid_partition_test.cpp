// The hybrid scheduler's planning: rectangles on plane and torus, clusters
// of active tiles, the cost model's calibration, and which regions a
// partition pass keeps, releases and adds.
#include "engine/hybrid_partition.h"

#include <gtest/gtest.h>

#include <vector>

namespace gol::hybrid {
namespace {

using gpu::TileRect;

const TorusTiles kPlane{};

// Every tile of `rect` (unwrapped), as active tiles.
std::vector<TileCoord> filled(const TileRect& rect) {
  std::vector<TileCoord> tiles;
  for (int64_t ty = rect.ty; ty < rect.ty + rect.height; ++ty) {
    for (int64_t tx = rect.tx; tx < rect.tx + rect.width; ++tx) tiles.push_back({tx, ty});
  }
  return tiles;
}

ActivityBlocks blocks_of(const std::vector<TileCoord>& active, const TorusTiles& torus = kPlane) {
  ActivityBlocks blocks(8, torus);
  for (const TileCoord& tile : active) blocks.add(tile);
  return blocks;
}

std::vector<TileCoord> joined(std::vector<TileCoord> a, const std::vector<TileCoord>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(HybridRects, ConflictMeansNoTileBetween) {
  EXPECT_TRUE(rects_conflict({0, 0, 2, 2}, {2, 0, 2, 2}, kPlane));   // side by side
  EXPECT_TRUE(rects_conflict({0, 0, 2, 2}, {2, 2, 2, 2}, kPlane));   // corner to corner
  EXPECT_FALSE(rects_conflict({0, 0, 2, 2}, {3, 0, 2, 2}, kPlane));  // one tile apart
  EXPECT_FALSE(rects_conflict({0, 0, 2, 2}, {3, 3, 1, 1}, kPlane));
  // Across a torus's seam: columns 9 and 0 of ten touch.
  const TorusTiles torus{10, 8};
  EXPECT_TRUE(rects_conflict({8, 0, 2, 2}, {0, 0, 2, 2}, torus));
  EXPECT_FALSE(rects_conflict({7, 0, 2, 2}, {0, 0, 2, 2}, torus));
  EXPECT_TRUE(rects_conflict({0, 7, 1, 1}, {0, 0, 1, 1}, torus));
}

TEST(HybridRects, CoverWrapsTheShortWayOnATorus) {
  const TorusTiles torus{10, 8};
  EXPECT_EQ(rect_cover({8, 1, 2, 1}, {0, 1, 1, 2}, torus), (TileRect{8, 1, 3, 2}));
  EXPECT_EQ(rect_cover({1, 1, 2, 1}, {5, 6, 1, 2}, torus), (TileRect{1, 6, 5, 4}));
  EXPECT_EQ(rect_cover({1, 1, 2, 1}, {5, 6, 1, 2}, kPlane), (TileRect{1, 1, 5, 7}));
  EXPECT_TRUE(rect_contains({8, 0, 4, 2}, TileCoord{1, 1}, torus));
  EXPECT_FALSE(rect_contains({8, 0, 4, 2}, TileCoord{2, 1}, torus));
  EXPECT_TRUE(rect_contains({8, 0, 4, 2}, TileRect{9, 0, 2, 1}, torus));
}

TEST(HybridRects, ARingThatWouldMeetItselfMakesTheWholeTorus) {
  const TorusTiles torus{10, 8};
  EXPECT_EQ(fit_to_torus({12, -1, 8, 3}, torus), (TileRect{2, 7, 8, 3}));
  EXPECT_EQ(fit_to_torus({2, 2, 9, 3}, torus), (TileRect{0, 0, 10, 8}));
  EXPECT_EQ(fit_to_torus({2, 2, 3, 7}, torus), (TileRect{0, 0, 10, 8}));
  EXPECT_EQ(fit_to_torus({-5, 2, 9, 3}, kPlane), (TileRect{-5, 2, 9, 3}));
}

ClusterOptions options_with_margin(int64_t margin) {
  ClusterOptions options;
  options.margin = margin;
  options.margin_fraction = 0;
  options.min_fill = 0;
  return options;
}

bool same_blocks(const ActivityBlocks& a, const ActivityBlocks& b) {
  if (a.blocks().size() != b.blocks().size()) return false;
  for (const auto& [key, block] : a.blocks()) {
    const auto it = b.blocks().find(key);
    if (it == b.blocks().end() || it->second.count != block.count ||
        a.tight_rect(key, block) != b.tight_rect(key, it->second)) {
      return false;
    }
  }
  return true;
}

TEST(HybridClusters, RegionFlagsCountLikeTheirTiles) {
  const TorusTiles torus{64, 48};
  // On the plane across negative coordinates, on a torus within it and
  // across its seam.
  for (const auto& [rect, shape] :
       {std::pair{TileRect{-13, -5, 29, 11}, kPlane}, std::pair{TileRect{3, 9, 40, 20}, torus},
        std::pair{TileRect{58, 40, 12, 13}, torus}}) {
    std::vector<uint8_t> flags(static_cast<size_t>(rect.area()));
    for (size_t i = 0; i < flags.size(); ++i) flags[i] = (i * 7919 % 11) < 4;
    ActivityBlocks by_region(8, shape);
    by_region.add_flags(rect, flags);
    ActivityBlocks by_tile(8, shape);
    for (int64_t dy = 0; dy < rect.height; ++dy) {
      for (int64_t dx = 0; dx < rect.width; ++dx) {
        if (!flags[static_cast<size_t>(dy * rect.width + dx)]) continue;
        TileCoord tile{rect.tx + dx, rect.ty + dy};
        if (shape.is_torus()) tile = {wrap(tile.tx, shape.x), wrap(tile.ty, shape.y)};
        by_tile.add(tile);
      }
    }
    EXPECT_TRUE(same_blocks(by_region, by_tile)) << rect.tx << "," << rect.ty;
  }
}

TEST(HybridClusters, DenseBlobsBecomeRectanglesWithAMargin) {
  // Two blobs far apart and a scatter of single tiles (never dense).
  std::vector<TileCoord> active = joined(filled({0, 0, 10, 6}), filled({100, -50, 4, 4}));
  for (int64_t i = 0; i < 20; ++i) active.push_back({-200 + 9 * i, 300});
  std::vector<Cluster> clusters = find_clusters(blocks_of(active), kPlane, options_with_margin(2));
  ASSERT_EQ(clusters.size(), 2u);
  std::sort(clusters.begin(), clusters.end(),
            [](const Cluster& a, const Cluster& b) { return a.rect.tx < b.rect.tx; });
  EXPECT_EQ(clusters[0].rect, (TileRect{-2, -2, 14, 10}));
  EXPECT_EQ(clusters[0].active_tiles, 60);
  EXPECT_EQ(clusters[1].rect, (TileRect{98, -52, 8, 8}));
  EXPECT_EQ(clusters[1].active_tiles, 16);
}

TEST(HybridClusters, LargeClustersGetMarginsInProportion) {
  ClusterOptions options;
  options.margin = 2;
  options.margin_fraction = 1.0 / 16;
  const std::vector<Cluster> large =
      find_clusters(blocks_of(filled({0, 0, 256, 64})), kPlane, options);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].rect, (TileRect{-16, -4, 288, 72}));
  const std::vector<Cluster> small =
      find_clusters(blocks_of(filled({0, 0, 16, 8})), kPlane, options);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].rect, (TileRect{-2, -2, 20, 12}));
}

TEST(HybridClusters, ThinLinesOfActivityStayOnTheCpu) {
  // A diagonal band three tiles wide, like a glider stream: dense blocks
  // all along it, but most of its square empty.
  std::vector<TileCoord> stream;
  for (int64_t i = 0; i < 64; ++i) {
    for (int64_t w = 0; w < 3; ++w) stream.push_back({i + w, i});
  }
  EXPECT_TRUE(find_clusters(blocks_of(stream), kPlane, {}).empty());
  EXPECT_EQ(find_clusters(blocks_of(stream), kPlane, options_with_margin(2)).size(), 1u);
}

TEST(HybridClusters, BlobsTooCloseForTwoRegionsMerge) {
  // In blocks 0 and 2, 11 tiles apart: margins of 6 leave no tile between
  // their rectangles, margins of 5 leave one.
  const std::vector<TileCoord> active = joined(filled({0, 0, 8, 8}), filled({19, 0, 8, 8}));
  const std::vector<Cluster> merged =
      find_clusters(blocks_of(active), kPlane, options_with_margin(6));
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].rect, (TileRect{-6, -6, 39, 20}));
  EXPECT_EQ(merged[0].active_tiles, 128);
  EXPECT_EQ(find_clusters(blocks_of(active), kPlane, options_with_margin(5)).size(), 2u);
}

TEST(HybridClusters, WrapAroundATorusOrBecomeIt) {
  const TorusTiles torus{64, 48};
  // A blob across the corner where the torus's edges meet.
  const std::vector<TileCoord> corner =
      joined(joined(filled({60, 44, 4, 4}), filled({0, 44, 4, 4})),
             joined(filled({60, 0, 4, 4}), filled({0, 0, 4, 4})));
  const std::vector<Cluster> clusters =
      find_clusters(blocks_of(corner, torus), torus, options_with_margin(1));
  ASSERT_EQ(clusters.size(), 1u);
  EXPECT_EQ(clusters[0].rect, (TileRect{59, 43, 10, 10}));
  // A band round the torus: the whole torus.
  const std::vector<Cluster> band =
      find_clusters(blocks_of(filled({0, 10, 64, 8}), torus), torus, options_with_margin(2));
  ASSERT_EQ(band.size(), 1u);
  EXPECT_EQ(band[0].rect, (TileRect{0, 0, 64, 48}));
}

CostModel simple_costs() {
  return {.cpu_ns_per_tile = 10,
          .gpu_overhead_ns = 1000,
          .gpu_ns_per_tile = 0.5,
          .transfer_ns_per_byte = 0,
          .cpu_generation_ns = 3000};
}

TEST(HybridCosts, GpuEpochCountsTheRingTheAwakeGhostsAndTheBus) {
  CostModel costs = simple_costs();
  // 4 x 3 owned: 6 x 5 stepped, 10 ghosts of which 7 awake.
  EXPECT_DOUBLE_EQ(costs.gpu_epoch_ns({0, 0, 4, 3}, kPlane, 2, 7),
                   1000 + 30 * 2 * 0.5 + 7 * 2 * 10);
  costs.transfer_ns_per_byte = 1;
  // Ring (18 tiles) up, all ghosts (10) down twice, 516 bytes a tile.
  EXPECT_DOUBLE_EQ(costs.gpu_epoch_ns({0, 0, 4, 3}, kPlane, 2, 0),
                   1000 + 30 * 2 * 0.5 + (18 + 20) * 516.0);
  // The whole torus has neither ring nor ghosts.
  EXPECT_DOUBLE_EQ(costs.gpu_epoch_ns({0, 0, 4, 3}, {4, 3}, 2, 0), 1000 + 12 * 2 * 0.5);
  EXPECT_DOUBLE_EQ(costs.cpu_epoch_ns(7, 3), 7 * 3 * 10.0);
  // The host's work, once a region and epoch either way.
  costs.host_ns_per_region = 40;
  EXPECT_DOUBLE_EQ(costs.gpu_epoch_ns({0, 0, 4, 3}, {4, 3}, 2, 0), 1040 + 12 * 2 * 0.5);
  EXPECT_DOUBLE_EQ(costs.gpu_epoch_ns({0, 0, 4, 3}, kPlane, 2, 0),
                   1040 + 30 * 2 * 0.5 + (18 + 20) * 516.0);
  CostCalibration calibration(costs);
  for (int i = 0; i < 60; ++i) calibration.observe_region_host(3 * 58e-6, 3);
  EXPECT_NEAR(calibration.model().host_ns_per_region, 58e3, 1);
}

TEST(HybridCosts, TheCpuSideCostsItsGenerationsOnlyWithTilesToStep) {
  const CostModel costs = simple_costs();
  EXPECT_DOUBLE_EQ(costs.cpu_side_ns(0, 32), 0);
  EXPECT_DOUBLE_EQ(costs.cpu_side_ns(3, 2), 3000 * 2 + 3 * 2 * 10);
}

TEST(HybridCosts, GrowingInPlaceIsPricedApartFromWholeMoves) {
  CostModel costs = simple_costs();
  costs.migrate_ns_per_tile = 100;
  costs.grow_ns_per_tile = 10;
  const std::vector<TileRect> one = {{0, 0, 10, 10}};
  const std::vector<TileRect> two = {{0, 0, 10, 10}, {12, 0, 4, 5}};
  // One region grows by the 44 tiles it gains; two merge through the bus.
  EXPECT_DOUBLE_EQ(costs.move_ns({-1, -1, 12, 12}, one), 44 * 10);
  EXPECT_DOUBLE_EQ(costs.move_ns({0, 0, 16, 10}, two), (160 + 100 + 20) * 100);
  EXPECT_DOUBLE_EQ(costs.move_ns({0, 0, 3, 3}, {}), 9 * 100);
  CostCalibration calibration(costs);
  for (int i = 0; i < 40; ++i) calibration.observe_growth(20000 * 30e-9, 20000);
  EXPECT_NEAR(calibration.model().grow_ns_per_tile, 30, 0.1);
  EXPECT_DOUBLE_EQ(calibration.model().migrate_ns_per_tile, 100);
}

TEST(HybridCosts, CalibrationFollowsWhatEpochsCost) {
  CostCalibration calibration(simple_costs());
  // CPU truth: 4000 ns a generation and 20 ns a tile; a few tiles a
  // generation teach the former, thousands the latter.
  for (int i = 0; i < 60; ++i) {
    calibration.observe_cpu((32 * 4000.0 + 20.0 * 32 * 5000) * 1e-9, 32, 32 * 5000);
    calibration.observe_cpu((32 * 4000.0 + 20.0 * 32 * 10) * 1e-9, 32, 32 * 10);
  }
  EXPECT_NEAR(calibration.model().cpu_ns_per_tile, 20, 0.01);
  EXPECT_NEAR(calibration.model().cpu_generation_ns, 4000, 10);
  // Large epochs teach the cost per tile, small ones the overhead: truth
  // is 3000 ns a region and 2 ns a tile.
  for (int i = 0; i < 60; ++i) {
    calibration.observe_gpu((3000.0 + 2.0 * 1e6) * 1e-9, 1000000, 1);
    calibration.observe_gpu((2 * 3000.0 + 2.0 * 100) * 1e-9, 100, 2);
  }
  EXPECT_NEAR(calibration.model().gpu_ns_per_tile, 2, 0.01);
  EXPECT_NEAR(calibration.model().gpu_overhead_ns, 3000, 10);
}

TEST(HybridCosts, LargeCpuStepsAreChargedToTheirTiles) {
  // Only large steps, whose cost the model first puts mostly in the
  // generation (10 ns a tile, 3000 a generation): truth is 80 ns a tile and
  // 2000 a generation, and the tiles must carry it.
  CostCalibration calibration(simple_costs());
  for (int i = 0; i < 60; ++i) {
    const double tiles = 32.0 * (i % 2 == 0 ? 900 : 1100);
    calibration.observe_cpu((32 * 2000.0 + 80.0 * tiles) * 1e-9, 32, static_cast<uint64_t>(tiles));
  }
  EXPECT_NEAR(calibration.model().cpu_ns_per_tile, 80, 2);
  EXPECT_DOUBLE_EQ(calibration.model().cpu_generation_ns, 3000);
}

PartitionOptions no_minimum_age() {
  PartitionOptions options;
  options.min_epochs_held = 0;
  return options;
}

TEST(HybridPlan, DenseClustersGoToTheGpuAndSparseOnesStay) {
  const std::vector<TileCoord> active = joined(filled({0, 0, 40, 40}), filled({100, 0, 2, 2}));
  const std::vector<Cluster> clusters = find_clusters(blocks_of(active), kPlane, {});
  const PartitionPlan plan = plan_partition({}, clusters, blocks_of(active), simple_costs(), 32,
                                            kPlane, PartitionOptions{});
  EXPECT_TRUE(plan.release.empty());
  ASSERT_EQ(plan.add.size(), 1u);
  EXPECT_EQ(plan.add[0], (TileRect{-2, -2, 44, 44}));
}

TEST(HybridPlan, AClusterLeavingTheCpuAFewTilesSavesItsGenerationsToo) {
  // 400 dense tiles whose steps alone, at half a nanosecond each, do not
  // pay for the GPU's epoch; the CPU's generations (3000 ns each) do,
  // where the region leaves the CPU fewer than 64 active tiles.
  CostModel costs = simple_costs();
  costs.cpu_ns_per_tile = 0.5;
  const auto adds = [&](int scattered) {
    std::vector<TileCoord> active = filled({0, 0, 20, 20});
    for (int i = 0; i < scattered; ++i) active.push_back({1000 + 20 * i, 1000});
    const std::vector<Cluster> clusters = find_clusters(blocks_of(active), kPlane, {});
    EXPECT_EQ(clusters.size(), 1u) << "the scattered tiles make no cluster";
    return plan_partition({}, clusters, blocks_of(active), costs, 32, kPlane, PartitionOptions{})
        .add.size();
  };
  EXPECT_EQ(adds(0), 1u);
  EXPECT_EQ(adds(63), 1u);
  EXPECT_EQ(adds(64), 0u);
  costs.cpu_generation_ns = 0;
  EXPECT_EQ(adds(0), 0u);
}

TEST(HybridPlan, RegionsReturnAsleepAtOnceAndSparseOnlyWhenOldEnough) {
  const CostModel costs = simple_costs();
  const std::vector<HeldRegion> held = {
      {{0, 0, 40, 40}, 0, 0, 1},      // asleep
      {{100, 0, 40, 40}, 5, 0, 1},    // sparse but young
      {{200, 0, 40, 40}, 5, 0, 9},    // sparse and old
      {{300, 0, 40, 40}, 800, 50, 9}  // busy
  };
  const PartitionPlan plan =
      plan_partition(held, {}, blocks_of({}), costs, 32, kPlane, PartitionOptions{});
  EXPECT_EQ(plan.release, (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(plan.add.empty());
  // Hysteresis: a region as busy as a new one needs is kept, and one that
  // a new cluster would not justify is kept too while it pays half its way.
  const double busy_enough = costs.gpu_epoch_ns({0, 0, 40, 40}, kPlane, 32, 20) /
                             costs.cpu_epoch_ns(1, 32) / PartitionOptions{}.keep_ratio;
  const auto keeps = [&](int64_t changed) {
    const HeldRegion region{{0, 0, 40, 40}, changed, 20, 9};
    return plan_partition({&region, 1}, {}, blocks_of({}), costs, 32, kPlane, no_minimum_age())
        .release.empty();
  };
  EXPECT_TRUE(keeps(static_cast<int64_t>(busy_enough) + 1));
  EXPECT_FALSE(keeps(static_cast<int64_t>(busy_enough) - 1));
}

TEST(HybridPlan, ASparseRegionStaysWhileTheCpuIsTheLongerSide) {
  CostModel costs = simple_costs();
  costs.cpu_generation_ns = 0;
  const HeldRegion sparse{{0, 0, 40, 40}, 5, 0, 9};
  const auto released = [&](const std::vector<TileCoord>& cpu_tiles) {
    std::vector<TileCoord> active = cpu_tiles;
    for (int64_t i = 0; i < sparse.changed_tiles; ++i) active.push_back({10 + i, 10});
    return plan_partition({&sparse, 1}, {}, blocks_of(active), costs, 32, kPlane,
                          PartitionOptions{})
               .release.size() == 1;
  };
  // With the CPU idle, or busy but shorter than the region's epoch, the
  // sparse region goes back.
  EXPECT_TRUE(released({}));
  EXPECT_TRUE(released({{500, 500}}));
  // 200 CPU tiles (64 us an epoch) outlast the region (about 29 us): its
  // five tiles would only lengthen the CPU's side.
  std::vector<TileCoord> busy;
  for (int64_t i = 0; i < 200; ++i) busy.push_back({500 + i % 20, 500 + i / 20});
  EXPECT_FALSE(released(busy));
}

TEST(HybridPlan, ActivityInsideARegionChangesNothingAndBeyondItGrowsIt) {
  const CostModel costs = simple_costs();
  const HeldRegion region{{0, 0, 20, 20}, 400, 0, 3};
  const std::vector<TileCoord> inside = filled({4, 4, 10, 10});
  const std::vector<Cluster> inside_clusters = find_clusters(blocks_of(inside), kPlane, {});
  const PartitionPlan same = plan_partition({&region, 1}, inside_clusters, blocks_of(inside), costs,
                                            32, kPlane, no_minimum_age());
  EXPECT_TRUE(same.release.empty());
  EXPECT_TRUE(same.add.empty());
  // A dense blob just beyond the east edge: the region is replaced by one
  // covering both.
  const std::vector<TileCoord> both = joined(inside, filled({22, 0, 16, 16}));
  const std::vector<Cluster> clusters = find_clusters(blocks_of(both), kPlane, {});
  const PartitionPlan grown =
      plan_partition({&region, 1}, clusters, blocks_of(both), costs, 32, kPlane, no_minimum_age());
  EXPECT_EQ(grown.release, (std::vector<size_t>{0}));
  ASSERT_EQ(grown.add.size(), 1u);
  // The cover of both (0, -2, 40 x 22), grown by an eighth of its side.
  EXPECT_EQ(grown.add[0], (TileRect{-5, -4, 50, 26}));
}

TEST(HybridPlan, StragglersJoinTheNearestRegionWhenThatSparesTheCpuItsGenerations) {
  const HeldRegion region{{0, 0, 40, 40}, 800, 0, 9};
  const std::vector<TileCoord> inside = filled({5, 5, 30, 30});
  // A glider's two tiles just east of the region, too thin for a cluster.
  const std::vector<TileCoord> active = joined(inside, {{45, 20}, {46, 20}});
  const std::vector<Cluster> clusters = find_clusters(blocks_of(active), kPlane, {});
  const auto plan_with = [&](const CostModel& costs) {
    return plan_partition({&region, 1}, clusters, blocks_of(active), costs, 32, kPlane,
                          no_minimum_age());
  };
  // The CPU's generations cost 3000 ns each: growing the region over the
  // glider (and an eighth of its side beyond) is cheaper.
  const PartitionPlan grown = plan_with(simple_costs());
  EXPECT_EQ(grown.release, (std::vector<size_t>{0}));
  ASSERT_EQ(grown.add.size(), 1u);
  EXPECT_EQ(grown.add[0], (TileRect{-5, -5, 57, 50}));
  // Two tiles alone are cheap on the CPU when its generations cost nothing.
  CostModel free_generations = simple_costs();
  free_generations.cpu_generation_ns = 0;
  const PartitionPlan kept = plan_with(free_generations);
  EXPECT_TRUE(kept.release.empty());
  EXPECT_TRUE(kept.add.empty());
  // Nor is a region grown when the move would not pay for itself.
  CostModel dear_moves = simple_costs();
  dear_moves.grow_ns_per_tile = 1e6;
  EXPECT_TRUE(plan_with(dear_moves).add.empty());
}

TEST(HybridPlan, FarStragglersStayOnTheCpu) {
  const HeldRegion region{{0, 0, 40, 40}, 800, 0, 9};
  const std::vector<TileCoord> active = joined(filled({5, 5, 30, 30}), {{1000, 20}});
  const std::vector<Cluster> clusters = find_clusters(blocks_of(active), kPlane, {});
  const PartitionPlan plan = plan_partition({&region, 1}, clusters, blocks_of(active),
                                            simple_costs(), 32, kPlane, no_minimum_age());
  EXPECT_TRUE(plan.release.empty());
  EXPECT_TRUE(plan.add.empty());
}

TEST(HybridPlan, StragglersNearARegionJoinItWhenTheCpuIsTheLongerSide) {
  const HeldRegion region{{0, 0, 40, 40}, 800, 0, 9};
  // A glider's two tiles within an eighth of the region's side, and a ship
  // far off: taking both would grow the region some thirty times over.
  const std::vector<TileCoord> active =
      joined(filled({5, 5, 30, 30}), {{42, 20}, {43, 20}, {1000, 20}});
  const std::vector<Cluster> clusters = find_clusters(blocks_of(active), kPlane, {});
  const auto plan_with = [&](const CostModel& costs) {
    return plan_partition({&region, 1}, clusters, blocks_of(active), costs, 32, kPlane,
                          no_minimum_age());
  };
  // A CPU tile dearer than the region's growth: the near pair joins (the
  // cover of region and pair, grown by an eighth of its side), the ship
  // stays on the CPU.
  CostModel dear_cpu_tiles = simple_costs();
  dear_cpu_tiles.cpu_generation_ns = 0;
  dear_cpu_tiles.cpu_ns_per_tile = 2000;
  const PartitionPlan grown = plan_with(dear_cpu_tiles);
  EXPECT_EQ(grown.release, (std::vector<size_t>{0}));
  ASSERT_EQ(grown.add.size(), 1u);
  EXPECT_EQ(grown.add[0], (TileRect{-5, -5, 54, 50}));
  // The move (1100 tiles gained) must pay back while gliders cross the new
  // margin (5 tiles: 1280 generations, 40 epochs), saving 128 us an epoch.
  CostModel dear_moves = dear_cpu_tiles;
  dear_moves.grow_ns_per_tile = 4000;  // repaid in 35 epochs
  EXPECT_EQ(plan_with(dear_moves).add.size(), 1u);
  dear_moves.grow_ns_per_tile = 5000;  // in 43
  EXPECT_TRUE(plan_with(dear_moves).add.empty());
  // Where the GPU is already the longer side, growing it only lengthens
  // the epoch.
  CostModel dear_gpu = dear_cpu_tiles;
  dear_gpu.gpu_ns_per_tile = 100;
  const PartitionPlan kept = plan_with(dear_gpu);
  EXPECT_TRUE(kept.release.empty());
  EXPECT_TRUE(kept.add.empty());
}

TEST(HybridPlan, AddedRegionsNeverConflictWithKeptOnes) {
  const CostModel costs = simple_costs();
  const HeldRegion region{{0, 0, 10, 10}, 100, 0, 3};
  // A blob whose region would touch the held one but is not worth growing
  // it (too sparse): it stays on the CPU rather than conflict.
  std::vector<TileCoord> active;
  for (int64_t ty = 0; ty < 8; ++ty) {
    for (int64_t tx = 12; tx < 20; tx += 2) active.push_back({tx, ty});
  }
  // Area on the GPU priced high, so growing the region does not pay.
  CostModel costly_area = costs;
  costly_area.gpu_ns_per_tile = 100;
  const std::vector<Cluster> clusters = find_clusters(blocks_of(active), kPlane, {});
  ASSERT_EQ(clusters.size(), 1u);
  const PartitionPlan plan = plan_partition({&region, 1}, clusters, blocks_of(active), costly_area,
                                            32, kPlane, PartitionOptions{});
  EXPECT_TRUE(plan.add.empty());
  EXPECT_TRUE(plan.release.empty());
}

}  // namespace
}  // namespace gol::hybrid
