// A busy torus a block of generations per sweep (see torus_blocks.h).
#include "engine/torus_blocks.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <thread>

#include "cpu/simd/tile_step.h"
#include "engine/core/error.h"

namespace gol {
namespace {

// Past this, deeper blocks save little more memory traffic (1/n of it is
// left) or serial planning between blocks. On the dev machine blocks of 32
// took 0.040-0.043 s of the 8192^2 torus's 200 generations where blocks of
// 16 took 0.043-0.047 s, and a 32768^2 torus 0.475-0.500 s for 128
// generations against 0.504-0.516 s; blocks of 64 overflowed its L3 there
// (0.59-0.60 s), where this cap, not the L3's reported size (the whole
// package's 508 MB in its VM), kept the depth (bench/RESULTS.md).
constexpr uint64_t kMaxDepth = 32;
// Bytes a tile row in flight holds in cache per tile: both generations.
constexpr size_t kBytesPerTileInFlight = 2 * sizeof(Tile);
// Tile rows in flight besides one per generation of the block: the rows
// each step reads above and below, and the one the prefetcher brings in.
constexpr uint64_t kRowsInFlightBeyondDepth = 3;

// Spins of a thread with nothing to sweep before it yields its core: a
// facing strip's next row takes microseconds, a preempted thread's time
// slice milliseconds.
constexpr uint32_t kSpinsBeforeYield = 256;

// Where the tile at (row, column) is listed: each row lists columns -1 to
// `columns`, the ends wrapped, so a tile's neighbours are read without
// wrapping.
size_t place(int64_t row, int64_t column, int64_t columns) {
  return static_cast<size_t>(row * (columns + 2) + column + 1);
}

}  // namespace

// One strip and how far its sweep has come. A unit of the sweep is one
// row at one generation of the block (a level); step s takes level j at
// the row s - j + 1 in sweep order, for j = 1..n.
struct TorusBlocks::Strip {
  int64_t first_row = 0;  // the torus row of its top
  int64_t rows = 0;
  bool upward = false;  // swept from its bottom row to its top
  // The strips whose edge rows border this one's first and last swept rows.
  const Strip* first_facing = nullptr;
  const Strip* last_facing = nullptr;
  // The levels done at its first and last swept rows, which the strips
  // facing them wait on (a line of their own: waiting threads read it).
  alignas(64) std::atomic<uint64_t> first_level{0};
  std::atomic<uint64_t> last_level{0};
  // Held by the thread sweeping it; a thread whose own strip waits may
  // take another, so a block never depends on how many threads run it.
  alignas(64) std::atomic<bool> claimed{false};
  std::atomic<bool> finished{false};  // written under the claim
  // The next unit, read and written only under the claim.
  int64_t step = 0;
  uint64_t level = 1;

  int64_t torus_row(int64_t swept) const {
    return upward ? first_row + rows - 1 - swept : first_row + swept;
  }
};

TorusBlocks::TorusBlocks() = default;
TorusBlocks::~TorusBlocks() = default;

uint64_t TorusBlocks::depth_for(int64_t tiles_x, uint64_t remaining, size_t cache_bytes) {
  const size_t row_bytes = static_cast<size_t>(tiles_x) * kBytesPerTileInFlight;
  const uint64_t rows = cache_bytes / row_bytes;
  if (rows <= kRowsInFlightBeyondDepth) return 0;
  return std::min({rows - kRowsInFlightBeyondDepth, kMaxDepth, remaining});
}

uint64_t TorusBlocks::choose_depth(int64_t tiles_x, uint64_t remaining, size_t core_bytes,
                                   size_t shared_bytes) {
  return std::max(depth_for(tiles_x, remaining, core_bytes),
                  depth_for(tiles_x, remaining, shared_bytes));
}

size_t TorusBlocks::shared_cache_bytes() {
  const long reported = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return reported > 0 ? static_cast<size_t>(reported) : 0;
}

size_t TorusBlocks::core_cache_bytes() {
  // Without an answer, the smallest L2 of the machines this runs on.
  constexpr size_t kFallback = size_t{512} << 10;
  const long reported = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return reported > 0 ? static_cast<size_t>(reported) : kFallback;
}

int64_t TorusBlocks::strip_count(int64_t tiles_y, int threads) {
  if (tiles_y == 1) return 1;
  const int64_t even_threads = std::max<int64_t>(threads, 1) + (threads & 1);
  return std::min(even_threads, tiles_y & ~int64_t{1});
}

// A block's sweep of every strip, shared by the threads running it.
struct TorusBlocks::Sweep {
  sparse::SparseGrid& grid;
  const Rule& rule;
  cpu::SimdLibrary library;
  uint64_t depth;
  uint64_t start;  // the block's first generation, t
  int64_t columns;
  int64_t rows;
  const std::vector<Tile*> (&tiles)[2];
  std::span<const int32_t> slots;
  std::vector<std::unique_ptr<Strip>>& strips;
  std::atomic<size_t> finished{0};

