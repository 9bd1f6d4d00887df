// The memory budget: its default, the --max-memory size syntax, and the
// refusals that name the size and the budget with the right exit code.
#include "engine/core/memory_budget.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/core/error.h"

namespace gol {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Restores the budget a test changed.
class BudgetGuard {
 public:
  BudgetGuard() : saved_(memory_budget()) {}
  ~BudgetGuard() { set_memory_budget(saved_); }

 private:
  uint64_t saved_;
};

TEST(MemoryBudget, DefaultIsAShareOfTheMachine) {
  const uint64_t budget = default_memory_budget();
  const uint64_t ram =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  EXPECT_GE(budget, kMinMemoryBudget);
  EXPECT_LE(budget, ram / 2);
}

TEST(MemoryBudget, DefaultFollowsAnAddressSpaceLimit) {
  if (kAddressSanitizer) {
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of shadow address space, so no "
                    "process under it can run within an RLIMIT_AS of 1 GiB";
  }
  // In a child, so the limit does not bind the rest of the suite.
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const rlimit limit{uint64_t{1} << 30, uint64_t{1} << 30};
    setrlimit(RLIMIT_AS, &limit);
    _exit(default_memory_budget() == uint64_t{1} << 29 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(MemoryBudget, ParsesSizes) {
  EXPECT_EQ(parse_memory_size("512M"), uint64_t{512} << 20);
  EXPECT_EQ(parse_memory_size("4g"), uint64_t{4} << 30);
  EXPECT_EQ(parse_memory_size("1.5GiB"), uint64_t{3} << 29);
  EXPECT_EQ(parse_memory_size("4096KB"), uint64_t{4} << 20);
  EXPECT_EQ(parse_memory_size("2T"), uint64_t{2} << 40);
  EXPECT_EQ(parse_memory_size("2000000"), uint64_t{2000000});
}

TEST(MemoryBudget, RefusesBadSizesNamingTheFlag) {
  for (const char* bad :
       {"", "abc", "-1G", "1.2.3G", "5X", "1Gb2", ".5G", "1e9", "99999999T", "1000", "0"}) {
    try {
      parse_memory_size(bad, "--max-memory");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_EQ(e.code(), ExitCode::kUsage);
      EXPECT_NE(std::string(e.what()).find("--max-memory"), std::string::npos) << e.what();
    }
  }
}

TEST(MemoryBudget, FormatsBytes) {
  EXPECT_EQ(format_bytes(100), "100 bytes");
  EXPECT_EQ(format_bytes(uint64_t{3} << 29), "1.5 GiB");
  EXPECT_EQ(format_bytes(uint64_t{512} << 20), "512 MiB");
}

TEST(MemoryBudget, SaturatesInsteadOfOverflowing) {
  EXPECT_EQ(saturating_mul(uint64_t{1} << 40, uint64_t{1} << 40), UINT64_MAX);
  EXPECT_EQ(saturating_add(UINT64_MAX - 1, 2), UINT64_MAX);
  EXPECT_EQ(saturating_mul(3, 5), 15u);
}

TEST(MemoryBudget, InputRefusalNamesSizeBudgetAndLocation) {
  BudgetGuard guard;
  set_memory_budget(uint64_t{64} << 20);
  check_input_memory(uint64_t{64} << 20, "exactly the budget");
  try {
    check_input_memory(uint64_t{3} << 30, "a run of 9999999999 cells", "big.rle", 1, 11);
    FAIL() << "not refused";
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), ExitCode::kInput);
    EXPECT_STREQ(e.what(),
                 "big.rle:1:11: a run of 9999999999 cells needs 3.0 GiB, more than the memory "
                 "budget of 64 MiB (set it with --max-memory)");
  }
}

TEST(MemoryBudget, RuntimeRefusalIsExitFour) {
  BudgetGuard guard;
  set_memory_budget(uint64_t{64} << 20);
  try {
    check_runtime_memory(UINT64_MAX, "the grid");
    FAIL() << "not refused";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("more than 16 EiB"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gol
