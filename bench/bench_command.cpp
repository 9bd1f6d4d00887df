// `gol bench`: picks workloads and backends, runs them (and bgolly), checks
// that they agree, and writes the table, JSON and CSV.
#include "bench/bench_command.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "bench/backend_runner.h"
#include "bench/bench_options.h"
#include "bench/child_process.h"
#include "bench/cpu_kernel_bench.h"
#include "bench/golly_runner.h"
#include "bench/gpu_kernel_bench.h"
#include "bench/gpu_scaling.h"
#include "bench/mpi_scaling.h"
#include "bench/plot.h"
#include "bench/report.h"
#include "bench/tile_pool_bench.h"
#include "bench/turns.h"
#include "bench/ulifelib_runner.h"
#include "bench/workloads.h"
#include "engine/backend_registry.h"
#include "engine/core/error.h"
#include "engine/core/output_file.h"
#include "patterns/pattern_io.h"

namespace gol::bench {
namespace {

struct ChosenBackend {
  std::string name;
  bool is_cpu = true;
};

std::vector<ChosenBackend> choose_backends(const BenchOptions& options) {
  const BackendRegistry& registry = BackendRegistry::builtin();
  std::vector<ChosenBackend> chosen;
  if (options.backends.empty()) {
    for (const std::string& name : kDefaultBackends) {
      const BackendInfo* info = registry.find(name);
      if (info != nullptr && info->available()) chosen.push_back({info->name, info->is_cpu});
    }
    return chosen;
  }
  for (const std::string& name : options.backends) {
    // Throws UsageError for unknown names, RuntimeError for unavailable ones.
    const BackendInfo& info = registry.resolve(name, WorkloadHint{});
    const bool seen = std::any_of(chosen.begin(), chosen.end(),
                                  [&](const ChosenBackend& c) { return c.name == info.name; });
    if (!seen) chosen.push_back({info.name, info.is_cpu});
  }
  return chosen;
}

std::string known_workloads(bool quick) {
  std::string names;
  for (const Workload& w : all_workloads(quick)) {
    if (!names.empty()) names += ", ";
    names += w.name;
  }
  return names;
}

std::vector<Workload> choose_workloads(const BenchOptions& options,
                                       const std::vector<ChosenBackend>& backends) {
  if (!options.workloads.empty()) {
    std::vector<Workload> chosen;
    for (const std::string& name : options.workloads) {
      std::optional<Workload> w = find_workload(name, options.quick);
      if (!w) {
        throw UsageError("unknown workload '" + name +
                         "' (known: " + known_workloads(options.quick) + ")");
      }
      chosen.push_back(std::move(*w));
    }
    return chosen;
  }
  std::vector<Workload> chosen = all_workloads(options.quick);
  const bool gpu_chosen = std::any_of(backends.begin(), backends.end(),
                                      [](const ChosenBackend& b) { return !b.is_cpu; });
  if (!options.all_workloads && !gpu_chosen) {
    std::erase_if(chosen, [](const Workload& w) { return w.gpu_only || w.gpu_scale; });
  }
  return chosen;
}

std::string format_count(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", value);
  return text;
}

// Why `backend` does not run `workload`; empty when it does.
std::string skip_reason(const Workload& workload, const ChosenBackend& backend) {
  if (workload.gpu_only && backend.is_cpu) return "GPU-only workload";
  if (const std::optional<double> budget = reference_budget(backend.name);
      budget && workload.dense_cell_updates > *budget) {
    return "about " + format_count(workload.dense_cell_updates) +
           " dense cell updates, over this reference backend's budget of " + format_count(*budget);
  }
  return {};
}

std::vector<std::string> golly_algorithms(const Workload& workload) {
  switch (workload.golly) {
    case GollyAlgos::kNone:
      return {};
    case GollyAlgos::kQuickLife:
      return {"QuickLife"};
    case GollyAlgos::kQuickAndHash:
      return {"QuickLife", "HashLife"};
  }
  return {};
}

// Which engine a contender is, for what its failure means.
enum class ContenderKind { kOurs, kBaseline };

// One engine's failure: a backend refusing the world (InputError) or a
// baseline failing is a skip with its reason; our backend failing is a
// failure, and the run still ends with exit code 4.
void record_error(const std::exception_ptr& error, ContenderKind kind, const std::string& workload,
                  const std::string& name, BenchReport& report) {
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    report.skipped.push_back({workload, name, e.what()});
  } catch (const RuntimeError& e) {
    if (kind == ContenderKind::kBaseline) {
      report.skipped.push_back({workload, name, e.what()});
      return;
    }
    std::cerr << "gol bench: " << name << " on " << workload << " failed\n";
    report.failures.push_back({workload, name, e.what()});
  }
}

void run_workload(const Workload& workload, const std::vector<ChosenBackend>& backends,
                  const BenchOptions& options, const std::optional<std::string>& bgolly,
                  const std::optional<std::string>& lifealgo, BenchReport& report) {
  std::cerr << "gol bench: building " << workload.name << " (" << workload.pattern_spec << ")\n";
  const Pattern pattern = build_workload_pattern(workload);
  const std::vector<std::string> algorithms =
      bgolly ? golly_algorithms(workload) : std::vector<std::string>{};
  RunSettings settings;
  settings.warmup = options.warmup;
  settings.threads = options.threads;
  settings.quick = options.quick;
  settings.isolate = options.isolate;
  settings.want_shape_hash = !algorithms.empty() && !workload.torus;
  if (options.isolate) settings.gol_executable = self_executable();
  // One RLE for the isolated children and ulifelib to read (gol's writer
  // keeps run counts whole, as lifealgo's reader needs).
  const TempDir pattern_dir;
  const std::string rle = pattern_dir.file(workload.name + ".rle");
  if (options.isolate || lifealgo) {
    patterns::write_pattern_file(rle, pattern);
    if (options.isolate) settings.pattern_file = rle;
  }

  // Every engine that runs the workload, in the table's order, each set up
  // (our backends warmed up) before the turns begin.
  std::vector<Contender> contenders;
  std::vector<ContenderKind> kinds;
  const auto enter = [&](ContenderKind kind, const std::string& name, const auto& make_timer) {
    try {
      auto timer = make_timer();
      contenders.push_back(
          {name, [timer] { timer->time_one(); }, [timer] { return timer->result(); }});
      kinds.push_back(kind);
    } catch (const Error&) {
      record_error(std::current_exception(), kind, workload.name, name, report);
    }
  };
  for (const ChosenBackend& backend : backends) {
    if (const std::string why = skip_reason(workload, backend); !why.empty()) {
      report.skipped.push_back({workload.name, backend.name, why});
      continue;
    }
    enter(ContenderKind::kOurs, backend.name, [&] {
      auto timer = std::make_shared<BackendTimer>(workload, pattern, backend.name, settings);
      timer->warm_up();
      return timer;
    });
  }
  for (const std::string& algorithm : algorithms) {
    enter(ContenderKind::kBaseline, golly_backend_name(algorithm), [&] {
      return std::make_shared<GollyTimer>(
          workload, pattern,
          GollySettings{*bgolly, algorithm, options.repeats, settings.want_shape_hash});
    });
  }
  if (lifealgo) {
    if (const std::string why = ulifelib_skip_reason(workload); !why.empty()) {
      report.skipped.push_back({workload.name, "ulifelib", why});
    } else {
      enter(ContenderKind::kBaseline, "ulifelib",
            [&] { return std::make_shared<UlifelibTimer>(workload, pattern, rle, *lifealgo); });
    }
  }

  const std::vector<TurnOutcome> outcomes =
      run_in_turns(contenders, options.repeats, [&](const std::string& name, int run) {
        std::cerr << "gol bench: " << workload.name << " on " << name << ", run " << run << " of "
                  << options.repeats << "\n";
      });
  const size_t first_result = report.results.size();
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].error) {
      record_error(outcomes[i].error, kinds[i], workload.name, contenders[i].name, report);
      continue;
    }
    RunResult result = *outcomes[i].result;
    // ulifelib does not know the area: ours is taken, for effective CUpS.
    if (result.engine == Engine::kLifelib) {
      for (size_t j = first_result; j < report.results.size(); ++j) {
        if (report.results[j].engine == Engine::kGol) {
          result.area = std::max(result.area, report.results[j].area);
          break;
        }
      }
    }
    report.results.push_back(std::move(result));
  }
}

