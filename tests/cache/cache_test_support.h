// Shared fixtures for the cache suite: a scratch repository and cache root, warning capture.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "cache/lmdb_fact_cache.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::cache::testing {

inline constexpr std::string_view kSmallPackageUse =
    "from pkg.core import helper\n\n\ndef run():\n    return helper()\n";
// Same length as kSmallPackageUse, another callee: only the content (and the ctime or inode)
// differs.
inline constexpr std::string_view kSmallPackageUseOther =
    "from pkg.core import caller\n\n\ndef run():\n    return caller()\n";

// Deterministic, distinct keys and payloads for entry number `i` (front end "test", facts
// version "v1" unless given).
analysis::FactsKey key_for(uint64_t i, std::string_view facts_version = "v1",
                           std::string_view front_end = "test");
std::string facts_for(uint64_t i, size_t bytes = 200);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& bytes);
// Overwrites bytes in place (same inode, no truncation), as a disk error or stray write would.
void patch_file(const std::string& path, size_t offset, const std::string& bytes);
std::vector<std::string> list_dir(const std::string& dir);
// A clock a minute ahead: every file the test just wrote is old enough for the survey memo and
// the stat alias (AnalysisOptions::now).
std::chrono::system_clock::time_point a_minute_from_now();

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override;

  CacheOptions options();
  std::unique_ptr<LmdbFactCache> open_cache();
  std::vector<std::string> warnings();
  // Writes `bytes` to `path` in the repository, making its directories.
  void put(const std::string& path, const std::string& bytes);
  // pkg/__init__.py, pkg/core.py (helper, and caller calling it) and pkg/use.py (run calling
  // helper, as kSmallPackageUse): the package the survey, memo and alias tests analyse.
  void put_small_package();
  // Two analysis threads, `cache`, and the clock a minute ahead (a_minute_from_now): every file
  // is old enough for the survey memo and the stat alias.
  static analysis::AnalysisOptions aged_options(analysis::FactCache* cache);

  // The test's scratch directory (removed after it) and its path.
  test_support::TempDir scratch_dir_{"anchorfs-cache"};
  std::string scratch_;
  std::string repo_;  // a repository directory
  std::string cache_root_;

 private:
  std::mutex warnings_mutex_;
  std::vector<std::string> warnings_;
};

}  // namespace anchorfs::cache::testing
