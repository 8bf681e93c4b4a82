// A distributed search's part in the run loop (search/peers.hpp carries the messages): this rank's
// chunks of subproblems, the shared bound, solutions and status to rank 0, end-game pieces between
// ranks, and every rank's counters at the end.
#pragma once

#include "search/driver/searcher.hpp"
#include "search/peers.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace kcp::driver {

/// A distributed search's part in the driver (search/peers.hpp): deals this rank's chunks of
/// subproblems to its fleet, shares the best objective, and carries the messages: solutions and
/// status to rank 0, which alone hands solutions to the caller and decides when the search ends; the
/// incumbent and the stop from rank 0; every rank's counters at the end.
class Distributed {
 public:
  enum Kind : std::int64_t { msg_solution = 1, msg_status, msg_proof, msg_final, msg_incumbent, msg_stop, msg_nogoods, msg_pieces, msg_want };
  /// What rank 0 (solutions, proofs, stops) or another rank (the incumbent, the stop) sent.
  struct Inbox {
    std::vector<std::pair<std::int64_t, Found>> solutions;  ///< with their subproblem (satisfaction)
    std::int64_t incumbent_best = INT64_MAX;
    std::vector<std::int32_t> incumbent;
    std::int64_t proof = INT64_MIN;  ///< the highest bound a rank's empty nogood holds under
    bool stop = false;  ///< from rank 0: stop; at rank 0: a rank stopped on its own (time, a signal)
    bool interrupted = false, timed_out = false;  ///< at rank 0: why
    std::vector<std::int32_t> nogoods;  ///< other ranks' explaining searches' clauses (search/learning.hpp's log)
    /// End-game splitting: piece logs (DistributedPart::take_pieces) with their senders; rank 0's last ask
    /// for pieces (-1: none came).
    std::vector<std::pair<int, std::vector<std::int64_t>>> pieces;
    std::int64_t want = -1;
  };

  /// `complete_rows`: the most complete rows of any rank's fleet; `own_rows`: this rank's.
  Distributed(Peers& peers, const SearchOptions& o, int complete_rows, int own_rows)
      : peers_(peers),
        rank_(peers.rank()),
        size_(peers.size()),
        static_(o.static_chunks),
        chunk_log_(o.chunk_log),
        rows_(complete_rows),
        own_rows_(own_rows),
        total_(std::int64_t(1) << (o.subproblem_depth - o.chunk_log)),
        next_own_(rank_),
        in_order_(o.objective < 0 && o.max_solutions > 0),
        done_(std::size_t(size_), false),
        open_(std::size_t(size_), 0) {}

  bool root() const { return rank_ == 0; }
  int rank() const { return rank_; }
  std::int64_t chunk_size() const { return std::int64_t(1) << chunk_log_; }
  /// Whether this rank's part of the tree is done (no chunk left for it, every complete row idle).
  bool done() const { return done_[std::size_t(rank_)]; }
  /// Rank 0: whether every rank's part is.
  bool all_done() const { return std::all_of(done_.begin(), done_.end(), [](bool d) { return d; }); }

  /// After a slice (and before the first): moves the shared counter past the fleet's failed subtrees,
  /// deals it chunks while its rows would run short (what they took in the last slice, and one
  /// subproblem per complete row: more would leave the other ranks idle at the end while it holds
  /// work), and notes whether its part is done (`idle`: every complete row was idle at the slice's end).
  void supply(DistributedPart& fleet, bool idle) {
    // Pieces put in since the slice (share_pieces) are work its rows have not seen.
    idle = idle && !fresh_ && !fleet.backlog();
    fresh_ = false;
    if (done()) return;
    if (const std::int64_t to = fleet.take_skip_to(); to > 0) {
      const std::int64_t end = std::min(total_, (to + chunk_size() - 1) >> chunk_log_);
      if (static_) {
        if (next_own_ < end) {
          const std::int64_t jumps = (end - next_own_ + size_ - 1) / size_;
          next_own_ += jumps * size_;
          skipped_ += jumps;
        }
      } else {
        skipped_ += std::max<std::int64_t>(0, end - peers_.fetch_max(Peers::next_chunk, end));
      }
    }
    const std::int64_t took = std::max<std::int64_t>(0, unclaimed_ - fleet.unclaimed());
    const std::int64_t want = rows_ + took;
    bool dealt = false;
    while (!exhausted_ && fleet.unclaimed() < want) {
      const std::int64_t c = static_ ? next_own_ : peers_.fetch_add(Peers::next_chunk, 1);
      if (c >= total_) {
        exhausted_ = true;
        break;
      }
      if (static_) next_own_ += size_;
      fleet.add_chunk(c << chunk_log_);
      ++chunks_;
      dealt = true;
      // Every chunk dealt to it later starts at or above this: its least open subproblem is never below.
      floor_ = (static_ ? next_own_ : c + 1) << chunk_log_;
    }
    unclaimed_ = fleet.unclaimed();
    if (exhausted_) floor_ = INT64_MAX;
    // Starving: no subproblem left for it and half its complete rows or more waiting for pieces; rank 0
    // has other ranks give it pieces, as to a rank whose part is done.
    starving_[std::size_t(rank_)] = own_rows_ > 0 && exhausted_ && unclaimed_ == 0 && 2 * fleet.waiting() >= own_rows_;
    if (exhausted_ && idle && !dealt && unclaimed_ == 0) {
      done_[std::size_t(rank_)] = true;
      done_at_ = Clock::now();
    }
  }

