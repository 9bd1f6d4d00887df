// gol bench --plot: the results drawn by bench/plot_bench.py (matplotlib)
// from the bench's JSON.
#pragma once

#include <string>

#include "bench/report.h"

namespace gol::bench {

// The python3 that imports matplotlib: $GOL_PYTHON when set; otherwise
// python3 on PATH, else Debian's /usr/bin/python3 (where
// python3-matplotlib installs) when PATH's lacks it. Checked before the
// bench runs, so a long run never ends unplotted.
// Throws RuntimeError saying what was tried and how to install it.
std::string find_plotting_python();

// Draws `report` into `path` (PNG, or any format matplotlib knows by the
// extension) through a temporary file renamed into place. Throws
// RuntimeError with the script's message when it fails.
void plot_report(const BenchReport& report, const std::string& path, const std::string& python);

}  // namespace gol::bench
