// The hostile corpus as the tests see it: generated per category into a private temp dir.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace anchorfs::testing {

// A private directory under /tmp removed on destruction (never while something is mounted in
// it, and without following symlinks).
class TempDir {
 public:
  explicit TempDir(const std::string& label);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// "ci" (default) or "long", from ANCHORFS_HOSTILE_MODE.
std::string corpus_mode();

struct Category {
  std::string name;
  std::string dir;      // <tmp>/<name>
  std::string repo;     // <dir>/repo: what gets mounted
  std::string outside;  // <dir>/outside: symlink targets out of the repository (may not exist)
  std::string description;
  // Manifest expectations by raw relative path: any of "unchanged", "tagged", "skipped", "error".
  std::map<std::string, std::set<std::string>> expect;
  std::vector<std::string> notes;
};

// Runs tests/hostile/make_corpus.py for one category below `parent` (bounded time).
Category generate_category(const std::string& name, const std::string& parent);

// Every category the generator knows.
std::vector<std::string> all_categories();

}  // namespace anchorfs::testing
