// The hostile corpus as the tests see it: generated per category into a private temp dir.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace anchorfs::testing {

// A private directory "anchorfs-LABEL-XXXXXX" (tests/support/temp_dir.h: mounts below it are
// detached before it is removed, so nothing is deleted through a mount).
class TempDir : public test_support::TempDir {
 public:
  explicit TempDir(const std::string& label) : test_support::TempDir("anchorfs-" + label) {}
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
