// Inode numbering across snapshots and the kernel-cache diff between two generations.
#include "fs/generation.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <string_view>
#include <unordered_map>

#include "fs/git_view.h"

namespace anchorfs::fs {

std::string path_before_moves(std::string_view path, std::span<const PathMove> moves) {
  for (const PathMove& move : moves) {
    if (path == move.to) return move.from;
    if (path.size() > move.to.size() && path.starts_with(move.to) && path[move.to.size()] == '/') {
      return move.from + std::string(path.substr(move.to.size()));
    }
  }
  return std::string(path);
}

namespace {

bool same_version(const Snapshot& a, uint32_t a_entry, const Snapshot& b, uint32_t b_entry,
                  bool compare_ctime) {
  const analysis::TreeEntry& x = a.entry(a_entry);
  const analysis::TreeEntry& y = b.entry(b_entry);
  if ((x.mode & S_IFMT) != (y.mode & S_IFMT) || x.size != y.size || x.mtime_ns != y.mtime_ns ||
      (compare_ctime && x.ctime_ns != y.ctime_ns) || x.inode != y.inode || x.device != y.device ||
      x.rdev != y.rdev || x.symlink_target != y.symlink_target) {
    return false;
  }
  const bool x_memory = a.serving(a_entry) == Serving::Memory;
  if (x_memory != (b.serving(b_entry) == Serving::Memory)) return false;
  if (x_memory) {
    // (Only a file served from memory can be a git index.)
    if (a.is_git_index(a_entry) || b.is_git_index(b_entry)) return false;
    const std::shared_ptr<const std::string>& x_bytes = a.content(a_entry);
    const std::shared_ptr<const std::string>& y_bytes = b.content(b_entry);
    if (x_bytes != y_bytes && *x_bytes != *y_bytes) return false;
  }
  const std::shared_ptr<const FileLayout>& x_layout = a.layout_ptr(a_entry);
  const std::shared_ptr<const FileLayout>& y_layout = b.layout_ptr(b_entry);
  return x_layout == y_layout || *x_layout == *y_layout;
}

}  // namespace

bool same_content(const Snapshot& a, uint32_t a_entry, const Snapshot& b, uint32_t b_entry) {
  return same_version(a, a_entry, b, b_entry, true);
}

namespace {

uint64_t next_serial() {
  static std::atomic<uint64_t> serial{1};
  return serial.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Generation::Generation(std::shared_ptr<const Snapshot> snapshot)
    : snapshot_(std::move(snapshot)), serial_(next_serial()) {
  inode_of_entry_.resize(snapshot_->size());
  for (uint32_t i = 0; i < snapshot_->size(); ++i) inode_of_entry_[i] = kRootInode + i;
  next_inode_ = kRootInode + snapshot_->size();
  index_inodes();
}

Generation::Generation(std::shared_ptr<const Snapshot> snapshot, const Generation& previous,
                       std::span<const PathMove> moves, std::span<const uint32_t> origin,
                       const std::vector<uint8_t>* copied)
    : snapshot_(std::move(snapshot)),
      serial_(next_serial()),
      previous_serial_(previous.serial_),
      next_inode_(previous.next_inode_) {
  const Snapshot& old = previous.snapshot();
  const bool have_origin = origin.size() == snapshot_->size();
  const bool have_copied = have_origin && copied != nullptr && copied->size() == origin.size();
  std::unordered_map<std::string_view, uint32_t> old_entry_of_path;
  if (!have_origin) {
    old_entry_of_path.reserve(old.size());
    for (uint32_t i = 0; i < old.size(); ++i) old_entry_of_path.emplace(old.entry(i).path, i);
  }
  // The entry of `old` at `path`, or kNoOrigin.
  auto old_entry_at = [&](std::string_view path) -> uint32_t {
    if (have_origin) return old.find(path).value_or(analysis::kNoOrigin);
    auto found = old_entry_of_path.find(path);
    return found == old_entry_of_path.end() ? analysis::kNoOrigin : found->second;
  };

  inode_of_entry_.resize(snapshot_->size());
  kept_from_.assign(snapshot_->size(), analysis::kNoOrigin);
  // Files `previous` had under the same name with another number: the kernel may still hold
  // that name with the old number until this swap's invalidations reach it.
  renumbered_.assign(snapshot_->size(), false);
  for (uint32_t i = 0; i < snapshot_->size(); ++i) {
    const analysis::TreeEntry& entry = snapshot_->entry(i);
    // (No path is made for an entry when nothing moved: a swap per change visits every entry.)
    bool moved = false;
    uint32_t was = analysis::kNoOrigin;
    if (!moves.empty()) {
      const std::string before = path_before_moves(entry.path, moves);
      moved = before != entry.path;
      if (moved) was = old_entry_at(before);
    }
    if (!moved) was = have_origin ? origin[i] : old_entry_at(entry.path);
    bool keep = false;
    if (was != analysis::kNoOrigin) {
      const analysis::TreeEntry& prior = old.entry(was);
      if (S_ISDIR(entry.mode)) {
        keep = S_ISDIR(prior.mode);
      } else if (!moved && have_copied && (*copied)[i] &&
                 old.layout_ptr(was) == snapshot_->layout_ptr(i) &&
                 old.serving(was) == snapshot_->serving(i) &&
                 old.serving(was) != Serving::Memory) {
        keep = true;  // what same_version would find: the same entry, serving the same layout
      } else {
        keep = same_version(old, was, *snapshot_, i, !moved);
      }
    }
    if (i == 0) keep = true;  // the root keeps its number whatever it is now
    if (keep) {
      inode_of_entry_[i] = i == 0 ? kRootInode : previous.inode(was);
      kept_from_[i] = i == 0 ? 0 : was;
    } else {
      inode_of_entry_[i] = next_inode_++;
      // (A git index is renumbered on every swap: git reads it afresh, it records no size of
      // its own.)
      if (was != analysis::kNoOrigin && S_ISREG(entry.mode) && !snapshot_->is_git_index(i)) {
        renumbered_[i] = true;
        index_provisional_ = !snapshot_->git_indexes().empty();
      }
    }
  }
  if (!index_provisional_) renumbered_.clear();
  index_inodes_after(previous);
}

void Generation::translate_git_index() const {
  for (const Snapshot::ServedIndex& served : snapshot_->git_indexes()) {
    git_indexes_.push_back(served_git_index(
        *snapshot_, *snapshot_->content(served.entry), served.worktree,
        [this](uint32_t entry) { return inode_of_entry_[entry]; },
        [this](uint32_t entry) { return entry < renumbered_.size() && renumbered_[entry]; },
        git_index_locked(*snapshot_, served.entry)));
  }
}

const std::shared_ptr<const std::string>& Generation::content(uint32_t entry) const {
  const std::vector<Snapshot::ServedIndex>& indexes = snapshot_->git_indexes();
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (indexes[i].entry != entry) continue;
    std::call_once(git_index_once_, [this] { translate_git_index(); });
    if (git_indexes_[i]) return git_indexes_[i];
  }
  return snapshot_->content(entry);
}

void Generation::index_inodes() {
  entry_of_inode_.clear();
  entry_of_inode_.reserve(inode_of_entry_.size());
  for (uint32_t i = 0; i < inode_of_entry_.size(); ++i) {
    entry_of_inode_.emplace_back(inode_of_entry_[i], i);
  }
  std::sort(entry_of_inode_.begin(), entry_of_inode_.end());
}

void Generation::index_inodes_after(const Generation& previous) {
  // Kept numbers come in `previous`'s order, fresh ones after all of them in the order they were
  // handed out: a merge, not a sort, for a generation made per change.
  std::vector<uint32_t> now_of_before(previous.snapshot().size(), analysis::kNoOrigin);
  for (uint32_t i = 0; i < kept_from_.size(); ++i) {
    if (kept_from_[i] == analysis::kNoOrigin) continue;
    if (now_of_before[kept_from_[i]] != analysis::kNoOrigin) return index_inodes();
    now_of_before[kept_from_[i]] = i;
  }
  entry_of_inode_.clear();
  entry_of_inode_.reserve(inode_of_entry_.size());
  for (const auto& [inode, before] : previous.entry_of_inode_) {
    if (now_of_before[before] != analysis::kNoOrigin) {
      entry_of_inode_.emplace_back(inode, now_of_before[before]);
    }
  }
  for (uint32_t i = 0; i < kept_from_.size(); ++i) {
    if (kept_from_[i] == analysis::kNoOrigin) entry_of_inode_.emplace_back(inode_of_entry_[i], i);
  }
}

std::optional<uint32_t> Generation::entry(uint64_t inode) const {
  auto found = std::lower_bound(entry_of_inode_.begin(), entry_of_inode_.end(),
                                std::make_pair(inode, uint32_t{0}));
  if (found == entry_of_inode_.end() || found->first != inode) return std::nullopt;
  return found->second;
}

// Access times are left out: scanning a directory moves its atime, and pushing that to the
// kernel after every refresh would cost more than a slightly old atime ever could.
bool same_attributes(const analysis::TreeEntry& a, const analysis::TreeEntry& b) {
  return a.mode == b.mode && a.uid == b.uid && a.gid == b.gid && a.nlink == b.nlink &&
         a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns && a.rdev == b.rdev;
}

namespace {

// Same names naming the same inodes (the kernel's cached listing holds both).
bool same_children(const Generation& before, uint32_t old_dir, const Generation& after,
                   uint32_t new_dir) {
  const analysis::TreeEntry& a = before.snapshot().entry(old_dir);
  const analysis::TreeEntry& b = after.snapshot().entry(new_dir);
  if (a.child_count != b.child_count) return false;
  for (uint32_t k = 0; k < a.child_count; ++k) {
    if (before.inode(a.first_child + k) != after.inode(b.first_child + k)) return false;
  }
  return true;
}

uint32_t parent_of(const analysis::TreeEntry& entry) {
  return entry.parent == analysis::kNoParent ? 0 : entry.parent;
}

}  // namespace

Invalidations diff_generations(const Generation& before, const Generation& after,
                               const std::vector<uint8_t>* copied) {
  Invalidations out;
  const Snapshot& old = before.snapshot();
  const Snapshot& next = after.snapshot();
  // `after` made from `before`: which entries kept their numbers is known, no search needed.
  const bool made_from = after.previous_serial() == before.serial();
  const bool have_copied = made_from && copied != nullptr && copied->size() == next.size();
  std::vector<uint8_t> kept(made_from ? old.size() : 0, 0);
  for (uint32_t i = 0; i < next.size(); ++i) {
    const uint64_t inode = after.inode(i);
    const analysis::TreeEntry& entry = next.entry(i);
    std::optional<uint32_t> was;
    if (!made_from) {
      was = before.entry(inode);
    } else if (after.kept_from(i) != analysis::kNoOrigin) {
      was = after.kept_from(i);
      kept[*was] = 1;
      if (have_copied && (*copied)[i] != 0 && !S_ISDIR(entry.mode)) continue;
    }
    if (!was) {
      // A new name, or an old name for a new file: drop the kernel's dentry or negative lookup
      // (the kernel only has one if it has the parent).
      const uint64_t parent = after.inode(parent_of(entry));
      if (i != 0 && before.entry(parent)) {
        out.names.emplace_back(parent, std::string(next.name(i)));
      }
      continue;
    }
    const analysis::TreeEntry& previous = old.entry(*was);
    if (S_ISDIR(entry.mode) && !same_children(before, *was, after, i)) {
      out.contents.push_back(inode);
    } else if (!same_attributes(previous, entry)) {
      out.attributes.push_back(inode);
    }
  }
  for (uint32_t i = 0; i < old.size(); ++i) {
    const uint64_t inode = before.inode(i);
    if (made_from ? kept[i] != 0 : after.entry(inode).has_value()) continue;
    out.dropped.emplace_back(inode, i);
    const uint64_t parent = before.inode(parent_of(old.entry(i)));
    // Children of a removed directory go with it; only names under surviving parents matter.
    if (i != 0 && after.entry(parent)) {
      out.names.emplace_back(parent, std::string(old.name(i)));
    }
  }
  std::sort(out.names.begin(), out.names.end());
  out.names.erase(std::unique(out.names.begin(), out.names.end()), out.names.end());
  return out;
}

void leave_to_kernel(Invalidations& changed, uint64_t parent, std::string_view removed) {
  std::erase(changed.attributes, parent);
  if (removed.empty()) return;
  const auto found = std::lower_bound(
      changed.names.begin(), changed.names.end(), removed,
      [parent](const std::pair<uint64_t, std::string>& name, std::string_view wanted) {
        return name.first != parent ? name.first < parent : name.second < wanted;
      });
  if (found != changed.names.end() && found->first == parent && found->second == removed) {
    changed.names.erase(found);
  }
}

}  // namespace anchorfs::fs
