// Runs the compiled-in plot script (bench/plot_bench.py, embedded at build
// time so an installed gol needs no source tree) on the report's JSON.
#include "bench/plot.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "bench/child_process.h"
#include "bench/plot_script.h"
#include "engine/core/error.h"

namespace gol::bench {
namespace {

constexpr const char* kDebianPython = "/usr/bin/python3";

bool imports_matplotlib(const std::string& python) {
  return run_child({python, "-c", "import matplotlib"}).exit_code == 0;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw RuntimeError("cannot write " + path);
}

}  // namespace

std::string find_plotting_python() {
  std::vector<std::string> tried;
  std::vector<std::string> candidates;
  if (const char* chosen = std::getenv("GOL_PYTHON"); chosen != nullptr && *chosen != '\0') {
    candidates.push_back(chosen);
  } else {
    if (const std::optional<std::string> on_path = find_on_path("python3")) {
      candidates.push_back(*on_path);
    }
    if (std::filesystem::exists(kDebianPython)) candidates.push_back(kDebianPython);
  }
  for (const std::string& python : candidates) {
    if (imports_matplotlib(python)) return python;
    tried.push_back(python + " (no matplotlib)");
  }
  std::string message =
      "gol bench --plot needs python3 with matplotlib (Debian: apt install python3-matplotlib)";
  message += tried.empty() ? "; no python3 found" : "; tried";
  for (const std::string& t : tried) message += " " + t;
  throw RuntimeError(message);
}

void plot_report(const BenchReport& report, const std::string& path, const std::string& python) {
  const TempDir dir;
  const std::string script = dir.file("plot_bench.py");
  const std::string json = dir.file("bench.json");
  write_text(script, kPlotScript);
  {
    std::ofstream out(json, std::ios::binary);
    write_json(out, report);
    if (!out.flush()) throw RuntimeError("cannot write " + json);
  }
  // Same folder and extension as the target, so the rename is atomic and
  // matplotlib still picks the format from the name.
  const std::filesystem::path target(path);
  const std::string temporary = path + ".tmp" + target.extension().string();
  const ChildResult child = run_child({python, script, json, temporary});
  if (child.exit_code != 0) {
    std::filesystem::remove(temporary);
    throw RuntimeError("gol bench --plot: " + child.output);
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary);
    throw RuntimeError("cannot rename " + temporary + " to " + path + ": " + ec.message());
  }
}

}  // namespace gol::bench
