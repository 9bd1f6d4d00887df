// Reads the CPU model from /proc/cpuinfo, formats the current UTC time and
// times a cache line's round trip between two cores.
#include "bench/machine_info.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <fstream>
#include <thread>
#include <vector>

#include "cpu/simd/parallel_step.h"

namespace gol::bench {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (!line.starts_with("model name")) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const size_t begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? "unknown" : line.substr(begin);
  }
  return "unknown";
}

std::string load_average() {
  std::ifstream loadavg("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(loadavg >> one >> five >> fifteen)) return {};
  return one + " " + five + " " + fifteen;
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

}  // namespace

double core_round_trip_ns() {
  if (std::thread::hardware_concurrency() < 2) return 0;
  constexpr uint64_t kHandOffs = 2000;
  constexpr int kBatches = 7;
  constexpr uint64_t kLast = 2 * kHandOffs * kBatches;
  // Where the partner is not running (a busy machine), its turn never comes
  // back soon: both give up at the deadline.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  alignas(64) std::atomic<uint64_t> turn{0};
  alignas(64) std::atomic<bool> stalled{false};
  // Waits until `turn` holds `value`; false once stalled.
  const auto await = [&](uint64_t value) {
    for (uint32_t spins = 1; turn.load(std::memory_order_acquire) != value; ++spins) {
      cpu::spin_pause();
      if (spins % 1024 == 0 && (stalled.load(std::memory_order_relaxed) ||
                                std::chrono::steady_clock::now() > deadline)) {
        stalled.store(true, std::memory_order_relaxed);
        return false;
      }
    }
    return true;
  };
  std::thread partner([&] {
    for (uint64_t odd = 1; odd < kLast && await(odd); odd += 2) {
      turn.store(odd + 1, std::memory_order_release);
    }
  });
  std::vector<double> batches;
  for (int batch = 0; batch < kBatches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    const uint64_t first = 2 * kHandOffs * static_cast<uint64_t>(batch);
    bool whole = true;
    for (uint64_t even = first; even < first + 2 * kHandOffs && whole; even += 2) {
      turn.store(even + 1, std::memory_order_release);
      whole = await(even + 2);
    }
    if (!whole) break;
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    batches.push_back(took.count() / static_cast<double>(kHandOffs));
  }
  partner.join();
  if (stalled.load() || batches.empty()) return 0;
  std::sort(batches.begin(), batches.end());
  return batches[batches.size() / 2];
}

MachineInfo current_machine(int threads) {
  MachineInfo info;
  info.cpu_model = cpu_model();
  info.hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
  info.threads_used = threads > 0 ? threads : info.hardware_threads;
  info.date_utc = utc_now();
  info.load_average = load_average();
  if (info.threads_used > 1) info.core_round_trip_ns = core_round_trip_ns();
  return info;
}

}  // namespace gol::bench
