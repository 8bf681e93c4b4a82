// kcp's command line run once per input line, in one process: Kokkos starts once. For the
// differential replay on CUDA, where a process per model spends most of its time creating a CUDA
// context (12 processes at once on the H100 judged about 3.4 models a second; exp12).
//
// usage: kcp_batch [--threads N] < LIST
// Each line of LIST: OUT_PREFIX then kcp's arguments (model path included), separated by spaces (no
// quoting: paths with spaces are not supported). Writes OUT_PREFIX.out (kcp's standard output),
// OUT_PREFIX.err and OUT_PREFIX.rc (the exit code kcp would have returned).
#include "search/launch.hpp"
#include "solver/run.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  int threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      std::cerr << "kcp_batch: unknown argument '" << a << "' (usage: kcp_batch [--threads N] < LIST)\n";
      return 2;
    }
  }
  const kcp::KokkosSession kokkos(threads);
  std::string line;
  int lines = 0;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string prefix;
    if (!(words >> prefix)) continue;
    std::vector<std::string> args{"kcp"};
    for (std::string w; words >> w;) args.push_back(w);
    std::vector<const char*> cargs;
    for (const auto& a : args) cargs.push_back(a.c_str());
    std::ostringstream out, err;
    const int rc = kcp::run_cli(static_cast<int>(cargs.size()), cargs.data(), out, err);
    std::ofstream(prefix + ".out") << out.str();
    std::ofstream(prefix + ".err") << err.str();
    std::ofstream(prefix + ".rc") << rc << '\n';
    ++lines;
  }
  std::cerr << "kcp_batch: " << lines << " runs\n";
  return 0;
}
