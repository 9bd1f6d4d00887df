// Runs lifelib's sparse CPU algorithm `ulifelib` beside ours, through
// Rokicki's lifealg harness (`lifealgo`), built outside gol's sources by
// bench/build_ulifelib.sh. The bench finds the binary from --ulifelib or
// $GOL_ULIFELIB and skips it where neither names one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_result.h"
#include "bench/workloads.h"
#include "engine/core/pattern.h"

namespace gol::bench {

// The environment variable naming the lifealgo binary.
inline constexpr const char* kUlifelibVariable = "GOL_ULIFELIB";

// `option` (--ulifelib) if given, else $GOL_ULIFELIB; nullopt when neither
// is set. Throws UsageError when the one given is not an executable file.
std::optional<std::string> find_ulifelib(const std::optional<std::string>& option);

// Why ulifelib does not run `workload`, empty when it does: it runs the
// unbounded plane only, and two generations at a time.
std::string ulifelib_skip_reason(const Workload& workload);

// `lifealgo -f RLE -m GENS -i GENS ulifelib`, one thread, `repeats` times:
// the median wall time of the whole process (reading the RLE included),
// lifealgo's own timer of the generation loop as the engine time, and the
// final population for the check. `rle` must hold `pattern` written with
// whole run counts (gol's writer does; lifealgo's reader cannot join counts
// split across lines). Throws RuntimeError if lifealgo fails or reports a
// population mismatch of its own.
RunResult run_ulifelib(const Workload& workload, const Pattern& pattern, const std::string& rle,
                       const std::string& lifealgo, int repeats);

// run_ulifelib a timed run at a time, so that the bench can take turns
// between engines. Holds a reference to `workload`.
class UlifelibTimer {
 public:
  UlifelibTimer(const Workload& workload, const Pattern& pattern, const std::string& rle,
                const std::string& lifealgo);
  void time_one();
  // The medians over the timed runs so far (at least one).
  RunResult result() const;

 private:
  const Workload& workload_;
  std::vector<std::string> argv_;
  RunResult result_;
  std::vector<double> engine_seconds_;
};

// Parses lifealgo's "Final pop is P time T ..." line into (P, T); nullopt
// when the output holds none or lifealgo reported an error ("!" lines,
// "mismatch").
struct UlifelibOutput {
  uint64_t population = 0;
  double seconds = 0;
};
std::optional<UlifelibOutput> parse_lifealgo_output(const std::string& output);

}  // namespace gol::bench
