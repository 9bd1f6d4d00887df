// Random soups: splitmix64 derives one xoshiro256** stream per tile, and a
// density p = T/65536 is built bit-serially from whole random words (one word
// per set bit of T from its lowest set bit up), 64 cells at a time.
#include "patterns/soup.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>

#include "engine/core/error.h"
#include "engine/core/memory_budget.h"

namespace gol::patterns {
namespace {

constexpr int kDensityBits = 16;
constexpr uint64_t kDensityOne = uint64_t{1} << kDensityBits;

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

class Xoshiro256StarStar {
 public:
  explicit Xoshiro256StarStar(uint64_t seed) {
    for (uint64_t& word : state_) word = splitmix64(seed);
  }
  uint64_t next() {
    const uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = std::rotl(state_[3], 45);
    return result;
  }

 private:
  std::array<uint64_t, 4> state_{};
};

// Each coordinate goes through its own splitmix round so (tx, ty) and
// (ty, tx) give unrelated streams.
uint64_t tile_seed(uint64_t seed, int64_t tx, int64_t ty) {
  uint64_t state = seed;
  uint64_t h = splitmix64(state);
  state = h ^ static_cast<uint64_t>(tx);
  h = splitmix64(state);
  state = h ^ static_cast<uint64_t>(ty);
  return splitmix64(state);
}

uint64_t density_threshold(double density) {
  const auto steps = static_cast<uint64_t>(std::llround(density * double(kDensityOne)));
  return std::clamp<uint64_t>(steps, 1, kDensityOne);
}

// A word whose bits are each set with probability threshold / 65536: reading
// the threshold's bits from least to most significant, a 1 bit ORs in a
// fresh random word and a 0 bit ANDs one in.
uint64_t random_word(Xoshiro256StarStar& rng, uint64_t threshold) {
  if (threshold == kDensityOne) return ~uint64_t{0};
  uint64_t word = 0;
  for (int bit = std::countr_zero(threshold); bit < kDensityBits; ++bit) {
    const uint64_t r = rng.next();
    word = ((threshold >> bit) & 1u) ? (word | r) : (word & r);
  }
  return word;
}

uint64_t low_bits(int64_t count) { return count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1; }

[[noreturn]] void fail(std::string_view spec, size_t column, const std::string& what) {
  throw InputError("soup:" + std::string(spec), 0, 0,
                   "column " + std::to_string(column + 1) + ": " + what +
                       " (expected soup:WxH[:DENSITY[:SEED]], e.g. soup:1024x1024:0.35:7)");
}

template <typename T>
T parse_number(std::string_view spec, size_t& pos, std::string_view stop, std::string_view what) {
  const size_t start = pos;
  size_t end = spec.find_first_of(stop, start);
  if (end == std::string_view::npos) end = spec.size();
  T value{};
  const auto [ptr, ec] = std::from_chars(spec.data() + start, spec.data() + end, value);
  if (start == end || ec != std::errc() || ptr != spec.data() + end) {
    fail(spec, start,
         "bad " + std::string(what) + " '" + std::string(spec.substr(start, end - start)) + "'");
  }
  pos = end;
  return value;
}

}  // namespace

SoupSpec parse_soup_spec(std::string_view spec) {
  SoupSpec soup{0, 0};
  size_t pos = 0;
  soup.width = parse_number<int64_t>(spec, pos, "xX:", "width");
  if (pos >= spec.size() || (spec[pos] != 'x' && spec[pos] != 'X')) fail(spec, pos, "missing 'x'");
  ++pos;
  soup.height = parse_number<int64_t>(spec, pos, ":", "height");
  if (soup.width <= 0 || soup.height <= 0) fail(spec, 0, "width and height must be positive");
  const uint64_t tiles = saturating_mul(static_cast<uint64_t>((soup.width - 1) / kTileSize + 1),
                                        static_cast<uint64_t>((soup.height - 1) / kTileSize + 1));
  // A soup is made to be run: its cells and the engine's copy of them are
  // held at once while it loads.
  check_input_memory(saturating_mul(tiles, CellSet::kBytesPerTile + kEngineBytesPerTile),
                     "a " + std::to_string(soup.width) + "x" + std::to_string(soup.height) +
                         " soup (its cells and the engine's copy of them)",
                     "soup:" + std::string(spec));
  if (pos < spec.size()) {
    const size_t density_pos = ++pos;
    soup.density = parse_number<double>(spec, pos, ":", "density");
    if (!(soup.density > 0.0 && soup.density <= 1.0)) {
      fail(spec, density_pos, "density must be in (0, 1]");
    }
  }
  if (pos < spec.size()) {
    ++pos;
    soup.seed = parse_number<uint64_t>(spec, pos, ":", "seed");
  }
  if (pos < spec.size()) fail(spec, pos, "unexpected text after the seed");
  return soup;
}

std::string soup_name(const SoupSpec& spec) {
  char density[32];
  const auto result = std::to_chars(density, density + sizeof density, spec.density);
  return "soup:" + std::to_string(spec.width) + "x" + std::to_string(spec.height) + ":" +
         std::string(density, result.ptr) + ":" + std::to_string(spec.seed);
}

CellSet make_soup(const SoupSpec& spec) {
  CellSet cells;
  const uint64_t threshold = density_threshold(spec.density);
  const int64_t tiles_x = (spec.width + kTileSize - 1) / kTileSize;
  const int64_t tiles_y = (spec.height + kTileSize - 1) / kTileSize;
  Tile tile;
  for (int64_t ty = 0; ty < tiles_y; ++ty) {
    const int64_t rows = std::min<int64_t>(kTileSize, spec.height - ty * kTileSize);
    for (int64_t tx = 0; tx < tiles_x; ++tx) {
      const uint64_t mask = low_bits(spec.width - tx * kTileSize);
      Xoshiro256StarStar rng(tile_seed(spec.seed, tx, ty));
      for (int64_t r = 0; r < kTileSize; ++r) {
        tile.rows[r] = r < rows ? random_word(rng, threshold) & mask : 0;
      }
      cells.put_tile({tx, ty}, tile);
    }
  }
  return cells;
}

}  // namespace gol::patterns