  /// This rank's least subproblem not yet finished, or above it (satisfaction's first solution).
  std::int64_t open(const DistributedPart& fleet, std::int64_t in_hand) const {
    return std::min({in_hand, fleet.first_unclaimed(), floor_});
  }

  /// Rank 0: the least subproblem some rank may still find a solution in.
  std::int64_t global_open(std::int64_t own) {
    std::int64_t open = own;
    for (int r = 1; r < size_; ++r) open = std::min(open, open_[std::size_t(r)]);
    if (!static_) open = std::min(open, std::min(total_, peers_.fetch_add(Peers::next_chunk, 0)) << chunk_log_);
    return open;
  }

  /// The best objective of all ranks, after offering this rank's.
  std::int64_t share_best(std::int64_t best) { return std::min(best, peers_.fetch_min(Peers::best, best)); }

  void send_solution(const Found& f, std::int64_t subproblem) {
    std::vector<std::int64_t> m{msg_solution, f.key, f.source, f.host ? 1 : 0, subproblem};
    m.insert(m.end(), f.values.begin(), f.values.end());
    peers_.send(0, std::move(m));
  }
  /// Another rank: its status, when it changed (`open` matters for satisfaction in order only).
  void send_status(std::int64_t open) {
    if (!in_order_) open = 0;
    const bool starving = starving_[std::size_t(rank_)];
    if (done() == sent_done_ && open == sent_open_ && received_ == sent_received_ && starving == sent_starving_) return;
    sent_done_ = done();
    sent_open_ = open;
    sent_received_ = received_;
    sent_starving_ = starving;
    peers_.send(0, {msg_status, done() ? 1 : 0, open, received_, starving ? 1 : 0});
  }

