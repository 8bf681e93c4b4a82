// kcp over MPI (a build with KCP_ENABLE_MPI): the process's MPI session and its Peers (search/peers.hpp).
#pragma once

#include "search/peers.hpp"

#include <memory>

namespace kcp {

/// MPI for the life of the process, when it runs under an MPI launcher (mpirun, srun): initialised
/// here, with this process's Peers set (search/peers.hpp) when there is more than one rank. Without a
/// launcher nothing happens: one binary runs with or without mpirun.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  bool active() const { return active_; }
  int rank() const;
  int size() const;
  /// Ends every rank of the job with `code` (a rank that failed must not leave the others waiting).
  [[noreturn]] void abort(int code);

 private:
  bool active_ = false;
  std::unique_ptr<Peers> peers_;
};

}  // namespace kcp
