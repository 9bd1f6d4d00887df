#include "dist/band_run.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <thread>
#include <utility>

#include "dist/band_layout.h"
#include "dist/row_words.h"
#include "engine/core/bit_count.h"
#include "engine/core/error.h"
#include "engine/grid_stepper.h"
#include "sparse/sparse_grid.h"

namespace gol::dist {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What every rank needs to know of the job, as broadcast by the root.
struct JobHeader {
  Rule rule;
  Topology topology;
  uint64_t generations = 0;
  int threads = 0;
  std::string backend;  // resolved: "simd" or "simd-xsimd"
};

// The header as words: empty means "cancelled".
std::vector<uint64_t> encode(const JobHeader& header) {
  return {header.rule.birth,
          header.rule.survival,
          static_cast<uint64_t>(header.topology.width),
          static_cast<uint64_t>(header.topology.height),
          header.generations,
          static_cast<uint64_t>(header.threads)};
}

JobHeader decode(const std::vector<uint64_t>& words, std::string backend) {
  JobHeader header;
  header.rule.birth = static_cast<uint16_t>(words[0]);
  header.rule.survival = static_cast<uint16_t>(words[1]);
  header.topology = Topology::torus(static_cast<int64_t>(words[2]), static_cast<int64_t>(words[3]));
  header.generations = words[4];
  header.threads = static_cast<int>(words[5]);
  header.backend = std::move(backend);
  return header;
}

std::vector<uint64_t> encode(const RankFigures& f) {
  return {static_cast<uint64_t>(f.first_row),
          static_cast<uint64_t>(f.rows),
          f.population,
          f.cells_computed,
          f.exchanges,
          std::bit_cast<uint64_t>(f.step_seconds),
          std::bit_cast<uint64_t>(f.exchange_seconds),
          static_cast<uint64_t>(f.threads)};
}
constexpr size_t kFigureWords = 8;

RankFigures decode_figures(const uint64_t* w) {
  return {static_cast<int64_t>(w[0]),
          static_cast<int64_t>(w[1]),
          w[2],
          w[3],
          w[4],
          std::bit_cast<double>(w[5]),
          std::bit_cast<double>(w[6]),
          static_cast<int>(w[7])};
}

// Ranks on one host share its cores unless told otherwise.
int threads_per_rank(int requested) {
  if (requested > 0) return requested;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / ranks_on_this_host());
}

// Bands are stepped by the sparse SIMD engine (the simd backend's grid and
// stepper), not a dense stepper: soups decay to ash whose tiles sleep, so
// it evaluates a fraction of the cells (4096^2 soup, 3000 generations:
// 28 G cells of the 50 G a dense stepper would), and its grid takes halo
// tiles in place (import_tile), so the band is never reloaded.
std::string resolve_backend(const std::string& requested) {
  if (requested == "auto" || requested == "cpu" || requested == "simd") return "simd";
  if (requested == "simd-xsimd") return requested;
  throw UsageError("--backend " + requested +
                   ": MPI ranks step their bands with the sparse SIMD engine (GPU ranks are not "
                   "built yet); expected --backend auto, cpu, simd or simd-xsimd");
}

cpu::SimdLibrary library_of(const std::string& backend) {
  return backend == "simd-xsimd" ? cpu::SimdLibrary::kXsimd : cpu::SimdLibrary::kHighway;
}

// One rank's band inside its strip, a torus of its own: kHaloRows rows of
// the band above, the band, kHaloRows rows of the band below. The strip's
// first tile row holds the upper halo and the band's first kHaloRows rows,
// its last tile row the band's last kHaloRows rows and the lower halo.
class BandStepper {
 public:
  BandStepper(const JobHeader& header, Band band, const std::vector<uint64_t>& band_words)
      : header_(header),
        band_(band),
        tiles_x_(header.topology.width / kTileSize),
        last_tile_row_(band.rows / kTileSize),
        stepper_(header.threads, library_of(header.backend)) {
    std::vector<uint64_t> strip(static_cast<size_t>(tiles_x_ * (band.rows + 2 * kHaloRows)));
    std::copy(band_words.begin(), band_words.end(), strip.begin() + kHaloRows * tiles_x_);
    grid_.load(unpack_rows(strip, header.topology.width, 0), strip_topology(),
               header.rule.births_on_zero());
    figures_.first_row = band.first_row;
    figures_.rows = band.rows;
    figures_.threads = stepper_.threads();
  }