  /// End-game splitting across ranks (after each receive; search/modes.hpp's SplitPool): while some
  /// rank is hungry (its part done, or starving: see supply), rank 0 asks every other rank for pieces
  /// (one per complete row of every hungry rank; its rows give that many beyond their own waiting
  /// rows), and hands each piece log that comes to a hungry rank (another than its sender; to its own
  /// fleet when there is none); a rank sends rank 0 what its rows gave for it, and puts the pieces it
  /// is handed into its fleet (its part is not done until they are searched).
  /// Rank 0 counts the pieces it hands each rank, and a rank is done only once its status says that
  /// it received them all, so no piece is in flight when the search ends.
  void share_pieces(DistributedPart& fleet, Inbox& in) {
    if (!fleet.splits()) return;
    if (in.want >= 0) ask(fleet, in.want);
    std::vector<std::pair<int, std::vector<std::int64_t>>> logs = std::move(in.pieces);
    in.pieces.clear();
    if (asked_ > 0 && !done()) {
      std::vector<std::int64_t> own = fleet.take_pieces(asked_);
      if (!own.empty()) {
        ask(fleet, std::max<std::int64_t>(0, asked_ - piece_count(own)));
        if (root()) {
          logs.emplace_back(0, std::move(own));
        } else {
          send_pieces(0, own);
        }
      }
    }
    if (!root()) {
      for (const auto& [from, log] : logs) put(fleet, log);
      return;
    }
    for (const auto& [from, log] : logs) {
      int to = 0;
      for (int k = 0; k < size_; ++k) {
        const int r = (next_hungry_ + k) % size_;
        if (hungry(r) && r != from) {
          to = r;
          next_hungry_ = (r + 1) % size_;
          break;
        }
      }
      if (to == 0) {
        put(fleet, log);
      } else {
        send_pieces(to, log);
        sent_to_[std::size_t(to)] += piece_count(log);
        done_[std::size_t(to)] = false;
        starving_[std::size_t(to)] = false;
      }
    }
    if (all_done()) return;  // the search is over
    std::int64_t hungry_ranks = 0;
    for (int r = 0; r < size_; ++r) hungry_ranks += hungry(r) ? 1 : 0;
    for (int r = 0; r < size_; ++r) {
      // A piece for every complete row of each hungry rank (64 at most before: a rank idled a third of
      // diameterc-mst's end on two GPUs, fetching its next 64; perf/NOTES.md entry 31).
      const std::int64_t desired = hungry(r) ? 0 : hungry_ranks * rows_;
      if (desired == want_sent_[std::size_t(r)]) continue;
      want_sent_[std::size_t(r)] = desired;
      if (r == 0) {
        ask(fleet, desired);
      } else {
        peers_.send(r, {msg_want, desired});
      }
    }
  }
  /// Rank 0, once its search loop has ended: tells every other rank to stop (once).
  void stop_others() {
    if (!root() || stops_sent_) return;
    stops_sent_ = true;
    for (int r = 1; r < size_; ++r) peers_.send(r, {msg_stop});
  }
  void send_proof(std::int64_t bound) {
    if (bound <= sent_proof_) return;
    sent_proof_ = bound;
    peers_.send(0, {msg_proof, bound});
  }
  /// The clauses this rank's explaining search shares (a log), to every other rank's pool.
  void send_nogoods(const std::vector<std::int32_t>& log) {
    if (log.empty()) return;
    std::vector<std::int64_t> m{msg_nogoods};
    m.insert(m.end(), log.begin(), log.end());
    for (int r = 0; r < size_; ++r)
      if (r != rank_) peers_.send(r, m);
  }
  /// Rank 0: the incumbent to every other rank.
  void send_incumbent(std::int64_t best, const std::vector<std::int32_t>& values) {
    for (int r = 1; r < size_; ++r) {
      std::vector<std::int64_t> m{msg_incumbent, best};
      m.insert(m.end(), values.begin(), values.end());
      peers_.send(r, std::move(m));
    }
  }

  /// Optimisation: moves the solutions that arrived in `in` to `found`, worst first among them.
  static void take_solutions(Inbox& in, std::vector<Found>& found) {
    for (auto& [index, f] : in.solutions) found.push_back(std::move(f));
    in.solutions.clear();
    sort_worst_first(found);
  }

  /// Reads what arrived (waiting up to wait_s for the first message).
  void receive(Inbox& in, double wait_s = 0) {
    int from = 0;
    std::vector<std::int64_t> m;
    while (peers_.receive(from, m, wait_s)) {
      wait_s = 0;
      const std::size_t r = std::size_t(from);
      switch (m.at(0)) {
        case msg_solution: {
          Found f{m.at(1), Source(m.at(2)), m.at(3) != 0, std::vector<std::int32_t>(m.begin() + 5, m.end())};
          in.solutions.emplace_back(m.at(4), std::move(f));
          break;
        }
        case msg_status:
          // Done only once every piece rank 0 handed it has arrived there; starving likewise.
          done_[r] = m.at(1) != 0 && m.at(3) == sent_to_[r];
          starving_[r] = m.at(4) != 0 && m.at(3) == sent_to_[r];
          open_[r] = m.at(2);
          break;
        case msg_proof:
          in.proof = std::max(in.proof, m.at(1));
          break;
        case msg_final:
          final_[r] = std::move(m);
          in.stop = true;  // a rank that stops on its own (time, a signal) stops the others
          in.interrupted = in.interrupted || final_[r].at(1) == 1;
          in.timed_out = in.timed_out || final_[r].at(1) == 2;
          break;
        case msg_incumbent:
          if (m.at(1) < in.incumbent_best) {
            in.incumbent_best = m.at(1);
            in.incumbent.assign(m.begin() + 2, m.end());
          }
          break;
        case msg_stop:
          in.stop = true;
          stop_received_ = true;
          break;
        case msg_nogoods:
          for (std::size_t k = 1; k < m.size(); ++k) in.nogoods.push_back(static_cast<std::int32_t>(m[k]));
          break;
        case msg_pieces:
          in.pieces.emplace_back(from, std::vector<std::int64_t>(m.begin() + 1, m.end()));
          break;
        case msg_want:
          in.want = m.at(1);
          break;
        default:
          throw std::runtime_error("kcp: an unknown message from rank " + std::to_string(from));
      }
    }
  }

