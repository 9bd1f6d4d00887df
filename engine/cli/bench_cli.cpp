// The options of `gol bench`, parsed into bench::BenchOptions.
#include "engine/cli/bench_cli.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <span>

#include "bench/bench_command.h"
#include "engine/cli/subcommands.h"
#include "engine/core/error.h"
#include "engine/core/rule.h"

namespace gol::cli {
namespace {

constexpr int kMaxRepeats = 1000;
constexpr int kMaxThreads = 4096;
constexpr int kMaxKernelGenerations = 1 << 20;
// Torus sides --gpu-kernels all measures.
constexpr int64_t kKernelSides[] = {4096, 8192, 16384, 32768, 65536};
// Torus sides --cpu-kernels all measures: 64 tiles (in a core's L2) and
// 4096 (4 MiB, beyond it).
constexpr int64_t kCpuKernelSides[] = {512, 4096};
constexpr int kMaxCpuKernelSide = 1 << 14;

// The options as typed; lists are split and checked once parsing is done.
struct BenchArguments {
  bench::BenchOptions options;
  std::optional<std::string> workloads;
  std::optional<std::string> backends;
  std::string golly = "auto";
  std::optional<std::string> gpu_kernel_sides;
  std::optional<std::string> cpu_kernel_sides;
  std::optional<std::string> mpi_ranks;
  std::optional<std::string> gpu_counts;
};

std::vector<std::string> split_list(const std::string& option, const std::string& value) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = value.find(',', start);
    const size_t end = comma == std::string::npos ? value.size() : comma;
    if (end == start) throw UsageError(option + ": empty name in '" + value + "'");
    items.push_back(value.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

// "all" (the sides in `all`) or a list of torus sides for `option`, each a
// multiple of 64 from 64 to `largest`.
std::vector<int64_t> parse_sides(const std::string& option, const std::string& value,
                                 std::span<const int64_t> all, int64_t largest) {
  if (value == "all") return {all.begin(), all.end()};
  const CLI::Validator side_check = whole_number(64, largest);
  std::vector<int64_t> sides;
  for (std::string item : split_list(option, value)) {
    if (const std::string why = side_check(item); !why.empty()) {
      throw UsageError(option + ": " + why);
    }
    const int64_t side = std::stoll(item);
    if (side % 64 != 0) {
      throw UsageError(option + ": torus side " + item + " is not a multiple of 64");
    }
    sides.push_back(side);
  }
  return sides;
}

// "1,2,4": rank or GPU counts from 1 (the baseline) up, each at most 1024;
// `option` names the list and `what` its items in messages.
std::vector<int> parse_counts(const std::string& option, const std::string& what,
                              const std::string& value) {
  const CLI::Validator count_check = whole_number(1, 1024);
  std::vector<int> counts;
  for (const std::string& item : split_list(option, value)) {
    if (const std::string why = count_check(item); !why.empty()) {
      throw UsageError(option + ": " + why);
    }
    counts.push_back(std::stoi(item));
  }
  if (counts.front() != 1) {
    throw UsageError(option + " " + value + ": expected a list starting with 1, the " + what +
                     " count efficiency is measured against (e.g. 1,2,4)");
  }
  return counts;
}

// The torus each rank count gets must split into that many 64-row bands.
void check_mpi_scaling(const bench::BenchOptions& o) {
  if (o.mpi_side % 64 != 0) {
    throw UsageError("--mpi-side " + std::to_string(o.mpi_side) + " is not a multiple of 64");
  }
  const int most = *std::max_element(o.mpi_ranks.begin(), o.mpi_ranks.end());
  if (o.mpi_scaling == "strong" && o.mpi_side / 64 < most) {
    throw UsageError("--mpi-side " + std::to_string(o.mpi_side) + " makes " +
                     std::to_string(o.mpi_side / 64) + " bands of 64 rows, fewer than " +
                     std::to_string(most) + " ranks: expected --mpi-side " +
                     std::to_string(64 * most) + " or more");
  }
  if (o.mpi_scaling == "weak" && o.mpi_side * o.mpi_side * most > kMaxTorusCells) {
    throw UsageError("--mpi-side " + std::to_string(o.mpi_side) + " on " + std::to_string(most) +
                     " ranks makes a torus over 2^36 cells, the most gol runs");
  }
}

// The modes that replace the workload runs write their table, and the
// kernel benches --json too: an output file asked of a mode that does not
// write it is refused rather than left unwritten.
void check_outputs_written(const bench::BenchOptions& o) {
  std::string mode;
  if (!o.cpu_kernel_sides.empty()) mode = "--cpu-kernels";
  if (!o.gpu_kernel_sides.empty()) mode = "--gpu-kernels";
  const bool writes_json = !mode.empty();
  if (o.tile_pool_side > 0) mode = "--tile-pool";
  if (!o.mpi_scaling.empty()) mode = "--mpi-scaling";
  if (!o.gpu_scaling.empty()) mode = "--gpu-scaling";
  if (mode.empty()) return;
  const std::string writes =
      writes_json ? " writes its table and --json only" : " writes its table only";
  if (o.csv_path) throw UsageError("--csv: " + mode + writes);
  if (o.plot_path) throw UsageError("--plot: " + mode + writes);
  if (o.json_path && !writes_json) throw UsageError("--json: " + mode + writes);
}

// A side of whole tiles, and a weak-scaling torus gol may allocate.
void check_gpu_scaling(const bench::BenchOptions& o) {
  if (o.gpu_side % 64 != 0) {
    throw UsageError("--gpu-side " + std::to_string(o.gpu_side) + " is not a multiple of 64");
  }
  const int most = *std::max_element(o.gpu_counts.begin(), o.gpu_counts.end());
  if (o.gpu_scaling == "strong" && o.gpu_side / 64 < most) {
    throw UsageError("--gpu-side " + std::to_string(o.gpu_side) + " makes " +
                     std::to_string(o.gpu_side / 64) + " bands of 64 rows, fewer than " +
                     std::to_string(most) + " GPUs: expected --gpu-side " +
                     std::to_string(64 * most) + " or more");
  }
  const int64_t tori = o.gpu_scaling == "weak" ? most : 1;
  if (o.gpu_side * o.gpu_side > kMaxTorusCells / tori) {
    throw UsageError("--gpu-side " + std::to_string(o.gpu_side) +
                     (tori > 1 ? " on " + std::to_string(most) + " GPUs" : std::string()) +
                     " makes a torus over 2^36 cells, the most gol runs");
  }
}

CLI::App* define_bench_options(CLI::App& gol, BenchArguments& a) {
  bench::BenchOptions& o = a.options;
  CLI::App* bench = gol.add_subcommand(
      "bench", "Time workloads on backends (and Golly) and check that they agree");
  bench->footer(
      "Prints wall time, effective and computed CUpS and speed-ups; every run ends with a check\n"
      "that all backends (and Golly, when run) agree on the final population and cells.\n"
      "Exit codes: 0 success, 2 bad command line, 3 bad input, 4 a run failed or disagreed.");
  bench->add_option("--workloads", a.workloads,
                    "A,B,...|all: workloads to run (default: all but the GPU-only ones, which run "
                    "where a GPU backend is chosen); see --list");
  bench->add_option("--backends", a.backends,
                    "X,Y,...: backends (default: those available among serial, bit, simd, "
                    "simd-xsimd, gpu)");
  bench
      ->add_option("--repeats", o.repeats,
                   "Timed runs per backend (1 to 1000); the median is reported")
      ->default_val(o.repeats)
      ->check(whole_number(1, kMaxRepeats))
      ->type_name("N");
  bench->add_option("--warmup", o.warmup, "Untimed runs before the timed ones (up to 1000)")
      ->default_val(o.warmup)
      ->check(whole_number(0, kMaxRepeats))
      ->type_name("N");
  bench->add_option("--threads", o.threads, "CPU threads for the backends, up to 4096 (0: all)")
      ->check(whole_number(0, kMaxThreads))
      ->type_name("N");
  bench
      ->add_option("--golly", a.golly,
                   "auto|off: also run bgolly (QuickLife, HashLife) when on PATH")
      ->check(CLI::IsMember({"auto", "off"}));
  bench->add_option("--ulifelib", o.ulifelib,
                    "auto|off|PATH: also run lifelib's ulifelib (one thread) through Rokicki's "
                    "lifealgo built by bench/build_ulifelib.sh; auto: the binary named by "
                    "$GOL_ULIFELIB, skipped when unset");
  bench->add_option("--json", o.json_path, "FILE|-: write the results as JSON");
  bench->add_option("--csv", o.csv_path, "FILE|-: write the results as CSV");
  bench->add_option("--plot", o.plot_path,
                    "FILE.png: draw effective CUpS by workload and backend on a log scale "
                    "(bench/plot_bench.py; needs python3 with matplotlib)");
  bench->add_flag("--isolate", o.isolate, "Each run in its own process, to measure peak memory");
  bench->add_flag("--quick", o.quick, "Scaled-down workloads for smoke tests");
  bench->add_flag("--list", o.list, "List the workloads and exit");
  bench->add_option("--gpu-kernels", a.gpu_kernel_sides,
                    "SIDES|all: instead of workloads, kernel-only GPU timing (CUDA events, after a "
                    "warm-up) of N x N random tori: ours (multi-step) against the public kernel of "
                    "binary-banter/fast-game-of-life, then bit-step and naive; all = "
                    "4096,8192,16384,32768,65536");
  bench->add_option(
      "--cpu-kernels", a.cpu_kernel_sides,
      "SIDES|all: instead of workloads, kernel-only timing on one thread of the SIMD "
      "tile step (whole, noting edges, noting changes, and in runs of bands) on N x N "
      "random tori, --kernel-gens passes a run, for every instruction set of Highway "
      "and xsimd this CPU runs; all = 512,4096");
  bench
      ->add_option("--tile-pool", o.tile_pool_side,
                   "SIDE: instead of workloads, the hybrid's device tile pool stepping a whole "
                   "SIDE x SIDE torus soup in epochs of 32 beside the gpu backend, and its "
                   "transfer throughput for batches of 4096 tiles")
      ->check(whole_number(64, 1 << 18))
      ->type_name("SIDE");
  bench
      ->add_option("--kernel-gens", o.kernel_generations,
                   "Generations per timed kernel run (1 to 2^20)")
      ->default_val(o.kernel_generations)
      ->check(whole_number(1, kMaxKernelGenerations))
      ->type_name("N");
  bench
      ->add_option("--mpi-scaling", o.mpi_scaling,
                   "strong|weak: instead of workloads, gol run on --ranks CPU ranks (mpirun), "
                   "one thread each unless --threads: strong steps one --mpi-side square torus, "
                   "weak a --mpi-side square band per rank; efficiency against one rank")
      ->check(CLI::IsMember({"strong", "weak"}));
  bench->add_option("--ranks", a.mpi_ranks, "1,N,...: rank counts for --mpi-scaling (default 1,2)");
  bench
      ->add_option("--mpi-side", o.mpi_side,
                   "SIDE: the torus (strong) or band (weak) side for --mpi-scaling, a multiple "
                   "of 64")
      ->default_val(o.mpi_side)
      ->check(whole_number(64, 1 << 16))
      ->type_name("SIDE");
  bench->add_option("--mpi-gens", o.mpi_generations, "Generations per --mpi-scaling run")
      ->default_val(o.mpi_generations)
      ->check(whole_number(1, uint64_t{1} << 40))
      ->type_name("N");
  bench
      ->add_option("--gpu-scaling", o.gpu_scaling,
                   "strong|weak: instead of workloads, a torus in bands on --gpus-list GPUs of "
                   "this host, halos through NCCL, for --kernel-gens generations: strong steps "
                   "one --gpu-side square torus, weak a --gpu-side square band per GPU; "
                   "efficiency against one GPU, counts above the devices here skipped")
      ->check(CLI::IsMember({"strong", "weak"}));
  bench->add_option("--gpus-list", a.gpu_counts,
                    "1,N,...: GPU counts for --gpu-scaling (default 1,2,4)");
  bench
      ->add_option("--gpu-side", o.gpu_side,
                   "SIDE: the torus (strong) or band (weak) side for --gpu-scaling, a multiple "
                   "of 64")
      ->default_val(o.gpu_side)
      ->check(whole_number(64, 1 << 18))
      ->type_name("SIDE");
  // The child side of --isolate: run one workload once, print a result line.
  bench->add_option("--run-one", o.run_one)->group("");
  bench->add_flag("--shape-hash", o.shape_hash)->group("");
  bench->add_option("--pattern-file", o.pattern_file)->group("");
  return bench;
}

// `args`: the whole command line after the program name.
bench::BenchOptions finish(const BenchArguments& a, const std::vector<std::string>& args) {
  bench::BenchOptions o = a.options;
  if (a.workloads == "all") {
    o.all_workloads = true;
  } else if (a.workloads) {
    o.workloads = split_list("--workloads", *a.workloads);
  }
  if (a.backends) o.backends = split_list("--backends", *a.backends);
  o.golly = a.golly == "off" ? bench::GollyMode::kOff : bench::GollyMode::kAuto;
  if (a.gpu_kernel_sides) {
    o.gpu_kernel_sides = parse_sides("--gpu-kernels", *a.gpu_kernel_sides, kKernelSides, 1 << 18);
  }
  if (a.cpu_kernel_sides) {
    o.cpu_kernel_sides =
        parse_sides("--cpu-kernels", *a.cpu_kernel_sides, kCpuKernelSides, kMaxCpuKernelSide);
  }
  if (o.tile_pool_side % 64 != 0) {
    throw UsageError("--tile-pool: torus side " + std::to_string(o.tile_pool_side) +
                     " is not a multiple of 64");
  }
  if (a.mpi_ranks) o.mpi_ranks = parse_counts("--ranks", "rank", *a.mpi_ranks);
  check_mpi_scaling(o);
  if (a.gpu_counts) o.gpu_counts = parse_counts("--gpus-list", "GPU", *a.gpu_counts);
  check_gpu_scaling(o);
  check_outputs_written(o);
  if (o.json_path == "-" && o.csv_path == "-") {
    throw UsageError("--json - and --csv - cannot both write to stdout");
  }
  o.command_line = "gol";
  for (const std::string& arg : args) o.command_line += " " + arg;
  return o;
}

}  // namespace

Subcommand add_bench_subcommand(CLI::App& gol) {
  auto arguments = std::make_shared<BenchArguments>();
  CLI::App* bench = define_bench_options(gol, *arguments);
  return {bench, [arguments](const std::vector<std::string>& args) {
            return bench::run_bench_command(finish(*arguments, args));
          }};
}

bench::BenchOptions parse_bench_arguments(const std::vector<std::string>& args) {
  CLI::App gol("gol", "gol");
  configure_defaults(gol);
  BenchArguments arguments;
  CLI::App* bench = define_bench_options(gol, arguments);
  bench->allow_extras();
  std::vector<std::string> full = {"bench"};
  full.insert(full.end(), args.begin(), args.end());
  parse_arguments(gol, full);
  return finish(arguments, full);
}

}  // namespace gol::cli