  // Runs the job's generations, a halo exchange before every round, until
  // done or a signal reaches any rank: all ranks stop after the same round.
  // Once no rank had a tile awake after its last exchange, nor took a
  // changed halo in it, every band repeats with period 1 or 2 from then
  // on, and all ranks pass the rest at once (a still torus asked for 10^12
  // generations exchanged halos every kHaloRows of them). Whether any rank
  // is awake rides on the stop check's maximum, in its lowest bit: a signal
  // anywhere outweighs it, and with none the maximum is whether any is.
  void run(const MpiWorld& world, const StopCheck& stop) {
    bool awake = true;
    while (done_ < header_.generations) {
      const int reduced = world.max_over_ranks(stop() << 1 | (awake ? 1 : 0));
      stopped_by_ = reduced >> 1;
      if (stopped_by_ != 0) return;
      if ((reduced & 1) == 0) {
        step(header_.generations - done_);
        done_ = header_.generations;
        return;
      }
      const uint64_t round = std::min<uint64_t>(kHaloRows, header_.generations - done_);
      awake = swap_halos(world) || !grid_.active().empty();
      step(round);
      done_ += round;
    }
  }
  uint64_t generations_run() const { return done_; }
  int stopped_by() const { return stopped_by_; }

  std::vector<uint64_t> band_words() const {
    const std::vector<uint64_t> strip =
        pack_rows(grid_.cells(), header_.topology.width, 0, band_.rows + 2 * kHaloRows);
    return std::vector<uint64_t>(strip.begin() + kHaloRows * tiles_x_,
                                 strip.begin() + (kHaloRows + band_.rows) * tiles_x_);
  }
  RankFigures figures(const std::vector<uint64_t>& band) const {
    RankFigures figures = figures_;
    for (uint64_t word : band) figures.population += static_cast<uint64_t>(bit_count(word));
    return figures;
  }
  std::string simd_target() const { return cpu::simd_target_name(stepper_.library()); }

 private:
  Topology strip_topology() const {
    return Topology::torus(header_.topology.width, band_.rows + 2 * kHaloRows);
  }

  // kHaloRows rows from `first_row` of each tile of strip tile row `ty`, at
  // generations t and t-1: the grid's sleep and band bookkeeping needs both.
  std::vector<uint64_t> edge_rows(int64_t ty, int first_row) const {
    std::vector<uint64_t> words;
    words.reserve(static_cast<size_t>(tiles_x_ * 2 * kHaloRows));
    const int parity = static_cast<int>(grid_.generation() & 1);
    for (int64_t tx = 0; tx < tiles_x_; ++tx) {
      const int32_t slot = grid_.map().find({tx, ty});
      for (int which : {parity, parity ^ 1}) {
        const Tile& tile = grid_.map().tile(which, slot);
        words.insert(words.end(), tile.rows.begin() + first_row,
                     tile.rows.begin() + first_row + kHaloRows);
      }
    }
    return words;
  }

  // Writes a neighbour's edge_rows() over the halo rows from `first_row` of
  // strip tile row `ty`; returns whether any tile changed.
  bool import_halo(int64_t ty, int first_row, const std::vector<uint64_t>& words) {
    const int parity = static_cast<int>(grid_.generation() & 1);
    bool changed = false;
    auto next = words.begin();
    for (int64_t tx = 0; tx < tiles_x_; ++tx) {
      const int32_t slot = grid_.map().find({tx, ty});
      Tile current = grid_.map().tile(parity, slot);
      Tile previous = grid_.map().tile(parity ^ 1, slot);
      for (Tile* tile : {&current, &previous}) {
        std::copy(next, next + kHaloRows, tile->rows.begin() + first_row);
        next += kHaloRows;
      }
      changed |= grid_.import_tile(slot, current, previous);
    }
    return changed;
  }

  // The band's top rows go up to become the upper rank's lower halo while
  // the lower rank's top rows arrive as this lower halo; then the reverse.
  // Returns whether a halo changed.
  bool swap_halos(const MpiWorld& world) {
    const auto start = Clock::now();
    const std::vector<uint64_t> top = edge_rows(0, kHaloRows);
    const std::vector<uint64_t> bottom = edge_rows(last_tile_row_, 0);
    std::vector<uint64_t> from_below(top.size());
    std::vector<uint64_t> from_above(bottom.size());
    world.exchange(top.data(), world.up(), from_below.data(), world.down(), top.size(), 0);
    world.exchange(bottom.data(), world.down(), from_above.data(), world.up(), bottom.size(), 1);
    const bool changed =
        import_halo(0, 0, from_above) | import_halo(last_tile_row_, kHaloRows, from_below);
    if (changed) grid_.replan();
    figures_.exchange_seconds += seconds_since(start);
    ++figures_.exchanges;
    return changed;
  }

