#include "search/peers.hpp"

namespace kcp {

namespace {
Peers* the_peers = nullptr;
}

Peers* process_peers() { return the_peers; }
void set_process_peers(Peers* peers) { the_peers = peers; }

}  // namespace kcp
