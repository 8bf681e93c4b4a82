#include "solver/fzn/model.hpp"

#include <algorithm>
#include <limits>

namespace kcp::fzn {

bool IntSet::contains(std::int64_t v) const {
  // The ranges are sorted and disjoint: find the first range that ends at or after v.
  auto it = std::lower_bound(
      ranges.begin(), ranges.end(), v,
      [](const std::pair<std::int64_t, std::int64_t>& r, std::int64_t x) { return r.second < x; });
  return it != ranges.end() && it->first <= v;
}

IntSet IntSet::from_ranges(std::vector<std::pair<std::int64_t, std::int64_t>> ranges) {
  ranges.erase(std::remove_if(ranges.begin(), ranges.end(),
                              [](const std::pair<std::int64_t, std::int64_t>& r) {
                                return r.first > r.second;
                              }),
               ranges.end());
  std::sort(ranges.begin(), ranges.end());
  IntSet result;
  for (const auto& r : ranges) {
    if (!result.ranges.empty()) {
      auto& last = result.ranges.back();
      // Merge overlapping and adjacent ranges; INT64_MAX has no successor, so test it first.
      if (last.second == std::numeric_limits<std::int64_t>::max() || r.first <= last.second + 1) {
        last.second = std::max(last.second, r.second);
        continue;
      }
    }
    result.ranges.push_back(r);
  }
  return result;
}

std::string describe(Arg::Kind kind) {
  switch (kind) {
    case Arg::Kind::scalar:
      return "a scalar";
    case Arg::Kind::set:
      return "a set";
    case Arg::Kind::array:
      return "an array";
  }
  return "?";
}

std::string describe_signature_letter(char letter) {
  switch (letter) {
    case 'i':
      return "an int";
    case 'b':
      return "a bool";
    case 'I':
      return "an array of int";
    case 'B':
      return "an array of bool";
    case 'S':
      return "a set of int";
  }
  return "?";
}

}  // namespace kcp::fzn
