// A scratch tree of three Python files (b.py calls a.py's helper) with a fact cache of its own.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "cache/lmdb_fact_cache.h"
#include "refresh/snapshot_builder.h"
#include "refresh_support.h"

namespace anchorfs::refresh::testing {

class CachedPythonTree : public ScratchTree {
 protected:
  static constexpr const char* kCaller =
      "from pkg.a import helper\n\n\ndef user():\n    return helper()\n";

  void SetUp() override {
    ScratchTree::SetUp();
    put(root_, "pkg/__init__.py", "");
    put(root_, "pkg/a.py", "def helper():\n    return 1\n");
    put(root_, "pkg/b.py", kCaller);
    cache::CacheOptions cache_options;
    cache_options.repo_root = root_;
    cache_options.cache_dir = root_ + "-cache";
    cache_ = cache::LmdbFactCache::open(cache_options);
    options_.repo = root_;
    options_.threads = 2;
    options_.view.view = render::View::Topo;
    options_.cache = cache_.get();
  }
  void TearDown() override {
    cache_.reset();
    std::filesystem::remove_all(root_ + "-cache");
  }

  std::unique_ptr<cache::LmdbFactCache> cache_;
  BuildOptions options_;
};

}  // namespace anchorfs::refresh::testing