void print_workload_list(std::ostream& out, bool quick) {
  for (const Workload& w : all_workloads(quick)) {
    out << w.name << ": " << w.description << ", " << w.generations << " generations"
        << (w.gpu_only ? " (GPU backends only)"
                       : (w.gpu_scale ? " (in the default set where a GPU backend runs)" : ""))
        << "\n";
  }
}

// Files go through write_file_atomically, so a failed run never leaves half
// a file; "-" is stdout.
void write_output(const std::string& path, const BenchReport& report,
                  void (*writer)(std::ostream&, const BenchReport&)) {
  if (path == "-") {
    writer(std::cout, report);
    return;
  }
  std::ostringstream text;
  writer(text, report);
  write_file_atomically(path, text.str());
}

// A long benchmark must not end in an output it cannot write.
void check_output_paths(const BenchOptions& options) {
  if (options.json_path && *options.json_path != "-")
    check_output_path(*options.json_path, "--json");
  if (options.csv_path && *options.csv_path != "-") check_output_path(*options.csv_path, "--csv");
  if (options.plot_path) check_output_path(*options.plot_path, "--plot");
}

int run_one(const BenchOptions& options) {
  const std::optional<Workload> workload = find_workload(*options.run_one, options.quick);
  if (!workload) throw UsageError("unknown workload '" + *options.run_one + "'");
  if (options.backends.size() != 1) throw UsageError("--run-one needs exactly one backend");
  Pattern pattern;
  if (options.pattern_file) {
    pattern = patterns::read_pattern_file(*options.pattern_file);
    if (workload->torus) pattern.topology = workload->torus;
  } else {
    pattern = build_workload_pattern(*workload);
  }
  const SingleRun run = run_once_releasing(*workload, std::move(pattern), options.backends.front(),
                                           options.threads, options.shape_hash);
  std::cout << format_single_run(run) << std::endl;
  return 0;
}

}  // namespace

