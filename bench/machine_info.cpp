// Reads the CPU model from /proc/cpuinfo and formats the current UTC time.
#include "bench/machine_info.h"

#include <chrono>
#include <ctime>
#include <fstream>
#include <thread>

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

MachineInfo current_machine(int threads) {
  MachineInfo info;
  info.cpu_model = cpu_model();
  info.hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
  info.threads_used = threads > 0 ? threads : info.hardware_threads;
  info.date_utc = utc_now();
  info.load_average = load_average();
  return info;
}

}  // namespace gol::bench
