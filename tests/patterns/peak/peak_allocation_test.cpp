// Peak memory while loading (issue 8): reading a pattern file holds memory
// that grows with its live cells, never with the length of its text. This
// binary replaces the global operator new to count the bytes held, so it
// is built apart from the other pattern tests.
#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <new>

#include "engine/simulation.h"
#include "patterns/gzip.h"
#include "patterns/pattern_io.h"
#include "patterns/soup.h"
#include "tests/patterns/test_util.h"

namespace {

std::atomic<uint64_t> held_bytes{0};
std::atomic<uint64_t> peak_bytes{0};

// Counts a block, or passes null on (the nothrow forms).
void* counted_or_null(void* p) noexcept {
  if (p == nullptr) return p;
  const uint64_t now = held_bytes += malloc_usable_size(p);
  uint64_t peak = peak_bytes.load();
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
  }
  return p;
}

void* counted(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  return counted_or_null(p);
}

void uncounted(void* p) {
  if (p == nullptr) return;
  held_bytes -= malloc_usable_size(p);
  std::free(p);
}

void* aligned_block(size_t size, std::align_val_t alignment) noexcept {
  const auto align = static_cast<size_t>(alignment);
  return std::aligned_alloc(align, (size + align - 1) / align * align);
}

}  // namespace

void* operator new(size_t size) { return counted(std::malloc(size)); }
void* operator new[](size_t size) { return counted(std::malloc(size)); }
void* operator new(size_t size, std::align_val_t alignment) {
  return counted(aligned_block(size, alignment));
}
void* operator new[](size_t size, std::align_val_t alignment) {
  return counted(aligned_block(size, alignment));
}
// The nothrow forms too (std::stable_sort's buffer uses one): every block
// must come from malloc, since every delete below frees it.
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  return counted_or_null(std::malloc(size));
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return counted_or_null(std::malloc(size));
}
void* operator new(size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return counted_or_null(aligned_block(size, alignment));
}
void* operator new[](size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return counted_or_null(aligned_block(size, alignment));
}
void operator delete(void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete(void* p) noexcept { uncounted(p); }
void operator delete[](void* p) noexcept { uncounted(p); }
void operator delete(void* p, size_t) noexcept { uncounted(p); }
void operator delete[](void* p, size_t) noexcept { uncounted(p); }
void operator delete(void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { uncounted(p); }

namespace gol::patterns {
namespace {

using testing::ScratchDir;

// The reader's buffer, gzip's input buffer and small strings: what loading
// may hold beyond the tiles, whatever the file's length.
constexpr uint64_t kFixedBytes = 512 * 1024;

struct Loaded {
  Pattern pattern;
  uint64_t peak = 0;  // most bytes held above those held before loading
};

Loaded load_counting_peak(const std::string& path) {
  const uint64_t before = held_bytes.load();
  peak_bytes = before;
  Loaded loaded{read_pattern_file(path), 0};
  loaded.peak = peak_bytes.load() - before;
  return loaded;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

class PeakWhileLoading : public ::testing::TestWithParam<bool> {
 protected:
  // The file holding `text`, gzip-compressed when the parameter says so.
  std::string file_of(const std::string& text) {
    const std::string path = dir_.file(GetParam() ? "p.rle.gz" : "p.rle");
    write_file(path, GetParam() ? gzip(text) : text);
    return path;
  }

  ScratchDir dir_;
};

TEST_P(PeakWhileLoading, SoupHoldsItsTilesNotItsText) {
  const CellSet soup = make_soup({2048, 2048, 0.5, 11});
  Pattern pattern;
  pattern.cells = soup;
  std::string text = to_rle(pattern);
  const uint64_t text_size = text.size();
  const std::string path = file_of(text);
  text = std::string();  // not counted: freed before loading

  const Loaded loaded = load_counting_peak(path);
  EXPECT_EQ(loaded.pattern.cells, soup);
  const uint64_t tiles = soup.tiles().size();
  EXPECT_LE(loaded.peak, tiles * CellSet::kBytesPerTile + kFixedBytes)
      << tiles << " tiles, text " << text_size << " bytes";
  // The bound means something: the text is several times what the cells take.
  EXPECT_GT(text_size, 3 * tiles * CellSet::kBytesPerTile) << loaded.peak << " bytes at the peak";
}

TEST_P(PeakWhileLoading, LongTextFewCellsStaysSmall) {
  // 24 MB of dead runs around three live cells.
  std::string text = "x = 1, y = 1\n";
  const std::string dead_line = std::string(34, 'b') + "2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b\n";
  for (int i = 0; i < 340000; ++i) text += dead_line;
  text += "o$o$o!\n";
  const std::string path = file_of(text);
  text = std::string();

  const Loaded loaded = load_counting_peak(path);
  EXPECT_EQ(loaded.pattern.cells.population(), 3u);
  EXPECT_LE(loaded.peak, 3 * CellSet::kBytesPerTile + kFixedBytes);
}

INSTANTIATE_TEST_SUITE_P(PlainAndGzip, PeakWhileLoading, ::testing::Bool(),
                         [](const auto& suite) { return suite.param ? "gzip" : "plain"; });

// A Simulation made from a pattern it may take apart frees the pattern's
// tiles as the engine copies them in (its grid lives in mapped slabs, not
// on the heap this binary counts), so the heap ends up holding far less
// than the pattern did; one made from a pattern it may not touch leaves it
// whole.
TEST(PeakWhileLoadingTheWorld, TheEngineTakesApartAPatternItIsGiven) {
  SimulationOptions options;
  options.backend = "simd";
  options.backend_options.threads = 1;
  const uint64_t before = held_bytes.load();
  Pattern pattern;
  pattern.cells = make_soup({1024, 1024, 0.5, 12});
  const uint64_t pattern_bytes = held_bytes.load() - before;
  {
    const Simulation kept(pattern, options);
    EXPECT_GE(held_bytes.load() - before, pattern_bytes);
  }
  const Simulation taken(std::move(pattern), options);
  EXPECT_LT(held_bytes.load() - before, pattern_bytes / 4)
      << "the pattern's " << pattern_bytes << " bytes were not freed while loading";
  EXPECT_EQ(taken.population(), make_soup({1024, 1024, 0.5, 12}).population());
}

}  // namespace
}  // namespace gol::patterns
