// The one memory budget: the most memory a size read from input or from the
// command line may make gol allocate. Readers, soups, tori, backends and
// writers check what a size will cost against it BEFORE allocating, so a
// 26-byte file cannot ask for gigabytes; a refusal names the size and the
// budget (exit 3 for input, exit 4 at run time).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gol {

// Half of the machine's memory, or of a smaller cgroup or rlimit limit on
// this process: the rest is left for the operating system, the page cache
// and the allocator's own slack.
uint64_t default_memory_budget();

// The budget in bytes: default_memory_budget() until set_memory_budget().
uint64_t memory_budget();
// Sets the budget (--max-memory). Thread-safe; takes effect for the next check.
void set_memory_budget(uint64_t bytes);

// What a backend may hold for each 64x64 tile of its world: the sparse
// engine's two generations (1 KiB) and its bookkeeping per slot
// (sparse/tile_map.cpp checks its layout against this). Sizes that will be
// stepped are charged this on top of what the cells themselves take.
inline constexpr uint64_t kEngineBytesPerTile = 1344;

// The smallest budget accepted from the command line: below it not even the
// built-in patterns load.
inline constexpr uint64_t kMinMemoryBudget = uint64_t{1} << 20;

// Parses a size such as "512M", "4G", "1.5GiB", "4096K" or "1000000"
// (bytes). Units are binary (K = 1024) whether written K, KB or KiB, in any
// case. Throws UsageError naming `flag` for junk, overflow or a size below
// kMinMemoryBudget.
uint64_t parse_memory_size(std::string_view text, std::string_view flag = "--max-memory");

// "1.5 GiB", "512 MiB", "100 bytes".
std::string format_bytes(uint64_t bytes);

// a * b, or UINT64_MAX when the product does not fit (never fits a budget).
uint64_t saturating_mul(uint64_t a, uint64_t b);
// a + b, or UINT64_MAX when the sum does not fit.
uint64_t saturating_add(uint64_t a, uint64_t b);

// Gives the pages of freed heap memory back to the system (glibc keeps them
// otherwise), so that memory handed from one structure to another while a
// world loads is not held twice. Costs a walk over the heap's free chunks.
void return_freed_memory();

// Has glibc give freed memory at the top of the heap back in steps of
// about a megabyte rather than a page. By default, freeing a large
// pattern's tiles one by one (a CellSet of an 8192^2 soup) shrank the heap
// a page at a time: 3234 brk calls, each flushing the TLB, about 30 ms of
// the torus bench's 0.5 s process. Call once, before any large allocation.
void release_heap_in_large_steps();

bool fits_memory_budget(uint64_t bytes);

// "WHAT needs 1.5 GiB, more than the memory budget of 512 MiB (set it with
// --max-memory)".
std::string over_budget_message(std::string_view what, uint64_t bytes);

// Throws InputError (exit 3) located at source:line:column (0: left out)
// when `bytes` does not fit the budget. `what` names the thing being sized,
// e.g. "a run of 9999999999 cells".
void check_input_memory(uint64_t bytes, std::string_view what, std::string_view source = {},
                        int64_t line = 0, int64_t column = 0);
// Throws RuntimeError (exit 4) when `bytes` does not fit the budget.
void check_runtime_memory(uint64_t bytes, std::string_view what);

}  // namespace gol
