#include "search/mpi_peers.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <list>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace kcp {

namespace {

constexpr int message_tag = 0x6b6370;  // "kcp"

/// Whether an MPI launcher started this process (OpenMPI's mpirun, a PMI or PMIx launcher such as
/// srun or MPICH's hydra). Without one kcp does not initialise MPI (a singleton start costs time and,
/// under OpenMPI, a helper daemon).
bool under_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

class MpiPeers final : public Peers {
 public:
  MpiPeers() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank_);
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
    // The cells live on rank 0; every rank reaches them with passive-target atomics.
    const MPI_Aint bytes = rank_ == 0 ? MPI_Aint(cell_count * sizeof(std::int64_t)) : 0;
    check(MPI_Win_allocate(bytes, sizeof(std::int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &cells_, &window_),
          "MPI_Win_allocate");
    if (rank_ == 0) {
      cells_[next_chunk] = 0;
      cells_[best] = INT64_MAX;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, window_);
  }
  ~MpiPeers() override {
    // The driver's protocol ends with each rank's counters to rank 0 and rank 0's stop to each, but
    // ranks also send each other clauses (search/driver/run_loop.cpp): one may still be on its way to a rank
    // that has finished. So every rank receives (and drops) what still arrives until its own sends
    // have completed and every rank has said so (a non-blocking barrier); then the window goes
    // (collective).
    MPI_Request barrier = MPI_REQUEST_NULL;
    std::vector<std::int64_t> dropped;
    int from = 0;
    for (;;) {
      if (receive(from, dropped, 0)) continue;  // settles the sends too
      if (barrier == MPI_REQUEST_NULL && pending_.empty() && incoming_.empty()) MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
      if (barrier != MPI_REQUEST_NULL) {
        int done = 0;
        MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
        if (done) {
          // Every send has completed: what was posted completes too.
          while (!incoming_.empty())
            if (!take_completed(from, dropped)) std::this_thread::sleep_for(std::chrono::microseconds(100));
          break;
        }
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  std::int64_t all_max(std::int64_t v) override { return reduce(v, MPI_MAX); }
  std::int64_t all_min(std::int64_t v) override { return reduce(v, MPI_MIN); }
  std::int64_t fetch_add(Cell cell, std::int64_t v) override { return fetch(cell, v, MPI_SUM); }
  std::int64_t fetch_max(Cell cell, std::int64_t v) override { return fetch(cell, v, MPI_MAX); }
  std::int64_t fetch_min(Cell cell, std::int64_t v) override { return fetch(cell, v, MPI_MIN); }

  void send(int to, std::vector<std::int64_t> message) override {
    settle();
    pending_.emplace_back(MPI_REQUEST_NULL, std::move(message));
    auto& [request, data] = pending_.back();
    check(MPI_Isend(data.data(), static_cast<int>(data.size()), MPI_INT64_T, to, message_tag, MPI_COMM_WORLD, &request),
          "MPI_Isend");
  }

  bool receive(int& from, std::vector<std::int64_t>& message, double wait_s) override {
    settle();
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
    for (;;) {
      post_receives();
      if (take_completed(from, message)) return true;
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }

 private:
  std::int64_t reduce(std::int64_t v, MPI_Op op) {
    std::int64_t out = v;
    check(MPI_Allreduce(&v, &out, 1, MPI_INT64_T, op, MPI_COMM_WORLD), "MPI_Allreduce");
    return out;
  }
  std::int64_t fetch(Cell cell, std::int64_t v, MPI_Op op) {
    std::int64_t old = 0;
    check(MPI_Fetch_and_op(&v, &old, MPI_INT64_T, 0, MPI_Aint(cell), op, window_), "MPI_Fetch_and_op");
    check(MPI_Win_flush(0, window_), "MPI_Win_flush");
    return old;
  }
  /// Posts a receive for every message that has begun to arrive (a matched probe, so that each
  /// receive gets the message probed). A message beyond the transport's eager size completes only
  /// once its sender calls MPI again, which a rank in a GPU slice does not for tens of milliseconds:
  /// a blocking receive held rank 0 for seconds on four GPUs (perf/NOTES.md entry 32).
  void post_receives() {
    for (;;) {
      int flag = 0;
      MPI_Message probed;
      MPI_Status status;
      check(MPI_Improbe(MPI_ANY_SOURCE, message_tag, MPI_COMM_WORLD, &flag, &probed, &status), "MPI_Improbe");
      if (!flag) return;
      int count = 0;
      MPI_Get_count(&status, MPI_INT64_T, &count);
      incoming_.push_back(Incoming{MPI_REQUEST_NULL, status.MPI_SOURCE, std::vector<std::int64_t>(std::size_t(count))});
      Incoming& in = incoming_.back();
      check(MPI_Imrecv(in.data.data(), count, MPI_INT64_T, &probed, &in.request), "MPI_Imrecv");
    }
  }
  /// The first received message whose sender has no earlier one still arriving (messages from one
  /// rank are handed over in the order sent).
  bool take_completed(int& from, std::vector<std::int64_t>& message) {
    std::vector<int> waiting;  // senders with an earlier message not complete
    for (auto it = incoming_.begin(); it != incoming_.end(); ++it) {
      if (std::find(waiting.begin(), waiting.end(), it->from) != waiting.end()) continue;
      int done = 0;
      check(MPI_Test(&it->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (!done) {
        waiting.push_back(it->from);
        continue;
      }
      from = it->from;
      message = std::move(it->data);
      incoming_.erase(it);
      return true;
    }
    return false;
  }
  /// Drops the sends that completed.
  void settle() {
    while (!pending_.empty()) {
      int done = 0;
      MPI_Test(&pending_.front().first, &done, MPI_STATUS_IGNORE);
      if (!done) break;
      pending_.pop_front();
    }
  }
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::int64_t* cells_ = nullptr;
  MPI_Win window_ = MPI_WIN_NULL;
  std::deque<std::pair<MPI_Request, std::vector<std::int64_t>>> pending_;
  struct Incoming {
    MPI_Request request;
    int from;
    std::vector<std::int64_t> data;
  };
  std::list<Incoming> incoming_;  ///< receives posted, in the order matched
};

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!under_launcher()) return;
  int provided = 0;
  // Only the thread that runs the driver calls MPI.
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw std::runtime_error("MPI_Init_thread failed");
  active_ = true;
  if (size() > 1) {
    peers_ = std::make_unique<MpiPeers>();
    set_process_peers(peers_.get());
  }
}

MpiSession::~MpiSession() {
  if (!active_) return;
  set_process_peers(nullptr);
  peers_.reset();
  MPI_Finalize();
}

int MpiSession::rank() const {
  int r = 0;
  if (active_) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int MpiSession::size() const {
  int s = 1;
  if (active_) MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

void MpiSession::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

}  // namespace kcp
