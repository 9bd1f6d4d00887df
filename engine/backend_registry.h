// Backends by name: each backend registers a factory, and the command line,
// Simulation and bench create them here without knowing which exist.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/backend.h"

namespace gol {

// What "auto" looks at when choosing a backend.
struct WorkloadHint {
  Topology topology;
  uint64_t population = 0;
  std::optional<BBox> bbox;
  // Live cells per cell of the bounding box (or torus); 0 when empty.
  double density() const;
};

struct BackendInfo {
  std::string name;
  std::string description;
  // Higher runs first when "auto" or "cpu" picks; reference paths are lowest.
  int priority = 0;
  bool is_cpu = true;
  // For GPU backends: the least density at which "auto" prefers it.
  double min_auto_density = 0;
  // Whether the backend can run on this machine now (a GPU present, ...).
  std::function<bool()> available;
  // Why it cannot, when available() is false.
  std::function<std::string()> unavailable_reason;
  std::function<std::unique_ptr<Backend>(const BackendOptions&)> create;
};

class BackendRegistry {
 public:
  // The registry with every backend compiled into this binary.
  static const BackendRegistry& builtin();

  void add(BackendInfo info);
  // nullptr if no backend has that name.
  const BackendInfo* find(const std::string& name) const;
  const std::vector<BackendInfo>& all() const { return backends_; }

  // Resolves "auto" (the best available backend for this workload), "cpu"
  // (the best CPU backend) or a concrete name. Throws UsageError for an
  // unknown name and RuntimeError when the backend cannot run here.
  const BackendInfo& resolve(const std::string& name, const WorkloadHint& hint) const;
  std::unique_ptr<Backend> create(const std::string& name, const BackendOptions& options,
                                  const WorkloadHint& hint) const;

 private:
  std::vector<BackendInfo> backends_;
};

}  // namespace gol
