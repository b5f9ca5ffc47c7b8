// Scratch directories, entry generators and warning capture for the cache suite.
#include "cache_test_support.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace anchorfs::cache::testing {

analysis::FactsKey key_for(uint64_t i, std::string_view facts_version, std::string_view front_end) {
  return {{i * 0x9e3779b97f4a7c15ULL + 1, ~i}, front_end, facts_version};
}

std::string facts_for(uint64_t i, size_t bytes) {
  std::string text = "facts#" + std::to_string(i) + ":";
  while (text.size() < bytes) {
    text.push_back(static_cast<char>('a' + (text.size() * 7 + i) % 26));
  }
  return text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

void patch_file(const std::string& path, size_t offset, const std::string& bytes) {
  std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
  out.seekp(static_cast<std::streamoff>(offset));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

void CacheTest::SetUp() {
  scratch_ = scratch_dir_.path();
  repo_ = scratch_ + "/repo";
  cache_root_ = scratch_ + "/cache";
  std::filesystem::create_directories(repo_);
  write_file(repo_ + "/mod.py", "def f():\n    pass\n");
}

void CacheTest::put(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(repo_ + "/" + path).parent_path());
  write_file(repo_ + "/" + path, bytes);
}

void CacheTest::put_small_package() {
  put("pkg/__init__.py", "from pkg.core import helper\n");
  put("pkg/core.py", "def helper():\n    return 1\n\n\ndef caller():\n    return helper()\n");
  put("pkg/use.py", std::string(kSmallPackageUse));
}

analysis::AnalysisOptions CacheTest::aged_options(analysis::FactCache* cache) {
  analysis::AnalysisOptions o;
  o.threads = 2;
  o.cache = cache;
  o.now = a_minute_from_now;
  return o;
}

std::chrono::system_clock::time_point a_minute_from_now() {
  return std::chrono::system_clock::now() + std::chrono::minutes(1);
}

CacheOptions CacheTest::options() {
  CacheOptions o;
  o.repo_root = repo_;
  o.cache_dir = cache_root_;
  o.farm_key = "the test farm's key, 32 bytes...";  // used only where a test sets a remote
  o.warn = [this](const std::string& message) {
    std::lock_guard lock(warnings_mutex_);
    warnings_.push_back(message);
  };
  return o;
}

std::unique_ptr<LmdbFactCache> CacheTest::open_cache() {
  return LmdbFactCache::open(options());
}

std::vector<std::string> CacheTest::warnings() {
  std::lock_guard lock(warnings_mutex_);
  return warnings_;
}

}  // namespace anchorfs::cache::testing
