// The other processes of a distributed search, as the search's driver (run_search, search/driver/run_loop.cpp)
// sees them: kcp over MPI (`mpirun -n K kcp model.fzn`, search/mpi_peers.cpp in a build with
// KCP_ENABLE_MPI) is one implementation. The search library itself does not depend on MPI.
//
// What the ranks share (the protocol is run_search's, README "Across processes"):
// - the subproblems: all ranks split the root into the same 2^p subproblems, dealt in chunks of
//   2^chunk_log from a counter on rank 0 (one-sided fetch-and-add: dynamic), or round-robin by rank
//   (static); a subtree a rank finds empty past its chunk moves the counter past it (fetch-and-max);
// - the best objective: a cell on rank 0 that each rank lowers and reads after every slice
//   (fetch-and-min), so a bound reaches every rank within one slice of its own;
// - messages, in order between two ranks: solutions and status to rank 0, which alone prints; the
//   incumbent and the stop from rank 0 to the others; the clauses each rank's explaining search
//   exports, to every other rank; in the end game, pieces of subproblems (open branches) from busy
//   ranks through rank 0 to ranks whose part is done or that starve, and rank 0's asks for them; each
//   rank's counters at the end (a peer then drops what still arrives until every rank's sends have
//   completed: MpiPeers' destructor). Receives are posted as messages begin to arrive and handed over
//   as they complete, each sender's in order (MpiPeers::post_receives).
#pragma once

#include <cstdint>
#include <vector>

namespace kcp {

class Peers {
 public:
  virtual ~Peers() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// The rank among those on the same host (a GPU per local rank), and how many run there.
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;
  /// Collectives: every rank calls them, in the same order, and gets the maximum (minimum) of all.
  virtual std::int64_t all_max(std::int64_t v) = 0;
  virtual std::int64_t all_min(std::int64_t v) = 0;
  /// The cells on rank 0 that every rank updates atomically (one-sided); each returns the old value.
  enum Cell : int { next_chunk = 0, best = 1, cell_count };
  virtual std::int64_t fetch_add(Cell cell, std::int64_t v) = 0;
  virtual std::int64_t fetch_max(Cell cell, std::int64_t v) = 0;
  virtual std::int64_t fetch_min(Cell cell, std::int64_t v) = 0;
  /// Sends a message (returns at once; messages from one rank to another arrive in order).
  virtual void send(int to, std::vector<std::int64_t> message) = 0;
  /// The next message that arrived, and its sender; false when none has (with `wait_s` > 0, after
  /// waiting that long for one).
  virtual bool receive(int& from, std::vector<std::int64_t>& message, double wait_s = 0) = 0;
};

/// The peers of this process: set by main when kcp runs under an MPI launcher with more than one
/// rank, else null (a search alone).
Peers* process_peers();
void set_process_peers(Peers* peers);

}  // namespace kcp
