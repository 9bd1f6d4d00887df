// The process-wide memory budget, its default from the machine's limits, and
// the size parser and formatter shared by --max-memory and the messages.
#include "engine/core/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "engine/core/error.h"

namespace gol {
namespace {

std::atomic<uint64_t> budget_bytes{0};  // 0: not set, use the default

uint64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return UINT64_MAX;
  return saturating_mul(static_cast<uint64_t>(pages), static_cast<uint64_t>(page_size));
}

// The first number in `path` ("max" and missing files mean no limit).
uint64_t limit_from_file(const char* path) {
  std::ifstream in(path);
  uint64_t value = 0;
  if (in >> value && value > 0) return value;
  return UINT64_MAX;
}

// Containers limit memory through the cgroup (v2, then v1) rather than
// through the RAM the kernel reports.
uint64_t cgroup_memory_limit() {
  return std::min(limit_from_file("/sys/fs/cgroup/memory.max"),
                  limit_from_file("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
}

uint64_t rlimit_bytes(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
  return static_cast<uint64_t>(limit.rlim_cur);
}

[[noreturn]] void fail_size(std::string_view flag, std::string_view text, std::string_view why) {
  throw UsageError(std::string(flag) + " '" + std::string(text) + "': " + std::string(why) +
                   " (expected a size such as 512M, 4G or 1.5GiB)");
}

// The multiplier of a unit suffix ("", "k", "kb", "kib", ... "t"), or 0.
uint64_t unit_multiplier(std::string_view unit) {
  std::string lower(unit);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower.empty() || lower == "b") return 1;
  static constexpr const char kPrefixes[] = "kmgt";
  const size_t index = std::string_view(kPrefixes).find(lower[0]);
  if (index == std::string_view::npos) return 0;
  const std::string_view rest = std::string_view(lower).substr(1);
  if (!rest.empty() && rest != "b" && rest != "ib") return 0;
  return uint64_t{1} << (10 * (index + 1));
}

}  // namespace

uint64_t default_memory_budget() {
  const uint64_t limit = std::min({physical_memory(), cgroup_memory_limit(),
                                   rlimit_bytes(RLIMIT_AS), rlimit_bytes(RLIMIT_DATA)});
  return std::max(limit / 2, kMinMemoryBudget);
}

uint64_t memory_budget() {
  const uint64_t set = budget_bytes.load(std::memory_order_relaxed);
  if (set != 0) return set;
  // Computed once: the machine's limits do not change while gol runs.
  static const uint64_t fallback = default_memory_budget();
  return fallback;
}

void set_memory_budget(uint64_t bytes) {
  budget_bytes.store(std::max<uint64_t>(bytes, 1), std::memory_order_relaxed);
}

uint64_t parse_memory_size(std::string_view text, std::string_view flag) {
  size_t end = 0;
  while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) ++end;
  const std::string number(text.substr(0, end));
  if (number.empty() || number.front() == '.' || number.back() == '.' ||
      std::count(number.begin(), number.end(), '.') > 1) {
    fail_size(flag, text, "not a size");
  }
  const uint64_t unit = unit_multiplier(text.substr(end));
  if (unit == 0) fail_size(flag, text, "unknown unit");
  const double bytes = std::strtod(number.c_str(), nullptr) * static_cast<double>(unit);
  // 2^62 leaves room for the sums the checks make without any doubt of overflow.
  if (!(bytes <= std::ldexp(1.0, 62))) fail_size(flag, text, "too large");
  const auto value = static_cast<uint64_t>(bytes);
  if (value < kMinMemoryBudget) {
    fail_size(flag, text, "below the smallest budget, " + format_bytes(kMinMemoryBudget));
  }
  return value;
}

std::string format_bytes(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, kUnits[unit]);
  return text;
}

uint64_t saturating_mul(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

bool fits_memory_budget(uint64_t bytes) { return bytes <= memory_budget(); }

std::string over_budget_message(std::string_view what, uint64_t bytes) {
  const std::string size = bytes == UINT64_MAX ? "more than 16 EiB" : format_bytes(bytes);
  return std::string(what) + " needs " + size + ", more than the memory budget of " +
         format_bytes(memory_budget()) + " (set it with --max-memory)";
}

void check_input_memory(uint64_t bytes, std::string_view what, std::string_view source,
                        int64_t line, int64_t column) {
  if (!fits_memory_budget(bytes)) {
    throw InputError(source, line, column, over_budget_message(what, bytes));
  }
}

void check_runtime_memory(uint64_t bytes, std::string_view what) {
  if (!fits_memory_budget(bytes)) throw RuntimeError(over_budget_message(what, bytes));
}

void return_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void release_heap_in_large_steps() {
#if defined(__GLIBC__)
  // The default threshold (128 KiB) equals the padding glibc keeps on
  // top, so each free beside the top went over it by a few bytes and
  // released one page. A threshold of 1 MiB holds at most that much freed
  // memory back; return_freed_memory() still returns everything.
  constexpr int kTrimThreshold = 1 << 20;
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
#endif
}

}  // namespace gol
