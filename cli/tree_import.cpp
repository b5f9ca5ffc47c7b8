// Importing an edited export: decide every change against the checkout first, then make them.
#include "cli/tree_import.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "analysis/unique_fd.h"
#include "cli/cli_error.h"
#include "fs/checkout_io.h"
#include "fs/source_file.h"
#include "render/untag.h"

namespace anchorfs::cli {
namespace import_impl {

using Kind = ManifestEntry::Kind;

// An entry of the edited copy.
struct CopyEntry {
  Kind kind = Kind::kFile;
  uint32_t mode = 0;
  timespec mtime{};
  std::string target;  // symlinks
};

int64_t nanoseconds(const timespec& t) { return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }

bool under_git(const std::string& path) {
  size_t begin = 0;
  for (;;) {
    const size_t slash = path.find('/', begin);
    if (path.compare(begin, slash == std::string::npos ? std::string::npos : slash - begin, ".git") == 0) {
      return true;
    }
    if (slash == std::string::npos) return false;
    begin = slash + 1;
  }
}

std::string read_fd(int fd, const std::string& what) {
  std::string bytes;
  std::vector<char> buffer(size_t{1} << 20);
  for (uint64_t offset = 0;;) {
    const ssize_t n = fs::pread_fully(fd, buffer.data(), buffer.size(), offset);
    if (n < 0) throw CliError(what, errno_text(errno));
    if (n == 0) return bytes;
    bytes.append(buffer.data(), static_cast<size_t>(n));
    offset += static_cast<uint64_t>(n);
  }
}

// Every entry below `dir` (a directory of the copy) into `out`, by relative path.
void walk_copy(const std::string& root, const std::string& relative, std::map<std::string, CopyEntry>& out,
               ImportReport& report) {
  const std::string dir_path = relative.empty() ? root : root + "/" + relative;
  DIR* dir = ::opendir(dir_path.c_str());
  if (dir == nullptr) throw CliError(dir_path, errno_text(errno));
  std::vector<std::string> names;
  while (const dirent* d = ::readdir(dir)) {
    const std::string name = d->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = relative.empty() ? name : relative + "/" + name;
    const std::string full = root + "/" + path;
    if (under_git(path)) continue;
    struct stat st {};
    if (::lstat(full.c_str(), &st) != 0) throw CliError(full, errno_text(errno));
    CopyEntry entry;
    entry.mode = static_cast<uint32_t>(st.st_mode & 07777);
    entry.mtime = st.st_mtim;
    if (S_ISDIR(st.st_mode)) {
      entry.kind = Kind::kDirectory;
      out[path] = entry;
      walk_copy(root, path, out, report);
    } else if (S_ISLNK(st.st_mode)) {
      entry.kind = Kind::kSymlink;
      std::string target(static_cast<size_t>(st.st_size) + 1, '\0');
      const ssize_t n = ::readlink(full.c_str(), target.data(), target.size());
      if (n < 0) throw CliError(full, errno_text(errno));
      target.resize(static_cast<size_t>(n));
      entry.target = std::move(target);
      out[path] = entry;
    } else if (S_ISREG(st.st_mode)) {
      out[path] = entry;
    } else {
      report.skipped.push_back(path + ": not a regular file, directory or symlink");
    }
  }
}

// The checkout's file at a path, when it still holds what its manifest entry was exported from.
struct CheckoutFile {
  enum class State { kUnchanged, kChanged, kGone };
  State state = State::kGone;
  std::string bytes;
  struct stat st {};
};

class Importer {
 public:
  Importer(Manifest& manifest, std::string copy, int root, ImportReport& report)
      : manifest_(manifest), copy_(std::move(copy)), root_(root), report_(report) {
    for (const std::string& block : manifest_.served_blocks) blocks_.add(block);
    for (ManifestEntry& entry : manifest_.entries) {
      if (under_git(entry.path)) continue;
      exported_[entry.path] = &entry;
      if (entry.kind == Kind::kFile) by_hash_.emplace(entry.copy_hash.low, &entry);
    }
  }

