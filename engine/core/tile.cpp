// Tile members compiled apart from the header.
#include "engine/core/tile.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gol {

namespace {

// The build has no -march (see bit_count.h), so the count is picked at
// first use from what the CPU has: AVX-512's VPOPCNTQ counts eight rows an
// instruction, popcnt one (half bit_count's time: 49 thousand tiles, 9 -> 5
// ms, out of the cache). Counting the tiles written since the last read is
// most of a log row every generation (TileMap::population).
uint64_t count_cells_portable(const uint64_t* rows) {
  uint64_t count = 0;
  for (int row = 0; row < kTileSize; ++row) count += static_cast<uint64_t>(bit_count(rows[row]));
  return count;
}

#if defined(__x86_64__)
__attribute__((target("popcnt"))) uint64_t count_cells_popcnt(const uint64_t* rows) {
  uint64_t count = 0;
  for (int row = 0; row < kTileSize; ++row) {
    count += static_cast<uint64_t>(__builtin_popcountll(rows[row]));
  }
  return count;
}

__attribute__((target("avx512f,avx512vpopcntdq"))) uint64_t count_cells_vpopcnt(
    const uint64_t* rows) {
  __m512i counts = _mm512_set1_epi64(0);
  for (int row = 0; row < kTileSize; row += 8) {
    counts = _mm512_add_epi64(counts, _mm512_popcnt_epi64(_mm512_loadu_si512(rows + row)));
  }
  // Summed from memory: GCC 12's reduction intrinsics warn of the
  // undefined lanes they start from.
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, counts);
  uint64_t count = 0;
  for (const uint64_t lane : lanes) count += lane;
  return count;
}
#endif

uint64_t count_cells(const uint64_t* rows) {
  static const TileCellCounter counter = tile_cell_counters().front();
  return counter(rows);
}

}  // namespace

std::vector<TileCellCounter> tile_cell_counters() {
  std::vector<TileCellCounter> counters;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512vpopcntdq")) counters.push_back(count_cells_vpopcnt);
  if (__builtin_cpu_supports("popcnt")) counters.push_back(count_cells_popcnt);
#endif
  counters.push_back(count_cells_portable);
  return counters;
}

uint64_t Tile::population() const { return count_cells(rows.data()); }

}  // namespace gol
