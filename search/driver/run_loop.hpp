// The run loop: launches the fleet (and the host's helper beside a GPU) in slices and between them
// hands solutions over, shares the bound, the incumbent and the nogood pool, and decides when to stop.
#pragma once

#include "search/driver/distributed.hpp"
#include "search/driver/explain_crew.hpp"
#include "search/driver/searcher.hpp"

namespace kcp::driver {

/// Runs the search to its end (the time limit, a signal, the solution limit, a proof, or every complete
/// row idle) and returns its report; RunLoop in run_loop.cpp, phase by phase.
SearchReport run_search(Searcher& fleet, Searcher* helper, ExplainCrew* explain, Distributed* dist,
                        const Program& program, const SearchOptions& options, const SolutionCallback& on_solution,
                        Clock::time_point start);

}  // namespace kcp::driver
