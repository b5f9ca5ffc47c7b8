// OpenFiles: handles of a writable mount's open files, and their paths through renames.
#include "fs/open_files.h"

#include <unistd.h>

namespace anchorfs::fs {
namespace {

// `path` is `dir` or lies below it.
bool within(const std::string& path, const std::string& dir) {
  return path == dir ||
         (path.size() > dir.size() && path.starts_with(dir) && path[dir.size()] == '/');
}

}  // namespace

OpenFile::~OpenFile() {
  if (fd >= 0) ::close(fd);
  if (memory_stages != nullptr) memory_stages->fetch_sub(1);
}

uint64_t OpenFiles::add(std::shared_ptr<OpenFile> file, std::string path) {
  const sync::MutexLock lock(mutex_);
  const uint64_t handle = next_handle_++;
  if (file->kind == OpenFile::Kind::Staged) ++staged_;
  entries_.emplace(handle, Entry{std::move(file), std::move(path)});
  return handle;
}

std::shared_ptr<OpenFile> OpenFiles::find(uint64_t handle) const {
  const sync::MutexLock lock(mutex_);
  auto found = entries_.find(handle);
  return found == entries_.end() ? nullptr : found->second.file;
}

void OpenFiles::remove(uint64_t handle) {
  const sync::MutexLock lock(mutex_);
  auto found = entries_.find(handle);
  if (found == entries_.end()) return;
  if (found->second.file->kind == OpenFile::Kind::Staged) --staged_;
  entries_.erase(found);
}

std::optional<std::string> OpenFiles::target(uint64_t handle) const {
  const sync::MutexLock lock(mutex_);
  auto found = entries_.find(handle);
  return found == entries_.end() ? std::nullopt : found->second.path;
}

const OpenFiles::Entry* OpenFiles::latest_stage_entry(uint64_t inode) const {
  if (staged_ == 0) return nullptr;
  const Entry* latest = nullptr;
  for (const auto& [handle, entry] : entries_) {
    if (entry.file->inode != inode || entry.file->kind != OpenFile::Kind::Staged) continue;
    if (latest == nullptr || entry.written_at > latest->written_at) latest = &entry;
  }
  return latest;
}

std::optional<uint64_t> OpenFiles::staged_size(uint64_t inode) const {
  const sync::MutexLock lock(mutex_);
  const Entry* latest = latest_stage_entry(inode);
  if (latest == nullptr) return std::nullopt;
  return latest->staged_size;
}

std::shared_ptr<OpenFile> OpenFiles::latest_stage(uint64_t inode) const {
  const sync::MutexLock lock(mutex_);
  const Entry* latest = latest_stage_entry(inode);
  return latest == nullptr ? nullptr : latest->file;
}

void OpenFiles::staged_written(uint64_t handle, uint64_t size) {
  const sync::MutexLock lock(mutex_);
  auto found = entries_.find(handle);
  if (found == entries_.end()) return;
  found->second.staged_size = size;
  found->second.written_at = ++writes_;
}

void OpenFiles::renamed(const std::string& from, const std::string& to) {
  const sync::MutexLock lock(mutex_);
  new_files_.erase(from);
  for (auto& [handle, entry] : entries_) {
    if (!entry.path) continue;
    if (within(*entry.path, from)) {
      entry.path = to + entry.path->substr(from.size());
    } else if (within(*entry.path, to)) {
      entry.path.reset();
    }
  }
}

void OpenFiles::removed(const std::string& path) {
  const sync::MutexLock lock(mutex_);
  new_files_.erase(path);
  for (auto& [handle, entry] : entries_) {
    if (entry.path && within(*entry.path, path)) entry.path.reset();
  }
}

void OpenFiles::stored_new(const std::string& path, const render::FileVersion& version) {
  const sync::MutexLock lock(mutex_);
  // Only the latest few matter (a rename follows its store at once); bound the memory.
  if (new_files_.size() >= 1024) new_files_.clear();
  new_files_[path] = version;
}

std::optional<render::FileVersion> OpenFiles::new_file(const std::string& path) const {
  const sync::MutexLock lock(mutex_);
  auto found = new_files_.find(path);
  if (found == new_files_.end()) return std::nullopt;
  return found->second;
}

std::vector<std::shared_ptr<OpenFile>> OpenFiles::staged_at(const std::string& path) const {
  const sync::MutexLock lock(mutex_);
  std::vector<std::shared_ptr<OpenFile>> files;
  for (const auto& [handle, entry] : entries_) {
    if (entry.path == path && entry.file->kind == OpenFile::Kind::Staged) {
      files.push_back(entry.file);
    }
  }
  return files;
}

}  // namespace anchorfs::fs
