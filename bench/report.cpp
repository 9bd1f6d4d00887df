// Formats bench results as an aligned table, JSON and CSV. JSON and CSV are
// written from one list of fields per result so they can never disagree.
#include "bench/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <variant>

#include "engine/json_writer.h"

namespace gol::bench {
namespace {

using Value = std::variant<std::monostate, double, uint64_t, std::string, std::vector<double>>;

struct Field {
  std::string key;
  Value value;
};

Value optional_value(const std::optional<double>& v) {
  return v ? Value(*v) : Value(std::monostate{});
}

Value optional_value(const std::optional<uint64_t>& v) {
  return v ? Value(*v) : Value(std::monostate{});
}

std::string hex(uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string engine_name(Engine engine) {
  switch (engine) {
    case Engine::kGol:
      return "gol";
    case Engine::kGolly:
      return "golly";
    case Engine::kLifelib:
      return "lifelib";
  }
  return "gol";
}

std::vector<Field> result_fields(const RunResult& r) {
  auto when_nonzero = [](double v) { return v > 0 ? Value(v) : Value(std::monostate{}); };
  return {
      {"workload", r.workload},
      {"backend", r.backend},
      {"engine", engine_name(r.engine)},
      {"topology", r.topology},
      {"generations", r.generations},
      {"median_seconds", r.median_seconds},
      {"seconds", r.seconds},
      {"area", r.area},
      {"effective_cups", r.effective_cups()},
      {"computed_cups", optional_value(r.computed_cups())},
      {"device_seconds", when_nonzero(r.device_seconds)},
      {"transfer_seconds", when_nonzero(r.transfer_seconds)},
      {"device_cups", optional_value(r.device_cups())},
      {"speedup", optional_value(r.speedup)},
      {"speedup_baseline", r.speedup_baseline},
      {"engine_seconds", optional_value(r.engine_seconds())},
      {"vs_quicklife_engine", optional_value(r.vs_quicklife_engine)},
      {"vs_quicklife_process", optional_value(r.vs_quicklife_process)},
      {"vs_hashlife_engine", optional_value(r.vs_hashlife_engine)},
      {"vs_hashlife_process", optional_value(r.vs_hashlife_process)},
      {"vs_ulifelib_engine", optional_value(r.vs_ulifelib_engine)},
      {"vs_ulifelib_process", optional_value(r.vs_ulifelib_process)},
      {"peak_rss_bytes", optional_value(r.peak_rss_bytes)},
      {"load_peak_rss_bytes", optional_value(r.load_peak_rss_bytes)},
      {"process_seconds", optional_value(r.process_seconds)},
      {"golly_load_seconds", optional_value(r.load_seconds)},
      {"population", r.population},
      {"cell_hash", r.cell_hash ? Value(hex(*r.cell_hash)) : Value(std::monostate{})},
      {"simd_target", r.simd_target},
      {"tiles_active", r.tiles_active},
      {"tiles_total", r.tiles_total},
  };
}

std::string number_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

std::string json_string(const std::string& s) { return '"' + json_escape(s) + '"'; }

std::string json_value(const Value& value) {
  if (const double* d = std::get_if<double>(&value)) {
    return std::isfinite(*d) ? number_text(*d) : "null";
  }
  if (const uint64_t* u = std::get_if<uint64_t>(&value)) return std::to_string(*u);
  if (const std::string* s = std::get_if<std::string>(&value)) return json_string(*s);
  if (const auto* list = std::get_if<std::vector<double>>(&value)) {
    std::string text = "[";
    for (size_t i = 0; i < list->size(); ++i) {
      if (i > 0) text += ", ";
      text += json_value((*list)[i]);
    }
    return text + "]";
  }
  return "null";
}

// Lists become one field of ";"-separated numbers.
std::string csv_value(const Value& value) {
  if (std::holds_alternative<std::monostate>(value)) return "";
  if (const auto* list = std::get_if<std::vector<double>>(&value)) {
    std::string text;
    for (double v : *list) {
      if (!text.empty()) text += ';';
      text += number_text(v);
    }
    return text;
  }
  if (const std::string* s = std::get_if<std::string>(&value)) {
    if (s->find_first_of(",\"\n") == std::string::npos) return *s;
    std::string quoted = "\"";
    for (const char c : *s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }
  return json_value(value);
}

// --- the text table ---------------------------------------------------------

std::string fixed(double v, const char* format) {
  char text[32];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

std::string seconds_text(const std::optional<double>& s) { return s ? significant_text(*s) : "-"; }

std::string ratio_text(const std::optional<double>& v) { return v ? fixed(*v, "%.2fx") : "-"; }

std::string speedup_text(const RunResult& r) {
  if (!r.speedup) return "-";
  std::string text = ratio_text(r.speedup);
  if (r.speedup_baseline != "serial") text += " (" + r.speedup_baseline + ")";
  return text;
}

// printf's %e rounds correctly to a number of significant digits.
double round_to_three_digits(double value) {
  char text[48];
  std::snprintf(text, sizeof text, "%.2e", value);
  return std::strtod(text, nullptr);
}

struct Column {
  std::string title;
  bool left_aligned;
  std::vector<std::string> cells;
};

bool any_of_results(const BenchReport& report, auto predicate) {
  return std::any_of(report.results.begin(), report.results.end(), predicate);
}

std::vector<Column> table_columns(const BenchReport& report) {
  const bool device = any_of_results(
      report, [](const RunResult& r) { return r.device_seconds > 0 || r.transfer_seconds > 0; });
  const bool memory =
      any_of_results(report, [](const RunResult& r) { return r.peak_rss_bytes.has_value(); });
  const bool golly =
      any_of_results(report, [](const RunResult& r) { return r.engine == Engine::kGolly; });
  const bool ulifelib =
      any_of_results(report, [](const RunResult& r) { return r.engine == Engine::kLifelib; });
  // Whole-process times: bgolly's always, ours with --isolate.
  const bool process =
      any_of_results(report, [](const RunResult& r) { return r.process_seconds.has_value(); });
  std::vector<Column> columns = {{"workload", true, {}},  {"backend", true, {}},
                                 {"gens", false, {}},     {"median s", false, {}},
                                 {"timed", true, {}},     {"engine s", false, {}},
                                 {"eff CUpS", false, {}}, {"comp CUpS", false, {}}};
  if (device) {
    for (const char* title : {"device s", "xfer s", "dev CUpS"})
      columns.push_back({title, false, {}});
  }
  columns.push_back({"speed-up", false, {}});
  if (golly) {
    for (const char* title : {"vs QL engine", "vs QL process", "vs HL engine", "vs HL process"}) {
      columns.push_back({title, false, {}});
    }
  }
  if (ulifelib) {
    for (const char* title : {"vs UL engine", "vs UL process"})
      columns.push_back({title, false, {}});
  }
  if (process) columns.push_back({"process s", false, {}});
  if (memory) columns.push_back({"peak MiB", false, {}});
  columns.push_back({"population", false, {}});

  for (const RunResult& r : report.results) {
    std::vector<std::string> row = {r.workload,
                                    r.backend,
                                    std::to_string(r.generations),
                                    seconds_text(r.median_seconds),
                                    r.engine == Engine::kGol ? "engine" : "process",
                                    seconds_text(r.engine_seconds()),
                                    si_format(r.effective_cups()),
                                    r.computed_cups() ? si_format(*r.computed_cups()) : "-"};
    if (device) {
      row.push_back(r.device_seconds > 0 ? seconds_text(r.device_seconds) : "-");
      row.push_back(r.transfer_seconds > 0 ? seconds_text(r.transfer_seconds) : "-");
      row.push_back(r.device_cups() ? si_format(*r.device_cups()) : "-");
    }
    row.push_back(speedup_text(r));
    if (golly) {
      for (const auto& ratio : {r.vs_quicklife_engine, r.vs_quicklife_process, r.vs_hashlife_engine,
                                r.vs_hashlife_process}) {
        row.push_back(ratio_text(ratio));
      }
    }
    if (ulifelib) {
      row.push_back(ratio_text(r.vs_ulifelib_engine));
      row.push_back(ratio_text(r.vs_ulifelib_process));
    }
    if (process) row.push_back(seconds_text(r.process_seconds));
    if (memory) {
      row.push_back(r.peak_rss_bytes
                        ? fixed(static_cast<double>(*r.peak_rss_bytes) / (1 << 20), "%.1f")
                        : "-");
    }
    row.push_back(std::to_string(r.population));
    for (size_t i = 0; i < columns.size(); ++i) columns[i].cells.push_back(row[i]);
  }
  return columns;
}

void write_padded(std::ostream& out, const std::string& text, size_t width, bool left) {
  const std::string pad(width > text.size() ? width - text.size() : 0, ' ');
  out << (left ? text + pad : pad + text);
}

void write_rows(std::ostream& out, const std::vector<Column>& columns, size_t rows) {
  std::vector<size_t> widths;
  for (const Column& c : columns) {
    size_t w = c.title.size();
    for (const std::string& cell : c.cells) w = std::max(w, cell.size());
    widths.push_back(w);
  }
  for (size_t row = 0; row <= rows; ++row) {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (i > 0) out << "  ";
      const std::string& text = row == 0 ? columns[i].title : columns[i].cells[row - 1];
      write_padded(out, text, widths[i], columns[i].left_aligned);
    }
    out << '\n';
  }
}

}  // namespace

std::string si_format(double value) {
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  if (!std::isfinite(value) || value <= 0) return "0";
  // Rounded first, so 999.7 reads "1.00 k" rather than "1000".
  value = round_to_three_digits(value);
  int prefix = 0;
  while (value >= 1000 && prefix < 6) {
    value /= 1000;
    ++prefix;
  }
  return significant_text(value) + (prefix ? std::string(" ") + kPrefixes[prefix] : "");
}

std::string significant_text(double value) {
  if (!std::isfinite(value)) return "-";
  if (value == 0) return "0";
  char text[48];
  // From 1000 up every integer digit is kept.
  if (std::fabs(value) >= 999.5) {
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  // After rounding (9.996 becomes 10.0, not 10.00) the decimal exponent
  // says how many decimals keep three digits.
  value = round_to_three_digits(value);
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value)) + 1e-9));
  std::snprintf(text, sizeof text, "%.*f", std::max(0, 2 - exponent), value);
  return text;
}