  // The strip's wrapped edge rows are wrong after a generation, but within
  // `generations` <= kHaloRows the error stays inside the halos.
  void step(uint64_t generations) {
    const auto start = Clock::now();
    const uint64_t computed_before = stepper_.cells_computed();
    stepper_.step(grid_, header_.rule, generations);
    figures_.cells_computed += stepper_.cells_computed() - computed_before;
    figures_.step_seconds += seconds_since(start);
  }

  JobHeader header_;
  Band band_;
  int64_t tiles_x_;
  int64_t last_tile_row_;
  sparse::SparseGrid grid_;
  GridStepper stepper_;
  RankFigures figures_;
  uint64_t done_ = 0;
  int stopped_by_ = 0;
};

// Steps this rank's band; every rank returns its band's words and figures.
// An error here cannot be handed to the other ranks, which wait on
// halos: it is reported and ends the job.
std::unique_ptr<BandStepper> run_band(const MpiWorld& world, const JobHeader& header, Band band,
                                      const std::vector<uint64_t>& band_words,
                                      const StopCheck& stop, double& seconds) {
  try {
    auto stepper = std::make_unique<BandStepper>(header, band, band_words);
    world.barrier();
    const auto start = Clock::now();
    stepper->run(world, stop);
    seconds = world.max_over_ranks(seconds_since(start));
    return stepper;
  } catch (const Error& e) {
    std::fprintf(stderr, "gol: rank %d: %s\n", world.rank(), e.what());
    world.abort(static_cast<int>(e.code()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gol: rank %d: %s\n", world.rank(), e.what());
    world.abort(static_cast<int>(ExitCode::kRuntime));
  }
}

std::vector<uint64_t> receive_band(const MpiWorld& world, const Band& band, int64_t width,
                                   int from) {
  std::vector<uint64_t> words(static_cast<size_t>(band.rows * (width / kTileSize)));
  world.receive(words.data(), words.size(), from);
  return words;
}

}  // namespace

void cancel_band_run(const MpiWorld& world) {
  std::vector<uint64_t> none;
  world.broadcast(none);
}

BandRunResult lead_band_run(const MpiWorld& world, const BandJob& job, const StopCheck& stop) {
  JobHeader header;
  std::vector<Band> bands;
  try {
    bands = split_into_bands(job.topology.height, world.size());
    header = {job.rule, job.topology, job.generations, threads_per_rank(job.threads),
              resolve_backend(job.backend)};
  } catch (...) {
    cancel_band_run(world);
    throw;
  }
  std::vector<uint64_t> words = encode(header);
  world.broadcast(words);
  world.broadcast(header.backend);
  const int64_t width = job.topology.width;
  for (int rank = 1; rank < world.size(); ++rank) {
    const Band& band = bands[static_cast<size_t>(rank)];
    const std::vector<uint64_t> band_words = pack_rows(job.cells, width, band.first_row, band.rows);
    world.send(band_words.data(), band_words.size(), rank);
  }
  BandRunResult result;
  const auto stepper = run_band(
      world, header, bands[0], pack_rows(job.cells, width, 0, bands[0].rows), stop, result.seconds);
  const std::vector<uint64_t> own_band = stepper->band_words();
  const std::vector<uint64_t> figures = world.gather(encode(stepper->figures(own_band)));
  CellSet::TileMap tiles;
  append_rows(tiles, own_band.data(), width, 0, bands[0].rows);
  for (int rank = 1; rank < world.size(); ++rank) {
    const Band& band = bands[static_cast<size_t>(rank)];
    const std::vector<uint64_t> band_words = receive_band(world, band, width, rank);
    append_rows(tiles, band_words.data(), width, band.first_row, band.rows);
  }
  result.cells = CellSet(std::move(tiles));
  result.backend = header.backend;
  result.simd_target = stepper->simd_target();
  result.halo_rows = kHaloRows;
  result.generations_run = stepper->generations_run();
  result.stopped_by = stepper->stopped_by();
  for (int rank = 0; rank < world.size(); ++rank) {
    result.ranks.push_back(decode_figures(&figures[static_cast<size_t>(rank) * kFigureWords]));
  }
  return result;
}

void follow_band_run(const MpiWorld& world, const StopCheck& stop) {
  std::vector<uint64_t> words;
  world.broadcast(words);
  if (words.empty()) return;
  std::string backend;
  world.broadcast(backend);
  const JobHeader header = decode(words, std::move(backend));
  const Band band =
      split_into_bands(header.topology.height, world.size())[static_cast<size_t>(world.rank())];
  double seconds = 0;
  const auto stepper = run_band(world, header, band,
                                receive_band(world, band, header.topology.width, 0), stop, seconds);
  const std::vector<uint64_t> band_words = stepper->band_words();
  world.gather(encode(stepper->figures(band_words)));
  world.send(band_words.data(), band_words.size(), 0);
}

}  // namespace gol::dist