  void decide(const std::map<std::string, CopyEntry>& copy) {
    std::vector<std::string> paths;
    for (const auto& [path, entry] : exported_) paths.push_back(path);
    for (const auto& [path, entry] : copy) {
      if (!exported_.contains(path)) paths.push_back(path);
    }
    std::sort(paths.begin(), paths.end());
    // Deletions first, so a file new in the copy can learn where a deleted one went (a rename).
    for (const std::string& path : paths) {
      const ManifestEntry* before = exported_at(exported_, path);
      const CopyEntry* now = copied_at(copy, path);
      if (before != nullptr && (now == nullptr || now->kind != before->kind)) removed(*before);
    }
    for (const std::string& path : paths) {
      const ManifestEntry* before = exported_at(exported_, path);
      const CopyEntry* now = copied_at(copy, path);
      if (now == nullptr) continue;
      if (before != nullptr && before->kind == now->kind) {
        kept(*before, *now);
      } else {
        added(path, *now);
      }
    }
  }

  // Makes the changes decided, in an order that works (removals, then directories, then files,
  // then permissions), and updates the manifest with what was done.
  void apply() {
    for (const Change& change : changes_) {
      if (change.type == Change::Type::kRemove && change.kind != Kind::kDirectory) run(change);
    }
    for (auto it = changes_.rbegin(); it != changes_.rend(); ++it) {
      if (it->type == Change::Type::kRemove && it->kind == Kind::kDirectory) run(*it);
    }
    for (const Change& change : changes_) {
      if (change.type == Change::Type::kCreate && change.kind == Kind::kDirectory) run(change);
    }
    for (const Change& change : changes_) {
      if ((change.type == Change::Type::kCreate || change.type == Change::Type::kWrite) &&
          change.kind != Kind::kDirectory) {
        run(change);
      }
    }
    for (auto it = changes_.rbegin(); it != changes_.rend(); ++it) {
      if (it->type == Change::Type::kMode) run(*it);
    }
    std::vector<ManifestEntry> entries;
    for (ManifestEntry& entry : manifest_.entries) {
      if (!gone_.contains(entry.path)) entries.push_back(std::move(entry));
    }
    for (ManifestEntry& entry : added_entries_) entries.push_back(std::move(entry));
    std::sort(entries.begin(), entries.end(),
              [](const ManifestEntry& a, const ManifestEntry& b) { return a.path < b.path; });
    manifest_.entries = std::move(entries);
  }

  void list() {
    for (const Change& change : changes_) report_.changes.push_back(change.label());
  }

 private:
  struct Change {
    enum class Type { kRemove, kCreate, kWrite, kMode };
    Type type = Type::kWrite;
    Kind kind = Kind::kFile;
    std::string path;
    ManifestEntry* entry = nullptr;  // the manifest's entry, when the path was exported
    const CopyEntry* copy = nullptr;
    std::string bytes;                // files written or created: the stored bytes
    render::TagPlan provenance;       // the copy's bytes as a plan over `bytes`
    struct stat expected {};          // the checkout version decided from (writes, removals)

    std::string label() const {
      switch (type) {
        case Type::kRemove: return "D " + path;
        case Type::kCreate: return "A " + path;
        case Type::kWrite: return "M " + path;
        case Type::kMode: return "m " + path;
      }
      return path;
    }
  };

  static ManifestEntry* exported_at(const std::map<std::string, ManifestEntry*>& map,
                                    const std::string& path) {
    const auto it = map.find(path);
    return it == map.end() ? nullptr : it->second;
  }
  static const CopyEntry* copied_at(const std::map<std::string, CopyEntry>& map,
                                    const std::string& path) {
    const auto it = map.find(path);
    return it == map.end() ? nullptr : &it->second;
  }

  static Change make_change(Change::Type type, Kind kind, const std::string& path,
                            ManifestEntry* entry, const CopyEntry* copy) {
    Change change;
    change.type = type;
    change.kind = kind;
    change.path = path;
    change.entry = entry;
    change.copy = copy;
    return change;
  }

