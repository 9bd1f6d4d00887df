#include "dist/mpi_world.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "dist/mpi_calls.h"
#include "dist/mpi_loader.h"
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
  if (result != 0) {
    throw RuntimeError(std::string("MPI: ") + call + " failed with error " +
                       std::to_string(result));
  }
}

}  // namespace

bool launched_with_several_ranks() {
  return std::max(environment_count("OMPI_COMM_WORLD_SIZE"), environment_count("PMI_SIZE")) > 1;
}

int ranks_on_this_host() { return std::max(1, environment_count("OMPI_COMM_WORLD_LOCAL_SIZE")); }

MpiWorld::MpiWorld() : mpi_(&load_mpi_calls(mpi_module_path())) {
  // A rank waiting for halos gives its core back instead of polling, unless
  // the user chose otherwise: ranks often share cores (with each other on
  // small machines, with other work on shared ones), where polling starves
  // the rank being waited for. Measured on the 2-core dev machine under
  // load: 2 ranks on a 4096^2 torus, 1000 generations, 1.2 s polling and
  // 1.0 s yielding (medians of 4). A dedicated core pays microseconds per
  // exchange, one every kHaloRows generations.
  setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
  check(mpi_->init(), "MPI_Init");
  check(mpi_->rank(&rank_), "MPI_Comm_rank");
  check(mpi_->size(&size_), "MPI_Comm_size");
}

MpiWorld::~MpiWorld() { mpi_->finalize(); }

void MpiWorld::broadcast(std::vector<uint64_t>& words) const {
  uint64_t count = words.size();
  check(mpi_->broadcast_words(&count, 1), "MPI_Bcast");
  words.resize(count);
  check(mpi_->broadcast_words(words.data(), static_cast<int>(count)), "MPI_Bcast");
}

void MpiWorld::broadcast(std::string& text) const {
  uint64_t count = text.size();
  check(mpi_->broadcast_words(&count, 1), "MPI_Bcast");
  text.resize(count);
  check(mpi_->broadcast_chars(text.data(), static_cast<int>(count)), "MPI_Bcast");
}

void MpiWorld::send(const uint64_t* words, size_t count, int to) const {
  for (size_t done = 0; done < count; done += kMaxMessageWords) {
    const int part = static_cast<int>(std::min(kMaxMessageWords, count - done));
    check(mpi_->send_words(words + done, part, to), "MPI_Send");
  }
}

void MpiWorld::receive(uint64_t* words, size_t count, int from) const {
  for (size_t done = 0; done < count; done += kMaxMessageWords) {
    const int part = static_cast<int>(std::min(kMaxMessageWords, count - done));
    check(mpi_->receive_words(words + done, part, from), "MPI_Recv");
  }
}

void MpiWorld::exchange(const uint64_t* out, int to, uint64_t* in, int from, size_t count,
                        int tag) const {
  for (size_t done = 0; done < count; done += kMaxMessageWords) {
    const int part = static_cast<int>(std::min(kMaxMessageWords, count - done));
    check(mpi_->exchange_words(out + done, to, in + done, from, part, tag), "MPI_Sendrecv");
  }
}

void MpiWorld::barrier() const { check(mpi_->barrier(), "MPI_Barrier"); }

double MpiWorld::max_over_ranks(double value) const {
  double result = 0;
  check(mpi_->max_double(value, &result), "MPI_Allreduce");
  return result;
}

int MpiWorld::max_over_ranks(int value) const {
  int result = 0;
  check(mpi_->max_int(value, &result), "MPI_Allreduce");
  return result;
}

std::vector<uint64_t> MpiWorld::gather(const std::vector<uint64_t>& words) const {
  std::vector<uint64_t> all(rank_ == 0 ? words.size() * static_cast<size_t>(size_) : 0);
  check(mpi_->gather_words(words.data(), static_cast<int>(words.size()), all.data()), "MPI_Gather");
  return all;
}

void MpiWorld::abort(int exit_code) const {
  mpi_->abort(exit_code);
  std::_Exit(exit_code);
}

}  // namespace gol::dist