  /// The end, after this rank's totals are in `report`. Rank 0 stops the others and adds their
  /// counters (their last solutions go to `late`); another rank sends its counters and waits for the
  /// stop.
  void conclude(SearchReport& report, const std::function<void(Inbox&)>& late) {
    const double idle_s = idle_total_s_ + (done() ? seconds_since(done_at_) : 0);
    report.subproblems_skipped += skipped_ << chunk_log_;  // the chunks it moved the shared counter past
    const std::vector<std::int64_t> own = counters(report, idle_s);
    if (!root()) {
      std::vector<std::int64_t> m{msg_final, report.interrupted ? 1 : report.timed_out ? 2 : 0};
      m.insert(m.end(), own.begin(), own.end());
      peers_.send(0, std::move(m));
      Inbox in;
      while (!stop_received_) receive(in, 0.01);
      return;
    }
    stop_others();
    final_[0] = {msg_final, 0};
    final_[0].insert(final_[0].end(), own.begin(), own.end());
    for (;;) {
      Inbox in;
      receive(in, 0.01);
      late(in);
      if (std::all_of(final_.begin(), final_.end(), [](const std::vector<std::int64_t>& f) { return !f.empty(); })) break;
    }
    report.ranks = size_;
    report.chunk_size = chunk_size();
    report.static_chunks = static_;
    report.rank_figures.clear();
    for (int r = 0; r < size_; ++r) {
      const std::vector<std::int64_t> c(final_[std::size_t(r)].begin() + 2, final_[std::size_t(r)].end());
      if (r > 0) add(report, c);
      RankFigures f;
      f.nodes = c.at(0);
      f.subproblems_solved = c.at(counted_count);
      f.chunks = c.at(counted_count + 1);
      f.idle_s = double(c.at(counted_count + 2)) / 1e6;
      report.rank_figures.push_back(f);
    }
    report.chunks = 0;
    for (const RankFigures& f : report.rank_figures) report.chunks += f.chunks;
  }

 private:
  /// The counters every rank adds to rank 0's report besides the work counters (which come first).
  static constexpr Counter counted[] = {
      &SearchReport::subproblems_skipped, &SearchReport::host_nodes,        &SearchReport::explain_nodes,
      &SearchReport::explain_conflicts,   &SearchReport::explain_learned,   &SearchReport::explain_exported,
      &SearchReport::explain_literals,    &SearchReport::explain_resolutions, &SearchReport::explain_runs,
      &SearchReport::explain_propagations, &SearchReport::nogoods_learned,  &SearchReport::nogoods_dropped,
      &SearchReport::nogoods_deleted,     &SearchReport::nogood_propagations, &SearchReport::nogood_failures,
      &SearchReport::nogoods_received,    &SearchReport::nogoods_received_absorbed, &SearchReport::split_exported,
      &SearchReport::split_imported,      &SearchReport::explain_threads,   &SearchReport::explain_family,
      &SearchReport::explain_lifted};
  static constexpr std::size_t work_count = sizeof(work_counters) / sizeof(work_counters[0]);
  static constexpr std::size_t counted_count = work_count + sizeof(counted) / sizeof(counted[0]);
  /// The work counters, counted, then subproblems solved, chunks, idle microseconds, teams, free teams,
  /// host teams, launches, peak depth.
  std::vector<std::int64_t> counters(const SearchReport& r, double idle_s) const {
    std::vector<std::int64_t> c;
    for (const Counter field : work_counters) c.push_back(r.*field);
    for (const Counter field : counted) c.push_back(r.*field);
    c.push_back(r.subproblems_solved);
    c.push_back(chunks_);
    c.push_back(static_cast<std::int64_t>(idle_s * 1e6));
    for (const std::int64_t v : {std::int64_t(r.teams), std::int64_t(r.free_teams), std::int64_t(r.host_teams),
                                 std::int64_t(r.launches), r.peak_depth})
      c.push_back(v);
    return c;
  }
  void add(SearchReport& to, const std::vector<std::int64_t>& c) const {
    std::size_t k = 0;
    for (const Counter field : work_counters) to.*field += c.at(k++);
    for (const Counter field : counted) to.*field += c.at(k++);
    to.subproblems_solved += c.at(k);
    k += 3;
    to.teams += static_cast<int>(c.at(k++));
    to.free_teams += static_cast<int>(c.at(k++));
    to.host_teams += static_cast<int>(c.at(k++));
    to.launches += static_cast<int>(c.at(k++));
    to.peak_depth = std::max(to.peak_depth, c.at(k));
  }

