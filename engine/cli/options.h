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
  std::string pattern = kDefaultPattern;  // "-": standard input
  uint64_t generations = kDefaultGenerations;
  // Absolute generation to stop at (a loaded #CXRLE Gen= counts); replaces
  // --gens.
  std::optional<uint64_t> until;
  std::string backend = "auto";
  std::optional<std::string> rule;   // parsed later, so a bad rule exits 3
  std::optional<std::string> torus;  // likewise
  int threads = 0;
  // A torus in this many bands, one a GPU, with NCCL halos.
  std::optional<int> gpus;
  std::optional<std::string> out;  // "-": standard output
  // "rle", "cells" or "mc": the format of "-" (in or out) and of an --out
  // name without a known extension.
  std::optional<std::string> format;
  std::optional<std::string> log;         // CSV, one row every `every` generations
  std::optional<std::string> checkpoint;  // a resumable state every `every` generations
  std::optional<uint64_t> every;
  bool json = false;
  bool quiet = false;
};

struct InfoOptions {
  std::string pattern;  // "-": standard input
  std::optional<std::string> format;
  bool json = false;
};

}  // namespace gol::cli
