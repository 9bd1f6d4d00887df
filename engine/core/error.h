// Errors raised at I/O and command-line boundaries (the public exception
// types of <gol/error.h>) and the invariant checks; kernels never throw.
#pragma once

#include "gol/error.h"

namespace gol {

// Always-on invariant check for internal logic errors (not user input).
[[noreturn]] void check_failed(const char* file, int line, const char* condition);
#define GOL_CHECK(condition) \
  ((condition) ? static_cast<void>(0) : ::gol::check_failed(__FILE__, __LINE__, #condition))
#ifdef NDEBUG
#define GOL_DCHECK(condition) static_cast<void>(0)
#else
#define GOL_DCHECK(condition) GOL_CHECK(condition)
#endif

}  // namespace gol
