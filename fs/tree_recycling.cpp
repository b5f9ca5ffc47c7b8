// One slot of retired tree storage, shared by the mounts of the process.
#include "fs/tree_recycling.h"

#include <utility>

#include "sync/mutex.h"

namespace anchorfs::fs {
namespace {

struct Slot {
  sync::Mutex mutex;
  std::vector<analysis::TreeEntry> entries GUARDED_BY(mutex);
};

// Never destroyed: a snapshot may retire its tree while static objects are torn down.
Slot& slot() {
  static Slot& kept = *new Slot;
  return kept;
}

}  // namespace

void retire_entries(std::vector<analysis::TreeEntry> entries) {
  Slot& kept = slot();
  {
    const sync::MutexLock lock(kept.mutex);
    if (kept.entries.empty()) {
      kept.entries = std::move(entries);
      return;
    }
  }
  // (`entries` is freed here, outside the lock.)
}

std::vector<analysis::TreeEntry> take_retired_entries() {
  Slot& kept = slot();
  const sync::MutexLock lock(kept.mutex);
  return std::exchange(kept.entries, {});
}

}  // namespace anchorfs::fs
