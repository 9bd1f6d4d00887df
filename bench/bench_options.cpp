// Parses `gol bench` flags; every mistake is a UsageError naming the flag.
#include "bench/bench_options.h"

#include <charconv>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>

#include "engine/arg_reader.h"
#include "engine/core/error.h"

namespace gol::bench {
namespace {

constexpr int kMaxRepeats = 1000;
constexpr int kMaxThreads = 4096;
constexpr int kMaxKernelGenerations = 1 << 20;
// Torus sides --gpu-kernels all measures.
constexpr int64_t kKernelSides[] = {4096, 8192, 16384, 32768, 65536};

std::vector<std::string> split_list(const std::string& flag, const std::string& value) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = value.find(',', start);
    const size_t end = comma == std::string::npos ? value.size() : comma;
    if (end == start) throw UsageError(flag + ": empty name in '" + value + "'");
    items.push_back(value.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

int parse_count(const std::string& flag, const std::string& value, int min, int max) {
  return static_cast<int>(
      parse_whole_number(flag, value, static_cast<uint64_t>(min), static_cast<uint64_t>(max)));
}

// "all" or a list of torus sides, each a multiple of 64 up to 2^18.
std::vector<int64_t> parse_sides(const std::string& flag, const std::string& value) {
  if (value == "all") return {std::begin(kKernelSides), std::end(kKernelSides)};
  std::vector<int64_t> sides;
  for (const std::string& item : split_list(flag, value)) {
    const int side = parse_count(flag, item, 64, 1 << 18);
    if (side % 64 != 0)
      throw UsageError(flag + ": torus side " + item + " is not a multiple of 64");
    sides.push_back(side);
  }
  return sides;
}

}  // namespace

BenchOptions parse_bench_options(const std::vector<std::string>& args) {
  BenchOptions options;
  ArgReader reader(args);
  while (!reader.done()) {
    const std::string flag = reader.next_flag();
    if (flag == "--workloads") {
      const std::string value = reader.value(flag);
      if (value == "all") {
        options.all_workloads = true;
      } else {
        options.workloads = split_list(flag, value);
      }
    } else if (flag == "--backends") {
      options.backends = split_list(flag, reader.value(flag));
    } else if (flag == "--repeats") {
      options.repeats = parse_count(flag, reader.value(flag), 1, kMaxRepeats);
    } else if (flag == "--warmup") {
      options.warmup = parse_count(flag, reader.value(flag), 0, kMaxRepeats);
    } else if (flag == "--threads") {
      options.threads = parse_count(flag, reader.value(flag), 0, kMaxThreads);
    } else if (flag == "--golly") {
      const std::string value = reader.value(flag);
      if (value == "auto") {
        options.golly = GollyMode::kAuto;
      } else if (value == "off") {
        options.golly = GollyMode::kOff;
      } else {
        throw UsageError("--golly wants 'auto' or 'off', not '" + value + "'");
      }
    } else if (flag == "--json") {
      options.json_path = reader.value(flag);
    } else if (flag == "--csv") {
      options.csv_path = reader.value(flag);
    } else if (flag == "--run-one") {
      options.run_one = reader.value(flag);
    } else if (flag == "--list") {
      reader.expect_no_value(flag);
      options.list = true;
    } else if (flag == "--quick") {
      reader.expect_no_value(flag);
      options.quick = true;
    } else if (flag == "--isolate") {
      reader.expect_no_value(flag);
      options.isolate = true;
    } else if (flag == "--shape-hash") {
      reader.expect_no_value(flag);
      options.shape_hash = true;
    } else if (flag == "--gpu-kernels") {
      options.gpu_kernel_sides = parse_sides(flag, reader.value(flag));
    } else if (flag == "--kernel-gens") {
      options.kernel_generations = parse_count(flag, reader.value(flag), 1, kMaxKernelGenerations);
    } else if (flag == "--help" || flag == "-h") {
      reader.expect_no_value(flag);
      options.help = true;
    } else {
      throw UsageError("gol bench: unknown option '" + flag + "' (see gol bench --help)");
    }
  }
  if (options.json_path && options.csv_path && *options.json_path == "-" &&
      *options.csv_path == "-") {
    throw UsageError("--json - and --csv - cannot both write to stdout");
  }
  return options;
}

std::string bench_usage() {
  return R"(usage: gol bench [options]
Runs named workloads on chosen backends and prints wall time, effective and
computed CUpS and speed-ups; every run ends with a check that all backends
(and Golly, when run) agree on the final population and cells.

  --workloads A,B,...|all  workloads to run (default: all but the GPU-only
                           ones, which run by default where a GPU backend is
                           chosen); see --list
  --backends X,Y,...       backends (default: those available among
                           serial, bit, simd, simd-xsimd, gpu)
  --repeats N              timed runs per backend; the median is reported (3)
  --warmup N               untimed runs before the timed ones (0)
  --threads N              CPU threads for the backends (0: all)
  --golly auto|off         also run bgolly (QuickLife, HashLife) when on PATH
  --json FILE|-            write the results as JSON
  --csv FILE|-             write the results as CSV
  --isolate                each run in its own process, to measure peak memory
  --quick                  scaled-down workloads for smoke tests
  --list                   list the workloads and exit
  --gpu-kernels SIDES|all  instead of workloads: kernel-only GPU timing
                           (CUDA events, after a warm-up) of N x N random
                           tori, multi-step vs bit-step vs naive kernels;
                           all = 4096,8192,16384,32768,65536
  --kernel-gens N          generations per timed kernel run (1024)
  --help                   this text
)";
}

}  // namespace gol::bench
