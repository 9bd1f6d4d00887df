// Worlds left to the process's exit (see process_exit.h).
#include "engine/process_exit.h"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace gol {
namespace {

std::atomic<bool> ends_with_command{false};

struct KeptWorlds {
  std::mutex lock;
  std::vector<std::unique_ptr<Simulation>> worlds;
};

// Never destroyed: running the worlds' destructors at exit is the cost this
// file exists to avoid.
KeptWorlds& kept_worlds() {
  static KeptWorlds* const kept = new KeptWorlds;
  return *kept;
}

}  // namespace

void set_process_ends_with_command(bool ends) { ends_with_command.store(ends); }

bool process_ends_with_command() { return ends_with_command.load(); }

void keep_until_exit(std::unique_ptr<Simulation> world) {
  if (!process_ends_with_command() || world == nullptr) return;
  KeptWorlds& kept = kept_worlds();
  const std::lock_guard<std::mutex> hold(kept.lock);
  kept.worlds.push_back(std::move(world));
}

size_t worlds_kept_until_exit() {
  KeptWorlds& kept = kept_worlds();
  const std::lock_guard<std::mutex> hold(kept.lock);
  return kept.worlds.size();
}

}  // namespace gol