  // Task `task` of `tasks`: its own strip first, others while that waits.
  void run(size_t task, size_t tasks) {
    const size_t count = strips.size();
    const size_t own = task * count / tasks;
    uint32_t idle = 0;
    while (finished.load(std::memory_order_acquire) < count) {
      bool ran = false;
      for (size_t k = 0; k < count && !ran; ++k) {
        Strip& strip = *strips[(own + k) % count];
        // Looked at before the exchange, so that waiting threads do not
        // keep taking the line of a strip another is sweeping.
        if (strip.finished.load(std::memory_order_acquire) ||
            strip.claimed.load(std::memory_order_relaxed) ||
            strip.claimed.exchange(true, std::memory_order_acquire)) {
          continue;
        }
        // Again under the claim: the thread that held it may have finished
        // the strip since, and a strip counted finished twice would end
        // the block with another unswept.
        if (!strip.finished.load(std::memory_order_relaxed)) ran = advance(strip);
        strip.claimed.store(false, std::memory_order_release);
      }
      if (ran) {
        idle = 0;
      } else if (++idle < kSpinsBeforeYield) {
        cpu::spin_pause();
      } else {
        // What we wait for may be a thread the system has taken off its
        // core (more threads than cores, or other work): let it run.
        std::this_thread::yield();
      }
    }
  }

  // Runs the strip's units until one must wait or the sweep ends; returns
  // whether any ran.
  bool advance(Strip& strip) {
    bool ran = false;
    while (strip.step < strip.rows + static_cast<int64_t>(depth) - 1) {
      const int64_t row = strip.step - static_cast<int64_t>(strip.level) + 1;
      if (row >= 0 && row < strip.rows) {
        if (!ready(strip, row, strip.level)) return ran;
        step_row(strip.torus_row(row), strip.level);
        if (row == 0) strip.first_level.store(strip.level, std::memory_order_release);
        if (row == strip.rows - 1) strip.last_level.store(strip.level, std::memory_order_release);
        ran = true;
      }
      if (++strip.level > depth) {
        strip.level = 1;
        ++strip.step;
      }
    }
    strip.finished.store(true, std::memory_order_release);
    finished.fetch_add(1, std::memory_order_acq_rel);
    return true;
  }

  // An edge row's level j reads the facing row at level j - 1 and
  // overwrites level j - 2, which that row read at level j - 1: both wait
  // for the facing row to reach level j - 1. Level 1 reads generation t,
  // which stays until the facing row's level 2, and overwrites t - 1,
  // which nothing reads.
  static bool ready(const Strip& strip, int64_t row, uint64_t level) {
    if (row == 0 && strip.first_facing->first_level.load(std::memory_order_acquire) + 1 < level) {
      return false;
    }
    return row != strip.rows - 1 ||
           strip.last_facing->last_level.load(std::memory_order_acquire) + 1 >= level;
  }

