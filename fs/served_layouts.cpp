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

void ServedLayouts::record_last(const std::string& path, const render::FileVersion& version,
                               std::shared_ptr<const FileLayout> layout) {
  if (layout && layout->empty()) layout = nullptr;
  const sync::MutexLock lock(mutex_);
  const uint64_t stamp = ++stamps_;
  last_[path] = {version, std::move(layout), stamp};
  last_order_.emplace_back(path, stamp);
  // Each path is in last_order_ once per record: drop the oldest until both are bounded.
  const size_t limit = capacity_ * 16;
  while (last_order_.size() > 2 * limit || last_.size() > limit) {
    const auto& [oldest, oldest_stamp] = last_order_.front();
    auto found = last_.find(oldest);
    if (found != last_.end() && found->second.stamp == oldest_stamp) last_.erase(found);
    last_order_.pop_front();
  }
}

std::optional<std::shared_ptr<const FileLayout>> ServedLayouts::last(
    const std::string& path, const render::FileVersion& version) const {
  const sync::MutexLock lock(mutex_);
  auto found = last_.find(path);
  if (found == last_.end() || found->second.version != version) return std::nullopt;
  return found->second.layout;
}

}  // namespace anchorfs::fs
