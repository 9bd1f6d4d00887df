// The MPI side of the distributed layer, kept to one place: whether mpirun
// started this process with other ranks, the session (MPI_Init to
// MPI_Finalize) and the few messages the band run sends. No MPI types
// escape this header, and gol does not link MPI: the session loads the MPI
// module (dist/mpi_calls.h) and calls MPI through it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gol::dist {

// More than one rank in this job, as told by the launcher's environment
// (Open MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE of MPICH-style launchers).
// Read before MPI starts, so a plain or one-rank run never starts it.
bool launched_with_several_ranks();

// Ranks of this job on this host (OMPI_COMM_WORLD_LOCAL_SIZE), 1 if unknown:
// the ranks share its cores.
int ranks_on_this_host();

struct MpiCalls;

class MpiWorld {
 public:
  // Loads the MPI module, then MPI_Init. Throws RuntimeError naming the
  // module's path when it or the MPI library cannot be loaded.
  MpiWorld();
  ~MpiWorld();  // MPI_Finalize
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int up() const { return (rank_ + size_ - 1) % size_; }
  int down() const { return (rank_ + 1) % size_; }

  // Collective: the root's value everywhere.
  void broadcast(std::vector<uint64_t>& words) const;
  void broadcast(std::string& text) const;
  // Point to point, split into messages MPI's int counts can hold.
  void send(const uint64_t* words, size_t count, int to) const;
  void receive(uint64_t* words, size_t count, int from) const;
  // Sends `count` words to `to` while receiving as many from `from`.
  void exchange(const uint64_t* out, int to, uint64_t* in, int from, size_t count, int tag) const;
  void barrier() const;
  double max_over_ranks(double value) const;
  int max_over_ranks(int value) const;
  // Gathers each rank's `words` (all of the same length) at the root.
  std::vector<uint64_t> gather(const std::vector<uint64_t>& words) const;
  // Ends every rank of the job: for failures after the ranks have started
  // working together, where one rank alone cannot leave.
  [[noreturn]] void abort(int exit_code) const;

 private:
  const MpiCalls* mpi_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace gol::dist
