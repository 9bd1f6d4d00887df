// The table of MPI calls that the MPI module (libgol_mpi.so, built from
// dist/mpi_module/) hands gol_dist: plain types only, so that gol itself
// links no MPI library and loads one only when a run spans several ranks.
// Linked, libmpi cost every gol process about 4 ms of start-up (gol
// --version: 11.3 -> 7.0 ms).
//
// Every call acts on MPI_COMM_WORLD and returns 0 (MPI_SUCCESS) or MPI's
// error code. Counts are ints, as MPI's are.
#pragma once

#include <cstdint>

namespace gol::dist {

// Raised whenever the table changes, so that a module left from another
// build of gol is refused instead of called wrongly.
constexpr int kMpiCallsVersion = 1;

struct MpiCalls {
  int version;
  int (*init)();
  int (*finalize)();
  int (*rank)(int* result);
  int (*size)(int* result);
  int (*broadcast_words)(uint64_t* words, int count);
  int (*broadcast_chars)(char* text, int count);
  int (*send_words)(const uint64_t* words, int count, int to);
  int (*receive_words)(uint64_t* words, int count, int from);
  int (*exchange_words)(const uint64_t* out, int to, uint64_t* in, int from, int count, int tag);
  int (*barrier)();
  int (*max_double)(double value, double* result);
  int (*max_int)(int value, int* result);
  // `all` holds count words from each rank, in rank order, at rank 0.
  int (*gather_words)(const uint64_t* words, int count, uint64_t* all);
  void (*abort)(int exit_code);
};

// The one symbol the module exports: extern "C" const MpiCalls* gol_mpi_calls().
constexpr const char* kMpiCallsSymbol = "gol_mpi_calls";
using MpiCallsEntry = const MpiCalls* (*)();

}  // namespace gol::dist