  /// Rank 0: whether rank r is handed pieces (its part done, or it starves).
  bool hungry(int r) const { return done_[std::size_t(r)] || starving_[std::size_t(r)]; }
  /// The number of pieces in a piece log.
  static std::int64_t piece_count(const std::vector<std::int64_t>& log) {
    std::int64_t count = 0;
    for (std::size_t k = 0; k + 2 <= log.size(); k += 2 + 5 * std::size_t(log[k + 1])) ++count;
    return count;
  }
  /// Has the fleet's rows give `pieces` beyond their own (rank 0 asked for them).
  void ask(DistributedPart& fleet, std::int64_t pieces) {
    asked_ = pieces;
    fleet.want_pieces(pieces);
  }
  void send_pieces(int to, const std::vector<std::int64_t>& log) {
    std::vector<std::int64_t> m{msg_pieces};
    m.insert(m.end(), log.begin(), log.end());
    peers_.send(to, std::move(m));
  }
  /// Pieces handed to this rank: its part is not done until they are searched.
  void put(DistributedPart& fleet, const std::vector<std::int64_t>& log) {
    if (log.empty()) return;
    fleet.put_pieces(log);
    received_ += piece_count(log);
    fresh_ = true;
    if (done()) {
      idle_total_s_ += seconds_since(done_at_);
      done_[std::size_t(rank_)] = false;
    }
  }

  Peers& peers_;
  int rank_, size_;
  bool static_;
  int chunk_log_;
  std::int64_t rows_, own_rows_;
  std::int64_t total_;      ///< chunks in all
  std::int64_t next_own_;   ///< static: the next chunk of this rank's
  bool in_order_;
  bool exhausted_ = false;  ///< no chunk is left for this rank
  std::int64_t chunks_ = 0, skipped_ = 0;  ///< chunks dealt to it; chunks it moved the counter past
  std::int64_t unclaimed_ = 0;  ///< the fleet's unclaimed subproblems after the last supply
  std::int64_t floor_ = 0;
  Clock::time_point done_at_;
  std::vector<bool> done_;           ///< rank 0: each rank's part done (this rank's own everywhere)
  /// Rank 0: each rank starving (supply; this rank's own everywhere): pieces go to it as to a done one.
  std::vector<bool> starving_ = std::vector<bool>(std::size_t(size_), false);
  bool sent_starving_ = false;
  std::vector<std::int64_t> open_;   ///< rank 0: each rank's least open subproblem, as last reported
  std::vector<std::vector<std::int64_t>> final_ = std::vector<std::vector<std::int64_t>>(std::size_t(size_));
  bool sent_done_ = false;
  std::int64_t sent_open_ = -1, sent_proof_ = INT64_MIN;
  // End-game splitting across ranks (share_pieces): pieces rank 0 asked of this rank, pieces handed
  // to it (and as its last status said), whether some were put in since the last supply, the idle
  // time of its earlier done spells; rank 0: pieces handed to each rank, what it last asked of each,
  // where the next search for a hungry rank starts.
  std::int64_t asked_ = 0, received_ = 0, sent_received_ = 0;
  bool fresh_ = false;
  double idle_total_s_ = 0;
  std::vector<std::int64_t> sent_to_ = std::vector<std::int64_t>(std::size_t(size_), 0);
  std::vector<std::int64_t> want_sent_ = std::vector<std::int64_t>(std::size_t(size_), 0);
  int next_hungry_ = 1;
  bool stop_received_ = false, stops_sent_ = false;
};

}  // namespace kcp::driver
