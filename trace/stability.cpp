// Stability: visited-set variance, Jaccard distance and edit distance between trajectories.
#include "trace/stability.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace anchorfs::trace {

size_t edit_distance(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

Stability stability(const std::vector<std::vector<std::string>>& trajectories) {
  Stability result;
  result.runs = trajectories.size();
  if (trajectories.empty()) return result;
  std::vector<std::set<std::string>> sets;
  for (const auto& trajectory : trajectories)
    sets.emplace_back(trajectory.begin(), trajectory.end());
  const double runs = static_cast<double>(sets.size());
  for (const auto& set : sets) result.visited_mean += static_cast<double>(set.size()) / runs;
  for (const auto& set : sets) {
    const double d = static_cast<double>(set.size()) - result.visited_mean;
    result.visited_std += d * d / runs;
  }
  result.visited_std = std::sqrt(result.visited_std);
  std::map<std::string, size_t> visits;
  for (const auto& set : sets) {
    for (const std::string& file : set) ++visits[file];
  }
  for (const auto& [file, count] : visits) {
    const double p = static_cast<double>(count) / runs;
    result.visited_variance += p * (1 - p) / static_cast<double>(visits.size());
  }
  size_t pairs = 0;
  for (size_t i = 0; i < sets.size(); ++i) {
    for (size_t j = i + 1; j < sets.size(); ++j) {
      ++pairs;
      size_t common = 0;
      for (const std::string& file : sets[i]) common += sets[j].count(file);
      const size_t either = sets[i].size() + sets[j].size() - common;
      result.jaccard_distance +=
          either == 0 ? 0 : 1 - static_cast<double>(common) / static_cast<double>(either);
      const size_t longer = std::max(trajectories[i].size(), trajectories[j].size());
      result.edit_distance +=
          longer == 0 ? 0
                      : static_cast<double>(edit_distance(trajectories[i], trajectories[j])) /
                            static_cast<double>(longer);
    }
  }
  if (pairs > 0) {
    result.jaccard_distance /= static_cast<double>(pairs);
    result.edit_distance /= static_cast<double>(pairs);
  }
  return result;
}

}  // namespace anchorfs::trace
