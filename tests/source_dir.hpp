// Where the tests find the repository's files (examples, test data): $KCP_SOURCE_DIR when set (a build
// run on another machine), else the source folder the suite was configured from.
#pragma once

#include <cstdlib>
#include <string>

namespace kcp::test {

inline std::string source_dir() {
  const char* env = std::getenv("KCP_SOURCE_DIR");
  return env && *env ? std::string(env) : std::string(KCP_SOURCE_DIR);
}

inline std::string example(const std::string& name) { return source_dir() + "/examples/" + name; }

}  // namespace kcp::test