  void refuse(const std::string& path, const std::string& why) {
    report_.refused.push_back(path + ": " + why);
  }

  // The checkout's file `entry.path` against the version the copy was made from: unchanged when
  // it is that version, or holds exactly its bytes (the export's plan makes the copy from them).
  const CheckoutFile& checkout(const ManifestEntry& entry) {
    if (const auto it = checkouts_.find(entry.path); it != checkouts_.end()) return it->second;
    CheckoutFile& file = checkouts_[entry.path];
    const UniqueFd fd(fs::open_source(root_, entry.path));
    if (fd.get() < 0) {
      if (errno != ENOENT && errno != ENOTDIR) file.state = CheckoutFile::State::kChanged;
      return file;
    }
    if (::fstat(fd.get(), &file.st) != 0 || !S_ISREG(file.st.st_mode)) {
      file.state = CheckoutFile::State::kChanged;
      return file;
    }
    file.bytes = read_fd(fd.get(), entry.path);
    file.state = CheckoutFile::State::kChanged;
    const render::FileVersion zero;
    if (entry.version != zero && file_version_of(file.st) == entry.version) {
      file.state = CheckoutFile::State::kUnchanged;
    } else {
      try {
        const std::string view = render::apply(file.bytes, entry.plan);
        if (view.size() == entry.copy_size && hash_of(view) == entry.copy_hash) {
          file.state = CheckoutFile::State::kUnchanged;
        }
      } catch (const std::invalid_argument&) {
        // the plan does not fit these bytes: another version
      }
    }
    return file;
  }

