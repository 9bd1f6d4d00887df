#include "dist/mpi_world.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "engine/core/error.h"

namespace gol::dist {
namespace {

// Words per message: MPI counts are ints.
constexpr size_t kMaxMessageWords = size_t{1} << 28;

int environment_count(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr) return 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return end != text && *end == '\0' && value > 0 && value < (1L << 24) ? static_cast<int>(value)
                                                                        : 0;
}

void check(int result, const char* call) {
  if (result != MPI_SUCCESS) throw RuntimeError(std::string("MPI: ") + call + " failed");
}

}  // namespace

bool launched_with_several_ranks() {
  return std::max(environment_count("OMPI_COMM_WORLD_SIZE"), environment_count("PMI_SIZE")) > 1;
}

int ranks_on_this_host() { return std::max(1, environment_count("OMPI_COMM_WORLD_LOCAL_SIZE")); }

MpiWorld::MpiWorld() {
  // A rank waiting for halos gives its core back instead of polling, unless
  // the user chose otherwise: ranks often share cores (with each other on
  // small machines, with other work on shared ones), where polling starves
  // the rank being waited for. Measured on the 2-core dev machine under
  // load: 2 ranks on a 4096^2 torus, 1000 generations, 1.2 s polling and
  // 1.0 s yielding (medians of 4). A dedicated core pays microseconds per
  // exchange, one every kHaloRows generations.
  setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
  check(MPI_Init(nullptr, nullptr), "MPI_Init");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

MpiWorld::~MpiWorld() { MPI_Finalize(); }

void MpiWorld::broadcast(std::vector<uint64_t>& words) const {
  uint64_t count = words.size();
  check(MPI_Bcast(&count, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  words.resize(count);
  check(MPI_Bcast(words.data(), static_cast<int>(count), MPI_UINT64_T, 0, MPI_COMM_WORLD),
        "MPI_Bcast");
}

void MpiWorld::broadcast(std::string& text) const {
  uint64_t count = text.size();
  check(MPI_Bcast(&count, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  text.resize(count);
  check(MPI_Bcast(text.data(), static_cast<int>(count), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
}

void MpiWorld::send(const uint64_t* words, size_t count, int to) const {
  for (size_t done = 0; done < count; done += kMaxMessageWords) {
    const int part = static_cast<int>(std::min(kMaxMessageWords, count - done));
    check(MPI_Send(words + done, part, MPI_UINT64_T, to, 0, MPI_COMM_WORLD), "MPI_Send");
  }
}

void MpiWorld::receive(uint64_t* words, size_t count, int from) const {
  for (size_t done = 0; done < count; done += kMaxMessageWords) {
    const int part = static_cast<int>(std::min(kMaxMessageWords, count - done));
    check(MPI_Recv(words + done, part, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Recv");
  }
}

void MpiWorld::exchange(const uint64_t* out, int to, uint64_t* in, int from, size_t count,
                        int tag) const {
  for (size_t done = 0; done < count; done += kMaxMessageWords) {
    const int part = static_cast<int>(std::min(kMaxMessageWords, count - done));
    check(MPI_Sendrecv(out + done, part, MPI_UINT64_T, to, tag, in + done, part, MPI_UINT64_T, from,
                       tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  }
}

void MpiWorld::barrier() const { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

double MpiWorld::max_over_ranks(double value) const {
  double result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return result;
}

int MpiWorld::max_over_ranks(int value) const {
  int result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return result;
}

std::vector<uint64_t> MpiWorld::gather(const std::vector<uint64_t>& words) const {
  std::vector<uint64_t> all(rank_ == 0 ? words.size() * static_cast<size_t>(size_) : 0);
  check(MPI_Gather(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, all.data(),
                   static_cast<int>(words.size()), MPI_UINT64_T, 0, MPI_COMM_WORLD),
        "MPI_Gather");
  return all;
}

void MpiWorld::abort(int exit_code) const {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

}  // namespace gol::dist