void derive_comparisons(std::vector<RunResult>& results) {
  std::map<std::string, const RunResult*> baseline, quicklife, hashlife, ulifelib;
  for (const RunResult& r : results) {
    if (r.engine == Engine::kGolly) {
      if (r.backend == "bgolly-QuickLife") quicklife[r.workload] = &r;
      if (r.backend == "bgolly-HashLife") hashlife[r.workload] = &r;
      continue;
    }
    if (r.engine == Engine::kLifelib) {
      ulifelib[r.workload] = &r;
      continue;
    }
    const RunResult*& base = baseline[r.workload];
    const bool base_is_serial = base != nullptr && base->backend == "serial";
    if (r.backend == "serial" ||
        (!base_is_serial && (base == nullptr || r.median_seconds > base->median_seconds))) {
      base = &r;
    }
  }
  // Their seconds over ours, where both were measured.
  auto ratio = [](const std::map<std::string, const RunResult*>& reference, const RunResult& r,
                  auto seconds) -> std::optional<double> {
    const auto it = reference.find(r.workload);
    if (it == reference.end()) return std::nullopt;
    const std::optional<double> theirs = seconds(*it->second);
    const std::optional<double> ours = seconds(r);
    if (!theirs || !ours || *ours <= 0) return std::nullopt;
    return *theirs / *ours;
  };
  const auto wall = [](const RunResult& r) -> std::optional<double> { return r.median_seconds; };
  const auto engine = [](const RunResult& r) { return r.engine_seconds(); };
  const auto process = [](const RunResult& r) { return r.process_seconds; };
  for (RunResult& r : results) {
    if (const auto it = baseline.find(r.workload); it != baseline.end()) {
      r.speedup_baseline = it->second->backend;
    }
    r.speedup = ratio(baseline, r, wall);
    if (r.engine == Engine::kGol) {
      r.vs_quicklife_engine = ratio(quicklife, r, engine);
      r.vs_quicklife_process = ratio(quicklife, r, process);
      r.vs_hashlife_engine = ratio(hashlife, r, engine);
      r.vs_hashlife_process = ratio(hashlife, r, process);
      r.vs_ulifelib_engine = ratio(ulifelib, r, engine);
      r.vs_ulifelib_process = ratio(ulifelib, r, process);
    }
  }
}

