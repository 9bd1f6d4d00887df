#!/usr/bin/env python3
"""Draws gol bench results: effective CUpS by workload and backend, log scale.

    python3 bench/plot_bench.py BENCH.json OUT.png

BENCH.json is what `gol bench --json` writes; `gol bench --plot OUT.png` runs
this script on it. Each bar is area x generations / engine seconds: our
backends as timed (Simulation::advance), bgolly's run less the same command
with -m 0 (process start and reading the pattern), so like is compared with
like. Where bgolly's run was not longer than its -m 0 run (tiny workloads),
its whole-process figure is drawn hatched instead. Backends from outside gol
(QuickLife, HashLife, ulifelib) are drawn wherever the JSON has them.

Exit codes: 0 written, 2 bad arguments or JSON, 3 matplotlib missing.
"""

import json
import sys


def fail(code, message):
    print("plot_bench.py: " + message, file=sys.stderr)
    sys.exit(code)


def load_results(path):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        return report, report["results"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(2, "cannot read gol bench JSON from %s: %s" % (path, e))


def bar_value(result):
    """(CUpS, whole_process): engine-only effective CUpS where known."""
    engine_seconds = result.get("engine_seconds")
    work = result["area"] * result["generations"]
    if engine_seconds:
        return work / engine_seconds, False
    return result["effective_cups"], True


def in_order(items):
    """Unique items in first-seen order."""
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def main(argv):
    if len(argv) != 3:
        fail(2, "usage: plot_bench.py BENCH.json OUT.png")
    report, results = load_results(argv[1])
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        fail(3, "matplotlib is not installed (Debian: apt install python3-matplotlib)")

    results = [r for r in results if r.get("median_seconds")]
    if not results:
        fail(2, "%s has no timed results to plot" % argv[1])
    workloads = in_order(r["workload"] for r in results)
    backends = in_order(r["backend"] for r in results)
    width = 0.8 / len(backends)
    figure, axes = plt.subplots(figsize=(max(8.0, 1.3 * len(workloads) + 5), 5.0))
    colors = plt.get_cmap("tab10")
    # Legend entries made here: a backend's first bar may be hatched.
    legend = []
    any_whole_process = False
    for index, backend in enumerate(backends):
        positions, heights, hatches = [], [], []
        for w, workload in enumerate(workloads):
            for r in results:
                if r["workload"] == workload and r["backend"] == backend:
                    cups, whole_process = bar_value(r)
                    if cups > 0:
                        positions.append(w - 0.4 + width * (index + 0.5))
                        heights.append(cups)
                        hatches.append("//" if whole_process else "")
        bars = axes.bar(positions, heights, width, color=colors(index % 10))
        for bar, hatch in zip(bars, hatches):
            bar.set_hatch(hatch)
        any_whole_process = any_whole_process or any(hatches)
        legend.append(Patch(color=colors(index % 10), label=backend))
    if any_whole_process:
        legend.append(Patch(facecolor="white", edgecolor="black", hatch="//",
                            label="whole process (no engine-only time)"))
    axes.set_yscale("log")
    axes.set_xticks(range(len(workloads)))
    axes.set_xticklabels(workloads, rotation=30, ha="right")
    axes.set_ylabel("effective CUpS (area x generations / engine s)")
    machine = report.get("machine", {})
    axes.set_title(
        "gol bench, %s, %s threads; median of %s"
        % (machine.get("cpu", "?"), machine.get("threads_used", "?"), report.get("repeats", "?")),
        fontsize=9,
    )
    axes.grid(axis="y", which="major", alpha=0.3)
    axes.legend(handles=legend, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    try:
        figure.savefig(argv[2], dpi=120)
    except (OSError, ValueError) as e:
        fail(2, "cannot write %s: %s" % (argv[2], e))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
