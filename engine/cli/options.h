// What `gol run` and `gol info` are asked to do, as parsed from the command
// line (options.cpp). Parsing never runs anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gol::cli {

// The pattern run when `gol run` names none: a large random soup on the
// plane, the workload the engine is built for.
inline constexpr const char* kDefaultPattern = "soup:2048x2048:0.5:2026";
inline constexpr uint64_t kDefaultGenerations = 1000;

struct RunOptions {
  std::string pattern = kDefaultPattern;
  uint64_t generations = kDefaultGenerations;
  std::string backend = "auto";
  std::optional<std::string> rule;   // parsed later, so a bad rule exits 3
  std::optional<std::string> torus;  // likewise
  int threads = 0;
  std::optional<std::string> out;
  bool json = false;
  bool quiet = false;
};

struct InfoOptions {
  std::string pattern;
  bool json = false;
};

}  // namespace gol::cli