  // What the checkout has at `path` now (lstat, beneath the root), or nullopt.
  std::optional<struct stat> checkout_stat(const std::string& path) const {
    const auto [dir, name] = fs::split_path(path);
    const UniqueFd dir_fd(fs::open_dir_beneath(root_, dir));
    struct stat st {};
    if (dir_fd.get() < 0 || ::fstatat(dir_fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return std::nullopt;
    }
    return st;
  }

  std::optional<std::string> checkout_link(const std::string& path) const {
    const auto [dir, name] = fs::split_path(path);
    const UniqueFd dir_fd(fs::open_dir_beneath(root_, dir));
    if (dir_fd.get() < 0) return std::nullopt;
    std::string target(4096, '\0');
    const ssize_t n = ::readlinkat(dir_fd.get(), name.c_str(), target.data(), target.size());
    if (n < 0) return std::nullopt;
    target.resize(static_cast<size_t>(n));
    return target;
  }

  std::string copy_bytes(const std::string& path) const {
    const std::string full = copy_ + "/" + path;
    const UniqueFd fd(::open(full.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) throw CliError(full, errno_text(errno));
    return read_fd(fd.get(), full);
  }

  // An exported path is no longer in the copy (or is something else now).
  void removed(const ManifestEntry& before) {
    Change change = make_change(Change::Type::kRemove, before.kind, before.path,
                                exported_.at(before.path), nullptr);
    if (before.kind == Kind::kFile) {
      const CheckoutFile& file = checkout(before);
      if (file.state == CheckoutFile::State::kGone) {
        gone_.insert(before.path);
        return;
      }
      if (file.state == CheckoutFile::State::kChanged) {
        refuse(before.path, "changed in the checkout since the export; not deleted");
        return;
      }
      change.expected = file.st;
      deleted_files_.push_back(&before);
    } else if (before.kind == Kind::kSymlink) {
      const std::optional<std::string> target = checkout_link(before.path);
      if (!target) {
        gone_.insert(before.path);
        return;
      }
      if (*target != before.target) {
        refuse(before.path, "changed in the checkout since the export; not deleted");
        return;
      }
    } else {
      const std::optional<struct stat> st = checkout_stat(before.path);
      if (!st) {
        gone_.insert(before.path);
        return;
      }
      if (!S_ISDIR(st->st_mode)) {
        refuse(before.path, "not a directory in the checkout any more; not deleted");
        return;
      }
    }
    removing_.insert(before.path);
    changes_.push_back(std::move(change));
  }

  // A path exported and still in the copy, as the same kind of entry.
  void kept(const ManifestEntry& before, const CopyEntry& now) {
    ManifestEntry* entry = exported_.at(before.path);
    if (before.kind == Kind::kDirectory) {
      if (now.mode != before.mode && checkout_stat(before.path)) {
        changes_.push_back(make_change(Change::Type::kMode, before.kind, before.path, entry, &now));
      }
      return;
    }
    if (before.kind == Kind::kSymlink) {
      if (now.target == before.target) return;
      const std::optional<std::string> target = checkout_link(before.path);
      if (!target || *target != before.target) {
        refuse(before.path, "changed in the checkout since the export; not imported");
        return;
      }
      changes_.push_back(make_change(Change::Type::kWrite, before.kind, before.path, entry, &now));
      return;
    }
    const std::string written = copy_bytes(before.path);
    const bool same_bytes = written.size() == before.copy_size && hash_of(written) == before.copy_hash;
    const bool same_time = nanoseconds(now.mtime) == before.copy_mtime_ns;
    if (same_bytes && now.mode == before.mode && same_time) return;
    const CheckoutFile& file = checkout(before);
    if (same_bytes) {
      // Permissions or times alone lose nothing the checkout gained meanwhile (a time is set
      // only on a file the checkout did not change).
      if (file.state == CheckoutFile::State::kGone) {
        if (now.mode != before.mode) {
          refuse(before.path, "deleted in the checkout since the export; mode not imported");
        }
      } else if (now.mode != before.mode || file.state == CheckoutFile::State::kUnchanged) {
        changes_.push_back(make_change(Change::Type::kMode, before.kind, before.path, entry, &now));
      }
      return;
    }
    if (file.state != CheckoutFile::State::kUnchanged) {
      refuse(before.path, std::string(file.state == CheckoutFile::State::kGone ? "deleted" : "changed") +
                              " in the checkout since the export; not imported (the edit stays in the copy)");
      return;
    }
    Change change = make_change(Change::Type::kWrite, before.kind, before.path, entry, &now);
    change.expected = file.st;
    store(change, written, &before);
    changes_.push_back(std::move(change));
  }

  // A path new in the copy (or a new kind of entry there).
  void added(const std::string& path, const CopyEntry& now) {
    const std::optional<struct stat> there = checkout_stat(path);
    if (there && !removing_.contains(path)) {
      const bool same_directory = now.kind == Kind::kDirectory && S_ISDIR(there->st_mode);
      if (!same_directory) {
        refuse(path, "created in the checkout too since the export; not imported");
        return;
      }
    }
    Change change = make_change(Change::Type::kCreate, now.kind, path, nullptr, &now);
    if (now.kind == Kind::kDirectory && there && S_ISDIR(there->st_mode)) {
      // Made in both: the same directory; the copy's permissions, if they differ.
      if ((there->st_mode & 07777) == now.mode) {
        added_entries_.push_back(directory_entry(path, now.mode));
        return;
      }
      change.type = Change::Type::kMode;
    }
    if (now.kind == Kind::kFile) {
      const std::string written = copy_bytes(path);
      store(change, written, renamed_from(path));
    }
    changes_.push_back(std::move(change));
  }

  // A file deleted from the copy that `path` is most likely that file moved: the one deleted
  // file of the same name.
  const ManifestEntry* renamed_from(const std::string& path) const {
    const std::string name = fs::split_path(path).second;
    const ManifestEntry* found = nullptr;
    for (const ManifestEntry* entry : deleted_files_) {
      if (fs::split_path(entry->path).second != name) continue;
      if (found != nullptr) return nullptr;
      found = entry;
    }
    return found;
  }

  // The stored bytes for `written`. A copy of some exported file's bytes (cp, mv) is that file's
  // checkout bytes; otherwise the store rule against `provenance`'s export (the file itself, or
  // the file it was renamed from), where `rewritten`: the copy's bytes are its provenance only if
  // they still hold most of its code lines. Without provenance only whole served blocks go.
  void store(Change& change, const std::string& written, const ManifestEntry* provenance) {
    const ContentHash hash = hash_of(written);
    std::vector<const ManifestEntry*> candidates;
    if (change.entry != nullptr) candidates.push_back(change.entry);
    const auto [first, last] = by_hash_.equal_range(hash.low);
    for (auto it = first; it != last; ++it) candidates.push_back(it->second);
    std::sort(candidates.begin() + (change.entry != nullptr ? 1 : 0), candidates.end(),
              [](const ManifestEntry* a, const ManifestEntry* b) { return a->path < b->path; });
    for (const ManifestEntry* candidate : candidates) {
      const ManifestEntry& exported = *candidate;
      if (exported.copy_hash != hash || exported.copy_size != written.size()) continue;
      const CheckoutFile& file = checkout(exported);
      if (file.state != CheckoutFile::State::kUnchanged) continue;
      change.bytes = file.bytes;
      change.provenance = exported.plan;
      return;
    }
    const render::FileVersion version;
    const CheckoutFile* file = provenance != nullptr ? &checkout(*provenance) : nullptr;
    const bool served = file != nullptr && file->state == CheckoutFile::State::kUnchanged;
    const std::string_view bytes = served ? std::string_view(file->bytes) : std::string_view();
    const render::StoreResult result = render::untag_written(
        {.plan = served ? &provenance->plan : nullptr,
         .served = served ? std::optional(version) : std::nullopt,
         .current = served ? std::optional(version) : std::nullopt,
         .checkout = bytes,
         .written = written,
         .appended_from = std::nullopt,
         .blocks = &blocks_,
         .rewritten = !served || !made_from(render::apply(bytes, provenance->plan), written)});
    change.bytes = render::assemble(result, bytes, written);
    change.provenance = result.provenance.value_or(render::TagPlan{});
  }

  // Whether `written` was made from `view` (edited, cut, lines moved) rather than brought from
  // elsewhere: at least half of its non-blank lines are lines of the view. The mount knows how a
  // file was written (in place, or truncated or renamed over); a copy's history is not known.
  static bool made_from(std::string_view view, std::string_view written) {
    std::unordered_multiset<std::string_view> lines;
    for_each_line(view, [&](std::string_view line) { lines.insert(line); });
    size_t total = 0;
    size_t found = 0;
    for_each_line(written, [&](std::string_view line) {
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
      ++total;
      if (const auto it = lines.find(line); it != lines.end()) {
        ++found;
        lines.erase(it);
      } else if (line.data() + line.size() == written.data() + written.size()) {
        // A file cut inside a line: what is left of that line.
        bool cut = false;
        for_each_line(view, [&](std::string_view served) { cut = cut || served.starts_with(line); });
        found += cut ? 1 : 0;
      }
    });
    return 2 * found >= total;
  }

  template <typename F>
  static void for_each_line(std::string_view text, F&& f) {
    size_t begin = 0;
    while (begin < text.size()) {
      const size_t newline = text.find('\n', begin);
      const size_t end = newline == std::string_view::npos ? text.size() : newline;
      f(text.substr(begin, end - begin));
      begin = end + 1;
    }
  }

  void fail(const Change& change, int error, const char* what) {
    refuse(change.path, std::string(what) + ": " + errno_text(error));
  }

  void run(const Change& change) {
    switch (change.type) {
      case Change::Type::kRemove: return run_remove(change);
      case Change::Type::kCreate: return run_create(change);
      case Change::Type::kWrite: return run_write(change);
      case Change::Type::kMode: return run_mode(change);
    }
  }

  void run_remove(const Change& change) {
    const auto [dir, name] = fs::split_path(change.path);
    const UniqueFd dir_fd(fs::open_dir_beneath(root_, dir));
    if (dir_fd.get() < 0) return fail(change, errno, "not deleted");
    if (change.kind == Kind::kFile) {
      struct stat now {};
      if (::fstatat(dir_fd.get(), name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 ||
          !fs::same_version(now, change.expected)) {
        return refuse(change.path, "changed in the checkout during the import; not deleted");
      }
    }
    if (::unlinkat(dir_fd.get(), name.c_str(), change.kind == Kind::kDirectory ? AT_REMOVEDIR : 0) != 0) {
      if (errno == ENOTEMPTY || errno == EEXIST) {
        return refuse(change.path, "the checkout's directory holds files the copy does not know; kept");
      }
      return fail(change, errno, "not deleted");
    }
    gone_.insert(change.path);
    ++report_.deleted;
  }

  // Gives `fd` the copy's modification time and, when the copy changed them, its permissions.
  int finish_file(int fd, const Change& change) {
    if (change.entry == nullptr || change.copy->mode != change.entry->mode) {
      if (::fchmod(fd, change.copy->mode) != 0) return errno;
    }
    const timespec times[2] = {{0, UTIME_OMIT}, change.copy->mtime};
    if (::futimens(fd, times) != 0) return errno;
    return 0;
  }

  void run_create(const Change& change) {
    const auto [dir, name] = fs::split_path(change.path);
    const UniqueFd dir_fd(fs::open_dir_beneath(root_, dir));
    if (dir_fd.get() < 0) return fail(change, errno, "not created");
    if (change.kind == Kind::kDirectory) {
      if (::mkdirat(dir_fd.get(), name.c_str(), 0700) != 0 ||
          ::fchmodat(dir_fd.get(), name.c_str(), change.copy->mode, 0) != 0) {
        return fail(change, errno, "not created");
      }
      added_entries_.push_back(directory_entry(change.path, change.copy->mode));
      ++report_.directories;
      return;
    }
    if (change.kind == Kind::kSymlink) {
      if (::symlinkat(change.copy->target.c_str(), dir_fd.get(), name.c_str()) != 0) {
        return fail(change, errno, "not created");
      }
      added_entries_.push_back(symlink_entry(change.path, change.copy->mode, change.copy->target));
      ++report_.created;
      return;
    }
    const UniqueFd fd(::openat(dir_fd.get(), name.c_str(),
                               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() < 0) return fail(change, errno, "not created");
    int error = fs::write_at(fd.get(), change.bytes, 0);
    if (error == 0) error = finish_file(fd.get(), change);
    if (error == 0 && ::fdatasync(fd.get()) != 0) error = errno;
    if (error != 0) {
      ::unlinkat(dir_fd.get(), name.c_str(), 0);
      return fail(change, error, "not created");
    }
    record_file(fd.get(), change, nullptr);
    ++report_.created;
  }

  void run_write(const Change& change) {
    if (change.kind == Kind::kSymlink) {
      const auto [dir, name] = fs::split_path(change.path);
      const UniqueFd dir_fd(fs::open_dir_beneath(root_, dir));
      const std::string temporary = "." + name + ".anchorfs-import";
      if (dir_fd.get() < 0 || ::symlinkat(change.copy->target.c_str(), dir_fd.get(), temporary.c_str()) != 0) {
        return fail(change, errno, "not imported");
      }
      if (::renameat(dir_fd.get(), temporary.c_str(), dir_fd.get(), name.c_str()) != 0) {
        const int error = errno;
        ::unlinkat(dir_fd.get(), temporary.c_str(), 0);
        return fail(change, error, "not imported");
      }
      change.entry->target = change.copy->target;
      ++report_.written;
      return;
    }
    int error = 0;
    if (change.expected.st_nlink > 1) {
      // Other names share this inode: write it in place so they keep seeing the file.
      const UniqueFd out(fs::open_beneath(root_, change.path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK));
      struct stat now {};
      if (out.get() < 0 || ::fstat(out.get(), &now) != 0) return fail(change, errno, "not imported");
      if (!fs::same_version(now, change.expected)) {
        return refuse(change.path, "changed in the checkout during the import; not imported");
      }
      if ((error = fs::write_at(out.get(), change.bytes, 0)) == 0 &&
          ::ftruncate(out.get(), static_cast<off_t>(change.bytes.size())) != 0) {
        error = errno;
      }
      if (error == 0) error = finish_file(out.get(), change);
    } else {
      const Change* pending = &change;
      error = fs::replace_file_with(
          root_, change.path,
          {.fill = [pending](int fd) { return fs::write_at(fd, pending->bytes, 0); },
           .mtime = &change.copy->mtime,
           .expected = &change.expected});
      if (error == ESTALE) {
        return refuse(change.path, "changed in the checkout during the import; not imported");
      }
    }
    if (error != 0) return fail(change, error, "not imported");
    const UniqueFd stored(fs::open_source(root_, change.path));
    if (stored.get() < 0) return fail(change, errno, "imported, but cannot be read back");
    if (change.copy->mode != change.entry->mode && ::fchmod(stored.get(), change.copy->mode) != 0) {
      return fail(change, errno, "imported, but its permissions not");
    }
    record_file(stored.get(), change, change.entry);
    ++report_.written;
  }

  void run_mode(const Change& change) {
    const auto [dir, name] = fs::split_path(change.path);
    const UniqueFd dir_fd(fs::open_dir_beneath(root_, dir));
    const bool file = change.kind == Kind::kFile;
    const bool chmod = !file || change.copy->mode != change.entry->mode;
    if (dir_fd.get() < 0 ||
        (chmod && ::fchmodat(dir_fd.get(), name.c_str(), change.copy->mode, 0) != 0)) {
      return fail(change, errno, "mode not imported");
    }
    if (file) {
      const bool unchanged = checkout(*change.entry).state == CheckoutFile::State::kUnchanged;
      const timespec times[2] = {{0, UTIME_OMIT}, change.copy->mtime};
      if (unchanged && ::utimensat(dir_fd.get(), name.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0) {
        return fail(change, errno, "time not imported");
      }
      struct stat now {};
      if (unchanged && ::fstatat(dir_fd.get(), name.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0) {
        change.entry->version = file_version_of(now);
      }
      change.entry->copy_mtime_ns = nanoseconds(change.copy->mtime);
    }
    if (change.entry != nullptr) {
      change.entry->mode = change.copy->mode;
    } else {
      added_entries_.push_back(directory_entry(change.path, change.copy->mode));
    }
    ++report_.modes;
  }

  // The manifest now describes the stored file `fd` and the copy's bytes as made from it.
  void record_file(int fd, const Change& change, ManifestEntry* entry) {
    struct stat st {};
    ManifestEntry updated;
    updated.path = change.path;
    updated.mode = change.copy->mode;
    updated.plan = change.provenance;
    updated.copy_mtime_ns = nanoseconds(change.copy->mtime);
    if (::fstat(fd, &st) == 0) updated.version = file_version_of(st);
    const std::string copied = render::apply(change.bytes, change.provenance);
    updated.copy_size = copied.size();
    updated.copy_hash = hash_of(copied);
    if (entry != nullptr) {
      *entry = std::move(updated);
    } else {
      added_entries_.push_back(std::move(updated));
    }
  }

  Manifest& manifest_;
  std::string copy_;
  int root_;
  ImportReport& report_;
  render::ServedBlocks blocks_;
  std::map<std::string, ManifestEntry*> exported_;
  std::unordered_multimap<uint64_t, const ManifestEntry*> by_hash_;
  std::map<std::string, CheckoutFile> checkouts_;
  std::vector<const ManifestEntry*> deleted_files_;
  std::set<std::string> removing_;  // exported paths being removed from the checkout
  std::set<std::string> gone_;      // exported paths no longer in the checkout
  std::vector<Change> changes_;
  std::vector<ManifestEntry> added_entries_;
};

}  // namespace import_impl

ImportReport import_tree(Manifest& manifest, const std::string& copy, const std::string& repo,
                         bool dry_run) {
  ImportReport report;
  const UniqueFd root(::open(repo.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) throw CliError(repo, errno_text(errno));
  std::map<std::string, import_impl::CopyEntry> entries;
  import_impl::walk_copy(copy, "", entries, report);
  import_impl::Importer importer(manifest, copy, root.get(), report);
  importer.decide(entries);
  importer.list();
  if (!dry_run) importer.apply();
  return report;
}

}  // namespace anchorfs::cli