const std::vector<std::string>& result_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const Field& f : result_fields(RunResult{})) out.push_back(f.key);
    return out;
  }();
  return keys;
}

void write_table(std::ostream& out, const BenchReport& report) {
  const MachineInfo& m = report.machine;
  out << "gol bench  " << m.date_utc << "\n"
      << "machine: " << m.cpu_model << ", " << m.hardware_threads << " hardware threads; "
      << m.threads_used << " threads used"
      << (m.load_average.empty() ? std::string() : "; load average " + m.load_average)
      << (m.core_round_trip_ns > 0 ? "; core-to-core round trip " +
                                         std::to_string(std::lround(m.core_round_trip_ns)) + " ns"
                                   : std::string())
      << "\n"
      << "command: " << report.command_line << "\n"
      << "median of " << report.repeats << " timed run" << (report.repeats == 1 ? "" : "s")
      << (report.warmup ? " after " + std::to_string(report.warmup) + " warm-up" : std::string())
      << (report.repeats > 1 ? ", the engines taking turns" : "")
      << "; our timings are Simulation::advance only (loading excluded)"
      << (report.quick ? "; --quick (scaled-down workloads)" : "") << "\n\n";
  write_rows(out, table_columns(report), report.results.size());
  out << "\neff CUpS: area x generations / median wall seconds, area being the torus, or on\n"
         "the plane the larger of the initial and final bounding boxes. comp CUpS: cells\n"
         "the backend evaluated / median wall seconds. speed-up: over serial, or where\n"
         "serial did not run, over the slowest of our backends, named in parentheses.\n"
         "timed: what median s covers: engine (ours: Simulation::advance only) or process\n"
         "(bgolly: process start, reading the RLE and running). engine s: the generations\n"
         "alone; for bgolly its run less the same command with -m 0 (start and reading).\n"
         "vs QL / vs HL: bgolly QuickLife / HashLife time over ours (above 1: we are faster),\n"
         "like with like: engine over engine, and process over process (ours with --isolate).\n";
  if (any_of_results(report, [](const RunResult& r) { return r.engine == Engine::kLifelib; })) {
    out << "ulifelib: lifelib's sparse CPU algorithm in Rokicki's lifealgo harness, one thread\n"
           "(process: start, reading the RLE, running; engine s: lifealgo's own timer of its\n"
           "generation loop). vs UL: its time over ours, engine and process as for bgolly.\n";
  }
  if (report.isolate) {
    out << "--isolate: each run in its own process; process s: that process's whole wall time\n"
           "(start, reading the RLE the baselines read, loading, running); peak MiB: its VmHWM\n"
           "once the generations are run, before the bench's own check (bgolly's and\n"
           "lifealgo's: at exit).\n";
  }
  for (const SkippedRun& s : report.skipped) {
    out << "skipped " << s.backend << " on " << s.workload << ": " << s.reason << "\n";
  }
  for (const SkippedRun& f : report.failures) {
    out << "FAILED " << f.backend << " on " << f.workload << ": " << f.reason << "\n";
  }
  if (report.disagreements.empty()) {
    out << "check: all backends agree on every workload's final population and cells\n";
  } else {
    for (const Disagreement& d : report.disagreements) {
      out << "check FAILED on " << d.workload << ": " << d.message << "\n";
    }
  }
}

