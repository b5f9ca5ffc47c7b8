// ServedLayouts: a bounded, most-recent-last record of the layouts a writable mount served.
#include "fs/served_layouts.h"

#include <algorithm>

namespace anchorfs::fs {

void ServedLayouts::record(const std::string& path, const render::FileVersion& version,
                           std::shared_ptr<const FileLayout> layout) {
  if (!layout || layout->empty()) return;
  const sync::MutexLock lock(mutex_);
  // A layout is shared by every generation that did not re-tag its file: one record each.
  std::erase_if(records_, [&](const Record& record) {
    return record.path == path && record.version == version &&
           (record.layout == layout || *record.layout == *layout);
  });
  records_.push_back({path, version, std::move(layout)});
  while (records_.size() > capacity_) records_.pop_front();
}

std::vector<std::shared_ptr<const FileLayout>> ServedLayouts::of(
    const std::string& path, const render::FileVersion& version) const {
  const sync::MutexLock lock(mutex_);
  std::vector<std::shared_ptr<const FileLayout>> out;
  for (auto it = records_.rbegin(); it != records_.rend(); ++it) {
    if (it->path == path && it->version == version) out.push_back(it->layout);
  }
  return out;
}

std::vector<std::shared_ptr<const FileLayout>> ServedLayouts::all() const {
  const sync::MutexLock lock(mutex_);
  std::vector<std::shared_ptr<const FileLayout>> out;
  out.reserve(records_.size());
  for (const Record& record : records_) out.push_back(record.layout);
  return out;
}

}  // namespace anchorfs::fs