int run_bench_command(const BenchOptions& options) {
  if (options.run_one) return run_one(options);
  check_output_paths(options);
  if (!options.gpu_kernel_sides.empty()) return run_gpu_kernel_bench(options);
  if (!options.cpu_kernel_sides.empty()) return run_cpu_kernel_bench(options);
  if (options.tile_pool_side > 0) return run_tile_pool_bench(options);
  if (!options.mpi_scaling.empty()) return run_mpi_scaling(options);
  if (!options.gpu_scaling.empty()) return run_gpu_scaling(options);
  if (options.list) {
    print_workload_list(std::cout, options.quick);
    return 0;
  }
  const std::vector<ChosenBackend> backends = choose_backends(options);
  const std::vector<Workload> workloads = choose_workloads(options, backends);
  const std::string plotting_python = options.plot_path ? find_plotting_python() : std::string();
  std::optional<std::string> bgolly;
  BenchReport report;
  report.machine = current_machine(options.threads);
  if (options.golly == GollyMode::kAuto) {
    bgolly = find_bgolly();
    if (!bgolly) report.skipped.push_back({"all", "bgolly", "bgolly is not on PATH"});
  }
  std::optional<std::string> lifealgo;
  if (options.ulifelib != "off") {
    lifealgo = find_ulifelib(
        options.ulifelib == "auto" ? std::nullopt : std::optional<std::string>(options.ulifelib));
    if (!lifealgo) {
      report.skipped.push_back({"all", "ulifelib",
                                std::string("no lifealgo binary: set --ulifelib PATH or $") +
                                    kUlifelibVariable +
                                    " (bench/build_ulifelib.sh LIFEALG_CHECKOUT builds one)"});
    }
  }
  for (const Workload& workload : workloads) {
    run_workload(workload, backends, options, bgolly, lifealgo, report);
  }
  report.command_line = options.command_line;
  report.repeats = options.repeats;
  report.warmup = options.warmup;
  report.quick = options.quick;
  report.isolate = options.isolate;
  derive_comparisons(report.results);
  report.disagreements = check_agreement(report.results);

  const bool stdout_taken = (options.json_path && *options.json_path == "-") ||
                            (options.csv_path && *options.csv_path == "-");
  write_table(stdout_taken ? std::cerr : std::cout, report);
  if (options.json_path) write_output(*options.json_path, report, write_json);
  if (options.csv_path) write_output(*options.csv_path, report, write_csv);
  if (options.plot_path) plot_report(report, *options.plot_path, plotting_python);
  if (!report.disagreements.empty()) {
    throw RuntimeError("backends disagree on " + std::to_string(report.disagreements.size()) +
                       " result(s); see the check lines above");
  }
  if (!report.failures.empty()) {
    throw RuntimeError(std::to_string(report.failures.size()) +
                       " run(s) failed; see the FAILED lines above");
  }
  return 0;
}

}  // namespace gol::bench
