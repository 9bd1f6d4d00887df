// The MPI module (libgol_mpi.so): the only code of gol that calls MPI or
// links it. gol_dist loads it when a run spans several ranks (see
// dist/mpi_calls.h).
#include <mpi.h>

#include <cstdint>

#include "dist/mpi_calls.h"

namespace gol::dist {
namespace {

static_assert(MPI_SUCCESS == 0, "dist/mpi_calls.h promises 0 for success");

int init() { return MPI_Init(nullptr, nullptr); }

int finalize() { return MPI_Finalize(); }

int rank(int* result) { return MPI_Comm_rank(MPI_COMM_WORLD, result); }

int size(int* result) { return MPI_Comm_size(MPI_COMM_WORLD, result); }

int broadcast_words(uint64_t* words, int count) {
  return MPI_Bcast(words, count, MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

int broadcast_chars(char* text, int count) {
  return MPI_Bcast(text, count, MPI_CHAR, 0, MPI_COMM_WORLD);
}

int send_words(const uint64_t* words, int count, int to) {
  return MPI_Send(words, count, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
}

int receive_words(uint64_t* words, int count, int from) {
  return MPI_Recv(words, count, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int exchange_words(const uint64_t* out, int to, uint64_t* in, int from, int count, int tag) {
  return MPI_Sendrecv(out, count, MPI_UINT64_T, to, tag, in, count, MPI_UINT64_T, from, tag,
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int barrier() { return MPI_Barrier(MPI_COMM_WORLD); }

int max_double(double value, double* result) {
  return MPI_Allreduce(&value, result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

int max_int(int value, int* result) {
  return MPI_Allreduce(&value, result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

int gather_words(const uint64_t* words, int count, uint64_t* all) {
  return MPI_Gather(words, count, MPI_UINT64_T, all, count, MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

void abort(int exit_code) { MPI_Abort(MPI_COMM_WORLD, exit_code); }

constexpr MpiCalls kCalls{
    .version = kMpiCallsVersion,
    .init = init,
    .finalize = finalize,
    .rank = rank,
    .size = size,
    .broadcast_words = broadcast_words,
    .broadcast_chars = broadcast_chars,
    .send_words = send_words,
    .receive_words = receive_words,
    .exchange_words = exchange_words,
    .barrier = barrier,
    .max_double = max_double,
    .max_int = max_int,
    .gather_words = gather_words,
    .abort = abort,
};

}  // namespace
}  // namespace gol::dist

// The module is built with hidden visibility: this is all it exports.
extern "C" __attribute__((visibility("default"))) const gol::dist::MpiCalls* gol_mpi_calls() {
  return &gol::dist::kCalls;
}
