// Formatting of the `gol run` summary, as text and as one JSON object.
#include "engine/cli/run_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/json_writer.h"

namespace gol::cli {
namespace {

double per_second(double amount, double seconds) { return seconds > 0 ? amount / seconds : 0.0; }

// hi - lo + 1 as text. Up to 2^64 cells wide (the whole int64 range),
// which neither int64 nor uint64 holds.
std::string side_text(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  return span == UINT64_MAX ? "18446744073709551616" : std::to_string(span + 1);
}

bool on_gpus(const RunSummary& s) { return s.band_transport == "NCCL"; }

// "2 ranks: rows 0..191 and 192..319, halo 32 rows, 4 exchanges each,
// 0.012 s the most a rank spent exchanging" (bands on GPUs: "2 GPUs: ...",
// "... a GPU spent ..."; one GPU may hold the whole torus).
std::string ranks_text(const RunSummary& s) {
  const std::string rank = on_gpus(s) ? "GPU" : "rank";
  std::string out =
      std::to_string(s.ranks.size()) + " " + rank + (s.ranks.size() == 1 ? "" : "s") + ": rows ";
  double exchange_seconds = 0;
  for (size_t i = 0; i < s.ranks.size(); ++i) {
    const RankSummary& r = s.ranks[i];
    if (i > 0) out += i + 1 == s.ranks.size() ? " and " : ", ";
    out += std::to_string(r.first_row) + ".." + std::to_string(r.first_row + r.rows - 1);
    exchange_seconds = std::max(exchange_seconds, r.exchange_seconds);
  }
  char tail[160];
  std::snprintf(tail, sizeof tail,
                ", halo %lld rows, %llu exchanges each, %.3f s the most a %s spent exchanging",
                static_cast<long long>(s.halo_rows),
                static_cast<unsigned long long>(s.ranks.front().exchanges), exchange_seconds,
                rank.c_str());
  return out + tail;
}

void ranks_json(JsonWriter& json, const RunSummary& s) {
  json.key("halo_rows").value(s.halo_rows);
  json.key("band_transport").value(s.band_transport);
  json.key("ranks").begin_array();
  for (size_t i = 0; i < s.ranks.size(); ++i) {
    const RankSummary& r = s.ranks[i];
    json.begin_object();
    json.key("rank").value(static_cast<uint64_t>(i));
    json.key("first_row").value(r.first_row);
    json.key("rows").value(r.rows);
    json.key("population").value(r.population);
    json.key("cells_computed").value(r.cells_computed);
    json.key("exchanges").value(r.exchanges);
    json.key("step_seconds").value(r.step_seconds);
    json.key("exchange_seconds").value(r.exchange_seconds);
    json.key("threads").value(r.threads);
    if (on_gpus(s)) json.key("bytes_exchanged").value(r.bytes_exchanged);
    json.end_object();
  }
  json.end_array();
}

}  // namespace

std::string si_number(double value) {
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
  // Never "-0" nor "nan": a rate is zero when nothing can be said.
  if (!(value > 0) || !std::isfinite(value)) value = 0;
  char buffer[32];
  // Beyond yotta, a plain exponent rather than one mixed with a prefix.
  if (value >= 999.5e24) {
    std::snprintf(buffer, sizeof buffer, "%.3g ", value);
    return buffer;
  }
  int prefix = 0;
  // 999.5 and up print as 1000 at three digits ("1e+03"): the next prefix.
  while (value >= 999.5 && prefix < 8) {
    value /= 1000.0;
    ++prefix;
  }
  std::snprintf(buffer, sizeof buffer, "%.3g %s", value, kPrefixes[prefix]);
  return buffer;
}

std::string bbox_text(const std::optional<BBox>& box) {
  if (!box) return "empty";
  return "x " + std::to_string(box->xmin) + ".." + std::to_string(box->xmax) + ", y " +
         std::to_string(box->ymin) + ".." + std::to_string(box->ymax) + " (" +
         side_text(box->xmin, box->xmax) + " x " + side_text(box->ymin, box->ymax) + ")";
}

double RunSummary::cups_effective() const {
  return per_second(area * static_cast<double>(generations_run), seconds);
}

double RunSummary::cups_computed() const {
  return per_second(static_cast<double>(stats.cells_computed), seconds);
}

std::string summary_text(const RunSummary& s) {
  std::string backend = s.backend;
  if (!s.stats.simd_target.empty()) backend += ", " + s.stats.simd_target;
  backend +=
      ", " + std::to_string(s.stats.threads) + (s.stats.threads == 1 ? " thread" : " threads");
  char seconds[64];
  std::snprintf(seconds, sizeof seconds, "%.3f s", s.seconds);
  std::string out;
  out += "pattern      " + s.pattern + "\n";
  out += "rule         " + s.rule + " on the " + s.topology + "\n";
  out += "backend      " + backend + "\n";
  out += "generation   " + std::to_string(s.generation) + " (" + std::to_string(s.generations_run) +
         " run)\n";
  out += "population   " + std::to_string(s.population) + "\n";
  out += "bbox         " + bbox_text(s.bbox) + "\n";
  out += "time         " + std::string(seconds) + "\n";
  out += "CUpS         " + si_number(s.cups_effective()) + " effective, " +
         si_number(s.cups_computed()) + " computed\n";
  if (s.stats.tiles_total > 0) {
    out += "tiles        " + std::to_string(s.stats.tiles_active) + " active of " +
           std::to_string(s.stats.tiles_total) + "\n";
  }
  if (s.stats.device_seconds > 0 || s.stats.transfer_seconds > 0) {
    char device[96];
    std::snprintf(device, sizeof device, "%.3f s kernels, %.3f s transfers", s.stats.device_seconds,
                  s.stats.transfer_seconds);
    out += "device       " + std::string(device) + "\n";
  }
  if (s.stats.epochs > 0) {
    out += "hybrid       " + std::to_string(s.stats.epochs) + " epochs; tiles " +
           std::to_string(s.stats.tiles_cpu) + " CPU, " + std::to_string(s.stats.tiles_gpu) +
           " GPU; " + si_number(static_cast<double>(s.stats.bytes_uploaded)) + "B up, " +
           si_number(static_cast<double>(s.stats.bytes_downloaded)) + "B down\n";
  }
  if (!s.ranks.empty()) {
    out += s.band_transport + std::string(13 - s.band_transport.size(), ' ') + ranks_text(s) + "\n";
  }
  return out;
}

std::string summary_json(const RunSummary& s) {
  JsonWriter json;
  json.begin_object();
  json.key("pattern").value(s.pattern);
  json.key("generation").value(s.generation);
  json.key("population").value(s.population);
  json.key("bbox");
  if (s.bbox) {
    json.begin_array()
        .value(s.bbox->xmin)
        .value(s.bbox->ymin)
        .value(s.bbox->xmax)
        .value(s.bbox->ymax)
        .end_array();
  } else {
    json.null();
  }
  json.key("rule").value(s.rule);
  json.key("topology").value(s.topology);
  json.key("backend").value(s.backend);
  json.key("threads").value(s.stats.threads);
  json.key("seconds").value(s.seconds);
  json.key("cups_effective").value(s.cups_effective());
  json.key("cups_computed").value(s.cups_computed());
  json.key("generations_run").value(s.generations_run);
  json.key("cells_computed").value(s.stats.cells_computed);
  json.key("tiles_active").value(s.stats.tiles_active);
  json.key("tiles_total").value(s.stats.tiles_total);
  json.key("strip_segments").value(s.stats.strip_segments);
  json.key("simd_target").value(s.stats.simd_target);
  json.key("device_seconds").value(s.stats.device_seconds);
  json.key("transfer_seconds").value(s.stats.transfer_seconds);
  json.key("tiles_cpu").value(s.stats.tiles_cpu);
  json.key("tiles_gpu").value(s.stats.tiles_gpu);
  json.key("epochs").value(s.stats.epochs);
  json.key("bytes_uploaded").value(s.stats.bytes_uploaded);
  json.key("bytes_downloaded").value(s.stats.bytes_downloaded);
  if (!s.ranks.empty()) ranks_json(json, s);
  json.end_object();
  return json.str();
}

}  // namespace gol::cli
