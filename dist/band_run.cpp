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
#include "engine/backend_registry.h"
#include "engine/core/error.h"

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
  std::string backend;  // resolved: a CPU backend's name
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

std::string resolve_cpu_backend(const BandJob& job) {
  const std::string name = job.backend == "auto" ? "cpu" : job.backend;
  const BackendInfo& info = BackendRegistry::builtin().resolve(
      name, {job.topology, job.cells.population(), job.cells.bbox()});
  if (!info.is_cpu) {
    throw UsageError("--backend " + job.backend +
                     ": MPI ranks step their bands on the CPU (GPU ranks are not built yet); "
                     "expected --backend auto, cpu or a CPU backend from `gol backends`");
  }
  return info.name;
}

// One rank's band inside its strip: kHaloRows of the band above, the band,
// kHaloRows of the band below, all rows of the torus's width as words.
class BandStepper {
 public:
  BandStepper(const JobHeader& header, Band band, const std::vector<uint64_t>& band_words)
      : header_(header),
        band_(band),
        words_per_row_(header.topology.width / kTileSize),
        strip_(static_cast<size_t>(words_per_row_ * (band.rows + 2 * kHaloRows))) {
    std::copy(band_words.begin(), band_words.end(), row(kHaloRows));
    BackendOptions options;
    options.threads = header.threads;
    backend_ = BackendRegistry::builtin().create(header.backend, options,
                                                 {strip_topology(), 0, std::nullopt});
    figures_.first_row = band.first_row;
    figures_.rows = band.rows;
  }

  // Runs the job's generations, a halo exchange before every round.
  void run(const MpiWorld& world) {
    for (uint64_t done = 0; done < header_.generations;) {
      const uint64_t round = std::min<uint64_t>(kHaloRows, header_.generations - done);
      swap_halos(world);
      step(round);
      done += round;
    }
    const BackendStats stats = backend_->stats();
    figures_.threads = stats.threads;
    simd_target_ = stats.simd_target;
  }

  std::vector<uint64_t> band_words() const {
    return std::vector<uint64_t>(row(kHaloRows), row(kHaloRows + band_.rows));
  }
  RankFigures figures() const {
    RankFigures figures = figures_;
    for (auto it = row(kHaloRows); it != row(kHaloRows + band_.rows); ++it) {
      figures.population += static_cast<uint64_t>(std::popcount(*it));
    }
    return figures;
  }
  const std::string& simd_target() const { return simd_target_; }

 private:
  Topology strip_topology() const {
    return Topology::torus(header_.topology.width, band_.rows + 2 * kHaloRows);
  }
  std::vector<uint64_t>::iterator row(int64_t r) { return strip_.begin() + r * words_per_row_; }
  std::vector<uint64_t>::const_iterator row(int64_t r) const {
    return strip_.begin() + r * words_per_row_;
  }

  // The band's top rows go up to become the upper rank's lower halo while
  // the lower rank's top rows arrive as this lower halo; then the reverse.
  void swap_halos(const MpiWorld& world) {
    const auto start = Clock::now();
    const size_t count = static_cast<size_t>(kHaloRows * words_per_row_);
    world.exchange(&*row(kHaloRows), world.up(), &*row(kHaloRows + band_.rows), world.down(), count,
                   0);
    world.exchange(&*row(band_.rows), world.down(), &*row(0), world.up(), count, 1);
    figures_.exchange_seconds += seconds_since(start);
    ++figures_.exchanges;
  }

  // The strip is stepped as a torus of its own: its wrapped edge rows are
  // wrong after a generation, but within `generations` <= kHaloRows the
  // error stays inside the halos.
  void step(uint64_t generations) {
    const auto start = Clock::now();
    const int64_t width = header_.topology.width;
    backend_->load(unpack_rows(strip_, width, 0), header_.rule, strip_topology());
    backend_->step(generations);
    strip_ = pack_rows(backend_->cells(), width, 0, band_.rows + 2 * kHaloRows);
    figures_.cells_computed += backend_->stats().cells_computed;
    figures_.step_seconds += seconds_since(start);
  }

  JobHeader header_;
  Band band_;
  int64_t words_per_row_;
  std::vector<uint64_t> strip_;
  std::unique_ptr<Backend> backend_;
  RankFigures figures_;
  std::string simd_target_;
};

// Steps this rank's band; every rank returns its band's words and figures.
// An error here cannot be handed to the other ranks, which wait on
// halos: it is reported and ends the job.
std::unique_ptr<BandStepper> run_band(const MpiWorld& world, const JobHeader& header, Band band,
                                      const std::vector<uint64_t>& band_words, double& seconds) {
  try {
    auto stepper = std::make_unique<BandStepper>(header, band, band_words);
    world.barrier();
    const auto start = Clock::now();
    stepper->run(world);
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

BandRunResult lead_band_run(const MpiWorld& world, const BandJob& job) {
  JobHeader header;
  std::vector<Band> bands;
  try {
    bands = split_into_bands(job.topology.height, world.size());
    header = {job.rule, job.topology, job.generations, threads_per_rank(job.threads),
              resolve_cpu_backend(job)};
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
  const auto stepper = run_band(world, header, bands[0],
                                pack_rows(job.cells, width, 0, bands[0].rows), result.seconds);
  const std::vector<uint64_t> figures = world.gather(encode(stepper->figures()));
  CellSet::TileMap tiles;
  append_rows(tiles, stepper->band_words().data(), width, 0, bands[0].rows);
  for (int rank = 1; rank < world.size(); ++rank) {
    const Band& band = bands[static_cast<size_t>(rank)];
    const std::vector<uint64_t> band_words = receive_band(world, band, width, rank);
    append_rows(tiles, band_words.data(), width, band.first_row, band.rows);
  }
  result.cells = CellSet(std::move(tiles));
  result.backend = header.backend;
  result.simd_target = stepper->simd_target();
  result.halo_rows = kHaloRows;
  for (int rank = 0; rank < world.size(); ++rank) {
    result.ranks.push_back(decode_figures(&figures[static_cast<size_t>(rank) * kFigureWords]));
  }
  return result;
}

void follow_band_run(const MpiWorld& world) {
  std::vector<uint64_t> words;
  world.broadcast(words);
  if (words.empty()) return;
  std::string backend;
  world.broadcast(backend);
  const JobHeader header = decode(words, std::move(backend));
  const Band band =
      split_into_bands(header.topology.height, world.size())[static_cast<size_t>(world.rank())];
  double seconds = 0;
  const auto stepper =
      run_band(world, header, band, receive_band(world, band, header.topology.width, 0), seconds);
  world.gather(encode(stepper->figures()));
  const std::vector<uint64_t> band_words = stepper->band_words();
  world.send(band_words.data(), band_words.size(), 0);
}

}  // namespace gol::dist