  void step_row(int64_t torus_row, uint64_t level) {
    const int read = static_cast<int>((start + level - 1) & 1);
    const int write = read ^ 1;
    // The last two generations are what the grid keeps: noted, and the
    // last committed, as a generation at a time would.
    const bool noted = level + 1 >= depth;
    const auto row_of = [&](int64_t row) {
      return &tiles[read][place(wrap(row, rows), -1, columns)];
    };
    const Tile* const* north = row_of(torus_row - 1);
    const Tile* const* middle = row_of(torus_row);
    const Tile* const* south = row_of(torus_row + 1);
    Tile* const* const written = &tiles[write][place(torus_row, 0, columns)];
    // The kernel reads each tile's neighbours from the three rows' lists:
    // building nine pointers a tile for it took about 8% of the 8192^2
    // torus's time. A row goes in one call, or in batches whose changes are
    // committed while in cache.
    std::array<TileChange, cpu::kBatchTiles> changes;
    const int64_t batch = noted ? static_cast<int64_t>(cpu::kBatchTiles) : columns;
    for (int64_t first = 0; first < columns; first += batch) {
      const auto count = static_cast<size_t>(std::min(batch, columns - first));
      const cpu::TileRowRun run{north + first, middle + first, south + first};
      cpu::step_tile_row_over(run, written + first, noted ? changes.data() : nullptr, count, rule,
                              library);
      if (!noted) continue;
      const auto index = static_cast<size_t>(torus_row * columns + first);
      if (level == depth) {
        grid.commit_written(index, std::span<const TileChange>(changes.data(), count));
        continue;
      }
      for (size_t i = 0; i < count; ++i) grid.note_written(slots[index + i], write, changes[i]);
    }
  }
};

void TorusBlocks::list_tiles(sparse::SparseGrid& grid) {
  // A torus's tiles keep their buffers from one block to the next, and
  // listing them anew each block took 1.3-1.8 ms of the 8192^2 torus's
  // 50 ms over 200 generations (bench/RESULTS.md).
  if (grid.map().pairs_version() == listed_version_) return;
  const int64_t columns = grid.map().tiles_x();
  const int64_t rows = grid.map().tiles_y();
  const std::span<const int32_t> slots = grid.torus_slots();
  for (int parity = 0; parity < 2; ++parity) {
    tiles_[parity].resize(place(rows, -1, columns));
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t column = -1; column <= columns; ++column) {
        const int32_t slot = slots[static_cast<size_t>(row * columns + wrap(column, columns))];
        tiles_[parity][place(row, column, columns)] = &grid.buffer(parity, slot);
      }
    }
  }
  listed_version_ = grid.map().pairs_version();
}

void TorusBlocks::step(sparse::SparseGrid& grid, const Rule& rule, uint64_t depth,
                       cpu::ParallelTileStepper& workers) {
  GOL_CHECK(depth >= 2 && grid.suits_blocks());
  const int64_t columns = grid.map().tiles_x();
  const int64_t rows = grid.map().tiles_y();
  const std::span<const int32_t> slots = grid.torus_slots();
  list_tiles(grid);
  const auto count = static_cast<size_t>(strip_count(rows, workers.threads()));
  strips_.clear();
  for (size_t s = 0; s < count; ++s) {
    auto strip = std::make_unique<Strip>();
    strip->first_row = rows * static_cast<int64_t>(s) / static_cast<int64_t>(count);
    strip->rows =
        rows * static_cast<int64_t>(s + 1) / static_cast<int64_t>(count) - strip->first_row;
    strip->upward = (s & 1) != 0;
    strips_.push_back(std::move(strip));
  }
  // Alternate strips meet first row to first row and last to last.
  for (size_t s = 0; s < count; ++s) {
    const Strip* before = strips_[(s + count - 1) % count].get();
    const Strip* after = strips_[(s + 1) % count].get();
    strips_[s]->first_facing = strips_[s]->upward ? after : before;
    strips_[s]->last_facing = strips_[s]->upward ? before : after;
  }
  const uint64_t start = grid.generation();
  grid.begin_block(depth);
  Sweep sweep{grid, rule, workers.library(), depth, start, columns, rows, tiles_, slots, strips_};
  const size_t tasks = std::min(count, static_cast<size_t>(workers.threads()));
  workers.run_tasks(tasks, [&](size_t task) { sweep.run(task, tasks); });
  grid.finish_generation();
}

}  // namespace gol