void write_json(std::ostream& out, const BenchReport& report) {
  const MachineInfo& m = report.machine;
  out << "{\n  \"machine\": {\"cpu\": " << json_string(m.cpu_model)
      << ", \"hardware_threads\": " << m.hardware_threads
      << ", \"threads_used\": " << m.threads_used
      << ", \"load_average\": " << json_string(m.load_average)
      << ", \"core_round_trip_ns\": " << std::lround(m.core_round_trip_ns) << "},\n"
      << "  \"date\": " << json_string(m.date_utc) << ",\n"
      << "  \"command\": " << json_string(report.command_line) << ",\n"
      << "  \"repeats\": " << report.repeats << ",\n"
      << "  \"warmup\": " << report.warmup << ",\n"
      << "  \"quick\": " << (report.quick ? "true" : "false") << ",\n"
      << "  \"isolate\": " << (report.isolate ? "true" : "false") << ",\n"
      << "  \"results\": [";
  for (size_t i = 0; i < report.results.size(); ++i) {
    out << (i ? ",\n    {" : "\n    {");
    const std::vector<Field> fields = result_fields(report.results[i]);
    for (size_t f = 0; f < fields.size(); ++f) {
      out << (f ? ", " : "") << json_string(fields[f].key) << ": " << json_value(fields[f].value);
    }
    out << "}";
  }
  out << (report.results.empty() ? "],\n" : "\n  ],\n") << "  \"skipped\": [";
  for (size_t i = 0; i < report.skipped.size(); ++i) {
    const SkippedRun& s = report.skipped[i];
    out << (i ? ", " : "") << "{\"workload\": " << json_string(s.workload)
        << ", \"backend\": " << json_string(s.backend) << ", \"reason\": " << json_string(s.reason)
        << "}";
  }
  out << "],\n  \"failures\": [";
  for (size_t i = 0; i < report.failures.size(); ++i) {
    const SkippedRun& f = report.failures[i];
    out << (i ? ", " : "") << "{\"workload\": " << json_string(f.workload)
        << ", \"backend\": " << json_string(f.backend) << ", \"reason\": " << json_string(f.reason)
        << "}";
  }
  out << "],\n  \"check\": {\"passed\": " << (report.disagreements.empty() ? "true" : "false")
      << ", \"mismatches\": [";
  for (size_t i = 0; i < report.disagreements.size(); ++i) {
    const Disagreement& d = report.disagreements[i];
    out << (i ? ", " : "") << "{\"workload\": " << json_string(d.workload)
        << ", \"message\": " << json_string(d.message) << "}";
  }
  out << "]}\n}\n";
}

void write_csv(std::ostream& out, const BenchReport& report) {
  const std::vector<std::string>& keys = result_keys();
  for (size_t i = 0; i < keys.size(); ++i) out << (i ? "," : "") << keys[i];
  out << '\n';
  for (const RunResult& r : report.results) {
    const std::vector<Field> fields = result_fields(r);
    for (size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_value(fields[i].value);
    out << '\n';
  }
}

}  // namespace gol::bench
