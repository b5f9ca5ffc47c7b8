// Writing a snapshot's tagged tree to a directory (for `anchorfs export`).
#include "cli/tree_export.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <set>
#include <span>
#include <vector>

#include "analysis/unique_fd.h"
#include "cli/cli_error.h"
#include "cli/file_io.h"
#include "fs/source_file.h"

namespace anchorfs::cli {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

void set_times(const std::string& target, const analysis::TreeEntry& entry) {
  timespec times[2];
  times[0] = {static_cast<time_t>(entry.atime_ns / 1'000'000'000), entry.atime_ns % 1'000'000'000};
  times[1] = {static_cast<time_t>(entry.mtime_ns / 1'000'000'000), entry.mtime_ns % 1'000'000'000};
  ::utimensat(AT_FDCWD, target.c_str(), times, AT_SYMLINK_NOFOLLOW);
}

// Removes what is at `target` unless it is a directory (directories are merged into).
void clear_target(const std::string& target) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) throw CliError(target, "a directory is in the way of a file");
  if (::unlink(target.c_str()) != 0) throw CliError(target, errno_text(errno));
}

// The tagged view of a file, read through the same layout the mount uses. False when the
// source no longer matches the snapshot (then the current bytes are written untagged).
// The caller checked that `source` is the version the layout was made for.
bool copy_view(const fs::FileLayout& layout, int source, int out, const std::string& target,
               ContentHasher& hasher) {
  const uint64_t size = layout.view_size();
  // Uninitialised and no larger than the file: zeroing a megabyte per small file cost more than
  // the export's rendering (perf guard, warm export).
  const auto buffer =
      std::make_unique_for_overwrite<char[]>(static_cast<size_t>(std::min<uint64_t>(kChunk, size)));
  for (uint64_t offset = 0; offset < size; offset += kChunk) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, size - offset));
    if (!layout.read(source, offset, std::span<char>(buffer.get(), n))) return false;
    write_all(out, std::string_view(buffer.get(), n), target);
    hasher.update(std::string_view(buffer.get(), n));
  }
  return true;
}

// Streams the current bytes of `source` into `out` from the start (replacing anything written).
// Returns the number of bytes copied.
uint64_t copy_plain(int source, int out, const std::string& target, ContentHasher& hasher) {
  if (::lseek(source, 0, SEEK_SET) != 0 || ::lseek(out, 0, SEEK_SET) != 0 ||
      ::ftruncate(out, 0) != 0) {
    throw CliError(target, errno_text(errno));
  }
  const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
  uint64_t total = 0;
  for (;;) {
    const ssize_t n = ::read(source, buffer.get(), kChunk);
    if (n == 0) return total;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw CliError(target, errno_text(errno));
    }
    write_all(out, std::string_view(buffer.get(), static_cast<size_t>(n)), target);
    hasher.update(std::string_view(buffer.get(), static_cast<size_t>(n)));
    total += static_cast<uint64_t>(n);
  }
}

void add_served_blocks(const fs::Snapshot& snapshot, Manifest& manifest) {
  std::set<std::string_view> blocks;
  for (const std::shared_ptr<const fs::FileLayout>& layout : snapshot.layouts()) {
    for (size_t k = 0; k < layout->insertions(); ++k) blocks.insert(layout->text(k));
  }
  manifest.served_blocks.assign(blocks.begin(), blocks.end());
}

}  // namespace

ExportReport export_tree(const fs::Snapshot& snapshot, const std::string& outdir, bool replace) {
  ExportReport report;
  const UniqueFd root(::open(snapshot.root().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) throw CliError(snapshot.root(), errno_text(errno));
  std::vector<uint32_t> directories;
  for (uint32_t i = 1; i < snapshot.size(); ++i) {
    const analysis::TreeEntry& entry = snapshot.entry(i);
    const std::string target = outdir + "/" + entry.path;
    if (S_ISDIR(entry.mode)) {
      if (::mkdir(target.c_str(), 0700) != 0) {
        struct stat st {};
        if (errno != EEXIST || !replace || ::lstat(target.c_str(), &st) != 0 ||
            !S_ISDIR(st.st_mode)) {
          throw CliError(target, errno_text(errno));
        }
      }
      directories.push_back(i);
      ++report.directories;
      report.manifest.entries.push_back(directory_entry(entry.path, entry.mode & 07777));
    } else if (S_ISLNK(entry.mode)) {
      if (replace) clear_target(target);
      if (::symlink(entry.symlink_target.c_str(), target.c_str()) != 0) {
        throw CliError(target, errno_text(errno));
      }
      set_times(target, entry);
      ++report.symlinks;
      report.manifest.entries.push_back(
          symlink_entry(entry.path, entry.mode & 07777, entry.symlink_target));
    } else if (S_ISREG(entry.mode)) {
      const UniqueFd source(fs::open_source(root.get(), entry.path));
      if (source.get() < 0) {
        report.skipped.push_back(entry.path + ": " + errno_text(errno));
        continue;
      }
      if (replace) clear_target(target);
      const UniqueFd out(
          ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
      if (out.get() < 0) throw CliError(target, errno_text(errno));
      const fs::FileLayout& layout = snapshot.layout(i);
      struct stat before {};
      if (::fstat(source.get(), &before) != 0) throw CliError(entry.path, errno_text(errno));
      ManifestEntry written;
      written.path = entry.path;
      written.mode = entry.mode & 07777;
      written.version = file_version_of(before);
      written.copy_mtime_ns = entry.mtime_ns;  // set_times gives the copy the original's
      ContentHasher hasher;
      const bool tagged = !layout.empty() && fs::is_recorded_version(before, entry);
      if (tagged && copy_view(layout, source.get(), out.get(), target, hasher)) {
        ++report.tagged;
        written.plan = layout.plan();
        written.copy_size = layout.view_size();
        written.copy_hash = hasher.digest();
      } else {
        if (!layout.empty()) {
          report.skipped.push_back(entry.path + ": changed since the analysis; written untagged");
        }
        ContentHasher plain;
        written.copy_size = copy_plain(source.get(), out.get(), target, plain);
        written.copy_hash = plain.digest();
      }
      struct stat after {};
      if (::fstat(source.get(), &after) != 0 || file_version_of(after) != written.version) {
        // Written while we read it: the bytes copied may belong to no version at all. Only a
        // checkout holding exactly these bytes will count as unchanged (import).
        written.version = {};
      }
      report.manifest.entries.push_back(std::move(written));
      if (::fchmod(out.get(), entry.mode & 07777) != 0) throw CliError(target, errno_text(errno));
      set_times(target, entry);
      ++report.files;
    } else {
      report.skipped.push_back(entry.path + ": not a regular file, directory or symlink");
    }
  }
  // Directory modes last (deepest first), so read-only directories could be filled first.
  for (auto it = directories.rbegin(); it != directories.rend(); ++it) {
    const analysis::TreeEntry& entry = snapshot.entry(*it);
    const std::string target = outdir + "/" + entry.path;
    if (::chmod(target.c_str(), entry.mode & 07777) != 0) throw CliError(target, errno_text(errno));
    set_times(target, entry);
  }
  add_served_blocks(snapshot, report.manifest);
  return report;
}

}  // namespace anchorfs::cli
