// The built-in catalogue: each entry is embedded RLE parsed by our own
// reader. Every result quoted below was checked with Golly's bgolly
// (QuickLife); tests/patterns/bgolly_test.cpp checks them again.
#include "patterns/catalogue.h"

#include <algorithm>
#include <array>

#include "engine/core/error.h"
#include "patterns/rle.h"

namespace gol::patterns {
namespace {

struct Entry {
  std::string_view name;
  std::string_view description;
  std::string_view rle;
};

constexpr std::array kEntries = {
    Entry{"block", "2x2 still life", "2o$2o!"},
    Entry{"beehive", "6-cell still life", "b2o$o2bo$b2o!"},
    Entry{"blinker", "period-2 oscillator", "3o!"},
    Entry{"toad", "period-2 oscillator", "b3o$3o!"},
    Entry{"pulsar", "48-cell period-3 oscillator",
          "2b3o3b3o2$o4bobo4bo$o4bobo4bo$o4bobo4bo$2b3o3b3o2$2b3o3b3o$o4bobo4bo$o4bobo4bo$"
          "o4bobo4bo2$2b3o3b3o!"},
    Entry{"pentadecathlon", "12-cell period-15 oscillator", "2bo4bo$2ob4ob2o$2bo4bo!"},
    Entry{"glider", "moves (1,1) every 4 generations", "bo$2bo$3o!"},
    Entry{"lwss", "lightweight spaceship, c/2", "bo2bo$o4b$o3bo$4o!"},
    Entry{"mwss", "middleweight spaceship, c/2", "3bo$bo3bo$o$o4bo$5o!"},
    Entry{"hwss", "heavyweight spaceship, c/2", "3b2o$bo4bo$o$o5bo$6o!"},
    Entry{"r-pentomino", "methuselah: 116 cells at generation 1103", "b2o$2o$bo!"},
    Entry{"diehard", "methuselah that dies at generation 130", "6bo$2o$bo3b3o!"},
    Entry{"acorn", "methuselah: 633 cells at generation 5206", "bo$3bo$2o2b3o!"},
    Entry{"rabbits", "methuselah: stable at generation 17331 with 1744 cells", "o3b3o$3o2bo$bo!"},
    Entry{"bunnies", "methuselah: stable at generation 17332 with 1744 cells",
          "o5bo$2bo3bo$2bo2bobo$bobo!"},
    Entry{"lidka-predecessor",
          "2-generation predecessor of Lidka: settles at generation 29055, 1623 cells from 29056",
          "bo$obo$bo8$8bo$6bobo$5b2obo2$4b3o!"},
    Entry{"gosper-gun", "Gosper glider gun: one glider every 30 generations",
          "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$"
          "10bo5bo7bo$11bo3bo$12b2o!"},
    Entry{"switch-engine",
          "10-cell seed (Paul Callahan, 1997) that becomes a block-laying switch engine: "
          "linear growth forever",
          "6bo$4bob2o$4bobo$4bo$2bo$obo!"},
    Entry{"spacefiller",
          "Hartmut Holzwart's 1998 spacefiller: quadratic growth, population "
          "((t+17)^2+511)/4 at generations t divisible by 4",
          "20b3o3b3o$19bo2bo3bo2bo$4o18bo3bo18b4o$o3bo17bo3bo17bo3bo$o8bo12bo3bo12bo8bo$"
          "bo2bo2b2o2bo25bo2b2o2bo2bo$6bo5bo7b3o3b3o7bo5bo$6bo5bo8bo5bo8bo5bo$"
          "6bo5bo8b7o8bo5bo$bo2bo2b2o2bo2b2o4bo7bo4b2o2bo2b2o2bo2bo$"
          "o8bo3b2o4b11o4b2o3bo8bo$o3bo9b2o17b2o9bo3bo$4o11b19o11b4o$16bobo11bobo$"
          "19b11o$19bo9bo$20b9o$24bo$20b3o3b3o$22bo3bo2$21b3ob3o$21b3ob3o$20bob2ob2obo$"
          "20b3o3b3o$21bo5bo!"},
};

const Entry* find_entry(std::string_view name) {
  const auto it = std::find_if(kEntries.begin(), kEntries.end(),
                               [&](const Entry& e) { return e.name == name; });
  return it == kEntries.end() ? nullptr : &*it;
}

std::string joined_names() {
  std::string out;
  for (const Entry& e : kEntries) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

}  // namespace

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Entry& e : kEntries) out.emplace_back(e.name);
    return out;
  }();
  return names;
}

Pattern builtin_pattern(std::string_view name) {
  const Entry* entry = find_entry(name);
  const std::string source = "builtin:" + std::string(name);
  if (entry == nullptr) {
    throw InputError(source, 0, 0, "no such built-in pattern; known: " + joined_names());
  }
  Pattern pattern = parse_rle(entry->rle, source);
  pattern.name = std::string(entry->name);
  pattern.format = "builtin";
  pattern.comments = {std::string(entry->description)};
  return pattern;
}

std::string_view builtin_description(std::string_view name) {
  const Entry* entry = find_entry(name);
  return entry == nullptr ? std::string_view() : entry->description;
}

}  // namespace gol::patterns
