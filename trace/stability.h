// Run-to-run stability of navigation across several traces of one task.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace anchorfs::trace {

struct Stability {
  size_t runs = 0;
  double visited_mean = 0;  // files visited per run
  double visited_std = 0;   // population standard deviation
  // Mean over every file some run visited of p(1 - p), p the share of runs visiting it: the
  // variance of the visited sets (0 when every run visits the same files).
  double visited_variance = 0;
  double jaccard_distance = 0;  // mean over pairs of runs of 1 - |A n B| / |A u B|
  double edit_distance = 0;     // mean over pairs of Levenshtein(trajectories) / longer length
};

// Levenshtein distance between two sequences of files.
size_t edit_distance(const std::vector<std::string>& a, const std::vector<std::string>& b);

// `trajectories`: per run, the files visited in order. Fewer than two runs give zero distances.
Stability stability(const std::vector<std::vector<std::string>>& trajectories);

}  // namespace anchorfs::trace
