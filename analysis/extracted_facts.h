// The facts one analysis extracted, by cache key: a file whose bytes an earlier file of the tree
// had (an empty __init__.py) shares them instead of being parsed again.
#pragma once

#include <memory>

#include "analysis/analyze.h"
#include "sync/mutex.h"

namespace anchorfs::analysis {

// Filled while files are parsed in parallel, so it is locked. Cache records are written after
// the parse (analyze.cpp), and before this a later duplicate found its twin's pending record.
class ExtractedFacts {
 public:
  std::shared_ptr<const LanguageFacts> find(const FactsMemo::Key& key) const EXCLUDES(mutex_) {
    const sync::MutexLock lock(mutex_);
    const auto it = facts_.find(key);
    return it == facts_.end() ? nullptr : it->second;
  }

  // Whether `facts` are the first kept under `key` (another thread may have parsed a twin).
  bool add(FactsMemo::Key key, std::shared_ptr<const LanguageFacts> facts) EXCLUDES(mutex_) {
    const sync::MutexLock lock(mutex_);
    return facts_.try_emplace(std::move(key), std::move(facts)).second;
  }

 private:
  mutable sync::Mutex mutex_;
  FactsMemo::Facts facts_ GUARDED_BY(mutex_);
};

}  // namespace anchorfs::analysis
