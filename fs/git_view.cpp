// Building the view's `.git`: in-memory HEAD/index/config/attributes, symlinks for the rest.
#include "fs/git_view.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "fs/git_index.h"
#include "fs/source_file.h"

namespace anchorfs::fs {
namespace {

constexpr std::string_view kGit = ".git";

// What git keeps in the common directory of linked worktrees (path.c's common_list, top level);
// everything else of a linked worktree's view comes from its own directory.
constexpr std::array<std::string_view, 18> kCommonNames = {
    "branches", "common",  "config",     "description", "hooks",   "info",
    "lfs",      "logs",    "lost-found", "modules",     "objects", "packed-refs",
    "refs",     "remotes", "rr-cache",   "shallow",     "svn",     "worktrees"};
// How every block the view appends to a config or info/attributes starts.
constexpr std::string_view kBlockMark = "# anchorfs, in this view only: ";
// A linked worktree's own files that describe the link itself, not the repository.
constexpr std::array<std::string_view, 3> kLinkFiles = {"commondir", "gitdir", "locked"};

int64_t to_ns(const timespec& t) {
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

analysis::TreeEntry entry_from_stat(std::string path, const struct stat& st) {
  analysis::TreeEntry entry;
  entry.path = std::move(path);
  entry.mode = st.st_mode;
  entry.size = static_cast<uint64_t>(st.st_size);
  entry.inode = st.st_ino;
  entry.nlink = static_cast<uint32_t>(st.st_nlink);
  entry.uid = st.st_uid;
  entry.gid = st.st_gid;
  entry.mtime_ns = to_ns(st.st_mtim);
  entry.ctime_ns = to_ns(st.st_ctim);
  entry.atime_ns = to_ns(st.st_atim);
  return entry;
}

// The attributes of an overlay that stands for no checkout file (made from nothing): readable by
// the mount's owner only, whatever `base` (the directory it is made in) allows.
struct stat owner_only(struct stat base) {
  base.st_mode = S_IFREG | 0600;
  base.st_uid = ::geteuid();
  base.st_gid = ::getegid();
  return base;
}

std::optional<std::string> canonical(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return std::nullopt;
  std::string out(real);
  std::free(real);
  return out;
}

// A small file's bytes and the stat they were read with (the fd's, so they agree).
struct FileBytes {
  std::string bytes;
  struct stat st {};
};

std::optional<FileBytes> read_small_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  FileBytes out;
  bool ok = ::fstat(fd, &out.st) == 0 && S_ISREG(out.st.st_mode);
  if (ok) {
    out.bytes.resize(static_cast<size_t>(out.st.st_size));
    const ssize_t n = pread_fully(fd, out.bytes.data(), out.bytes.size(), 0);
    ok = n == static_cast<ssize_t>(out.bytes.size());
  }
  ::close(fd);
  if (!ok) return std::nullopt;
  return out;
}

std::string trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string resolve_against(const std::string& base, const std::string& path) {
  return !path.empty() && path[0] == '/' ? path : base + "/" + path;
}

std::vector<std::string> list_names(const std::string& dir) {
  std::vector<std::string> names;
  DIR* handle = ::opendir(dir.c_str());
  if (handle == nullptr) return names;
  while (const dirent* d = ::readdir(handle)) {
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) {
      names.emplace_back(d->d_name);
    }
  }
  ::closedir(handle);
  return names;
}

// git config quoting of a value: inside double quotes only '\' and '"' need escaping, and
// '#' and ';' lose their comment meaning.
std::string config_quoted(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string with_final_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

// The lines the view appends to the checkout's config ("" when it appends none).
std::string config_block(const GitViewOptions& options) {
  if (options.filter_command.empty()) return "";
  return std::string(kBlockMark) +
         "tagged files reach git through this clean filter\n"
         "[filter \"anchorfs\"]\n\tprocess = " +
         config_quoted(options.filter_command) + "\n";
}

// The lines the view appends to the checkout's info/attributes ("" when it appends none).
std::string attributes_block(const GitViewOptions& options) {
  if (options.filter_command.empty() || options.filter_patterns.empty()) return "";
  std::string block = std::string(kBlockMark) + "tagged files reach git through its clean filter\n";
  for (const std::string& pattern : options.filter_patterns) {
    block += pattern + " filter=anchorfs\n";
  }
  return block;
}

std::string config_overlay(std::string config, const GitViewOptions& options) {
  const std::string block = config_block(options);
  return block.empty() ? config : with_final_newline(std::move(config)) + block;
}

std::string attributes_overlay(std::string attributes, const GitViewOptions& options) {
  const std::string block = attributes_block(options);
  return block.empty() ? attributes : with_final_newline(std::move(attributes)) + block;
}

// `text` without the first copy of `block` (a writer kept the overlay it read).
std::string without_block(std::string text, const std::string& block) {
  if (block.empty()) return text;
  const size_t at = text.find(block);
  if (at != std::string::npos) text.erase(at, block.size());
  return text;
}

// The entries of the view's `.git` and the in-memory files among them.
class GitDirBuilder {
 public:
  // `git`: where the `.git` sits in the tree; `worktree`: the top of its worktree there.
  GitDirBuilder(const GitViewOptions& options, std::string git = std::string(kGit),
                std::string worktree = {})
      : options_(options), git_(std::move(git)), worktree_(std::move(worktree)) {}

  bool build(const GitDirs& dirs) {
    struct stat st {};
    if (::stat(dirs.gitdir.c_str(), &st) != 0) return false;
    entries_.push_back(entry_from_stat(std::string(kGit), st));
    // name -> the real path it shows
    std::map<std::string, std::string> items;
    const bool linked = dirs.gitdir != dirs.common;
    for (const std::string& name : list_names(dirs.common)) {
      if (!linked ||
          std::find(kCommonNames.begin(), kCommonNames.end(), name) != kCommonNames.end()) {
        items[name] = dirs.common + "/" + name;
      }
    }
    if (linked) {
      for (const std::string& name : list_names(dirs.gitdir)) {
        if (std::find(kCommonNames.begin(), kCommonNames.end(), name) != kCommonNames.end() ||
            std::find(kLinkFiles.begin(), kLinkFiles.end(), name) != kLinkFiles.end()) {
          continue;
        }
        items[name] = dirs.gitdir + "/" + name;
      }
    }
    if (!items.contains("HEAD")) return false;
    const std::string git(kGit);
    for (const auto& [name, real] : items) {
      const std::string path = git + "/" + name;
      if (name == "HEAD" || name == "index") {
        if (!add_copy(path, real, [](std::string bytes) { return bytes; })) return false;
        if (name == "index") git_index_ = path;
      } else if (name == "config") {
        if (!add_copy(path, real, [this](std::string bytes) {
              return config_overlay(std::move(bytes), options_);
            })) {
          return false;
        }
      } else if (name == "info") {
        add_info(path, real);
      } else {
        add_symlink(path, real);
      }
    }
    if (!items.contains("config")) {
      add_generated(git + "/config", owner_only(st), config_overlay({}, options_));
    }
    if (!items.contains("info")) add_info(git + "/info", dirs.common + "/info");
    return true;
  }

  // An ordinary repository's `.git` is in the tree already: only the index, config and
  // info/attributes change, and everything else stays the scanned passthrough (which a
  // writable mount's operations can then write, git's lock files included).
  bool build_in_place(const GitDirs& dirs) {
    const std::string& git = git_;
    if (std::optional<FileBytes> index = read_small_file(dirs.gitdir + "/index")) {
      add_generated(git + "/index", index->st, std::move(index->bytes));
      git_index_ = git + "/index";
    }
    struct stat st {};
    if (::stat(dirs.gitdir.c_str(), &st) != 0) return false;
    if (std::optional<FileBytes> config = read_small_file(dirs.gitdir + "/config")) {
      add_generated(git + "/config", config->st,
                    config_overlay(std::move(config->bytes), options_));
    } else {
      add_generated(git + "/config", owner_only(st), config_overlay({}, options_));
    }
    struct stat info {};
    const std::string info_dir = dirs.gitdir + "/info";
    if (::stat(info_dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
      info = st;
      entries_.push_back(entry_from_stat(git + "/info", info));
    }
    std::optional<FileBytes> attributes = read_small_file(info_dir + "/attributes");
    const struct stat attributes_st = attributes ? attributes->st : owner_only(info);
    add_generated(
        git + "/info/attributes", attributes_st,
        attributes_overlay(attributes ? std::move(attributes->bytes) : std::string(), options_));
    return true;
  }

  std::vector<analysis::TreeEntry>& entries() { return entries_; }
  VirtualFiles files() {
    VirtualFiles out;
    out.files = std::move(files_);
    if (!git_index_.empty()) out.git_indexes.push_back({git_index_, worktree_});
    return out;
  }

 private:
  template <typename Transform>
  bool add_copy(const std::string& path, const std::string& real, Transform transform) {
    std::optional<FileBytes> file = read_small_file(real);
    if (!file) return false;
    add_generated(path, file->st, transform(std::move(file->bytes)));
    return true;
  }

  // An overlay with the owner and permission bits of `st` (the checkout file it stands for, or
  // owner_only): what the checkout keeps private (a config with a token in a remote URL, mode
  // 000 or 0600) stays private in the view. Never executable, setuid or sticky.
  void add_generated(const std::string& path, const struct stat& st, std::string bytes) {
    analysis::TreeEntry entry = entry_from_stat(path, st);
    entry.mode = S_IFREG | (st.st_mode & 0666);
    entry.nlink = 1;
    entry.size = bytes.size();
    entries_.push_back(std::move(entry));
    files_.emplace_back(path, std::make_shared<const std::string>(std::move(bytes)));
  }

  void add_symlink(const std::string& path, const std::string& real) {
    struct stat st {};
    if (::lstat(real.c_str(), &st) != 0) return;  // vanished meanwhile (a lock file)
    analysis::TreeEntry entry = entry_from_stat(path, st);
    entry.mode = S_IFLNK | 0777;
    entry.nlink = 1;
    entry.symlink_target = real;
    entry.size = real.size();
    entries_.push_back(std::move(entry));
  }

  // info/: a directory of symlinks, but for attributes (the checkout's plus the filter).
  void add_info(const std::string& path, const std::string& real) {
    struct stat st {};
    const bool exists = ::stat(real.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    if (!exists) {
      ::stat((real + "/..").c_str(), &st);
      st.st_mode = S_IFDIR | 0755;
    }
    entries_.push_back(entry_from_stat(path, st));
    bool have_attributes = false;
    for (const std::string& name : exists ? list_names(real) : std::vector<std::string>{}) {
      if (name == "attributes") {
        std::optional<FileBytes> file = read_small_file(real + "/" + name);
        if (file) {
          add_generated(path + "/" + name, file->st,
                        attributes_overlay(std::move(file->bytes), options_));
          have_attributes = true;
        }
      } else {
        add_symlink(path + "/" + name, real + "/" + name);
      }
    }
    if (!have_attributes) {
      add_generated(path + "/attributes", owner_only(st), attributes_overlay({}, options_));
    }
  }

  const GitViewOptions& options_;
  const std::string git_;       // where the `.git` sits in the tree
  const std::string worktree_;  // the top of its worktree in the tree ("" for the tree's own)
  std::vector<analysis::TreeEntry> entries_;
  std::vector<std::pair<std::string, std::shared_ptr<const std::string>>> files_;
  std::string git_index_;
};

std::string shell_quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// A nested repository's git names files from its own top (`sub`), the filter from the checkout's.
GitViewOptions nested_options(const GitViewOptions& options, std::string_view under) {
  GitViewOptions nested = options;
  if (!nested.filter_command.empty()) nested.filter_command += " --under " + shell_quoted(under);
  // Repository-anchored patterns ("/a.py.bak") name the top repository's files.
  std::erase_if(nested.filter_patterns,
                [](const std::string& pattern) { return pattern.starts_with('/'); });
  return nested;
}

// `tree` without `.git` and below (`whole`) or without the paths of `added`, plus `added`, laid
// out again breadth-first with each directory's children contiguous and sorted (the SourceTree
// invariants).
void replace_git_entries(analysis::SourceTree& tree, std::vector<analysis::TreeEntry> added,
                         bool whole) {
  std::unordered_set<std::string_view> replaced;
  for (const analysis::TreeEntry& entry : added) replaced.insert(entry.path);
  std::vector<analysis::TreeEntry> all;
  all.reserve(tree.entries.size() + added.size());
  for (analysis::TreeEntry& entry : tree.entries) {
    const std::string_view path = entry.path;
    const bool in_git = path == kGit || (path.starts_with(kGit) && path.size() > kGit.size() &&
                                         path[kGit.size()] == '/');
    if (whole ? in_git : replaced.contains(path)) continue;
    all.push_back(std::move(entry));
  }
  for (analysis::TreeEntry& entry : added) all.push_back(std::move(entry));
  // Children of each directory, by the directory's path.
  std::unordered_map<std::string_view, std::vector<uint32_t>> children;
  for (uint32_t i = 1; i < all.size(); ++i) {
    const std::string_view path = all[i].path;
    const size_t slash = path.rfind('/');
    children[slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash)]
        .push_back(i);
  }
  std::vector<analysis::TreeEntry> out;
  out.reserve(all.size());
  out.push_back(all[0]);
  for (size_t next = 0; next < out.size(); ++next) {
    analysis::TreeEntry& dir = out[next];
    dir.first_child = 0;
    dir.child_count = 0;
    if (!S_ISDIR(dir.mode)) continue;
    auto found = children.find(dir.path);
    if (found == children.end()) continue;
    std::vector<uint32_t>& kids = found->second;
    std::sort(kids.begin(), kids.end(),
              [&all](uint32_t a, uint32_t b) { return all[a].path < all[b].path; });
    const auto first = static_cast<uint32_t>(out.size());
    for (uint32_t kid : kids) {
      analysis::TreeEntry child = all[kid];
      child.parent = static_cast<uint32_t>(next);
      out.push_back(std::move(child));
    }
    out[next].first_child = first;
    out[next].child_count = static_cast<uint32_t>(kids.size());
  }
  tree.entries = std::move(out);
}

// The repositories nested in the tree, as (worktree top, `.git` directory in the tree):
// - a `sub/.git` directory of its own (the real directory at that place: a symlinked or outside
//   `.git` is left as scanned);
// - a submodule: `sub/.git` a "gitdir:" file whose relative path leads to a directory inside the
//   tree's repository files (`.git/modules/sub`). Its core.worktree is relative to that directory
//   (git writes it so), so in the view it names the view's `sub`, and git there works in the mount.
//   An absolute gitdir is left as scanned: git there works in the checkout itself.
std::vector<std::pair<std::string, std::string>> nested_repositories(
    const analysis::SourceTree& tree) {
  std::unordered_set<std::string_view> dirs;
  for (const analysis::TreeEntry& entry : tree.entries) {
    if (S_ISDIR(entry.mode)) dirs.insert(entry.path);
  }
  std::vector<std::pair<std::string, std::string>> nested;
  for (size_t i = 1; i < tree.entries.size(); ++i) {
    const analysis::TreeEntry& entry = tree.entries[i];
    if (!entry.path.ends_with("/.git")) continue;
    const std::string top = entry.path.substr(0, entry.path.size() - kGit.size() - 1);
    if (inside_git_dir(top)) continue;
    const std::optional<GitDirs> found = locate_git_dirs(tree.root + "/" + top);
    if (!found || found->gitdir != found->common) continue;
    if (S_ISDIR(entry.mode)) {
      if (found->gitdir == tree.root + "/" + entry.path) nested.emplace_back(top, entry.path);
      continue;
    }
    if (!S_ISREG(entry.mode)) continue;
    std::optional<FileBytes> file = read_small_file(tree.root + "/" + entry.path);
    if (!file || trim(std::string_view(file->bytes).substr(7)).starts_with('/')) continue;
    const std::string prefix = tree.root + "/";
    if (!found->gitdir.starts_with(prefix)) continue;
    const std::string gitdir = found->gitdir.substr(prefix.size());
    if (inside_git_dir(gitdir) && dirs.contains(gitdir)) nested.emplace_back(top, gitdir);
  }
  return nested;
}

// Every repository nested in the tree (see nested_repositories) gets the same config,
// info/attributes and index overlays as the top one, its filter told where it sits and its index
// translated per generation with its paths under the nested worktree.
void graft_nested_repositories(analysis::SourceTree& tree, const GitViewOptions& options,
                               VirtualFiles& files) {
  for (const auto& [top, git] : nested_repositories(tree)) {
    const GitDirs dirs{tree.root + "/" + git, tree.root + "/" + git};
    const GitViewOptions own = nested_options(options, top);
    GitDirBuilder builder(own, git, top);
    if (!builder.build_in_place(dirs)) continue;
    replace_git_entries(tree, std::move(builder.entries()), false);
    VirtualFiles own_files = builder.files();
    for (auto& file : own_files.files) files.files.push_back(std::move(file));
    for (auto& index : own_files.git_indexes) files.git_indexes.push_back(std::move(index));
  }
}

}  // namespace

std::optional<GitDirs> locate_git_dirs(const std::string& root) {
  const std::string dot_git = root + "/" + std::string(kGit);
  struct stat st {};
  if (::lstat(dot_git.c_str(), &st) != 0) return std::nullopt;
  GitDirs dirs;
  if (S_ISDIR(st.st_mode)) {
    std::optional<std::string> real = canonical(dot_git);
    if (!real) return std::nullopt;
    dirs.gitdir = *real;
  } else if (S_ISREG(st.st_mode)) {
    std::optional<FileBytes> file = read_small_file(dot_git);
    if (!file || !file->bytes.starts_with("gitdir:")) return std::nullopt;
    std::optional<std::string> real =
        canonical(resolve_against(root, trim(std::string_view(file->bytes).substr(7))));
    if (!real) return std::nullopt;
    dirs.gitdir = *real;
  } else {
    return std::nullopt;
  }
  dirs.common = dirs.gitdir;
  if (std::optional<FileBytes> commondir = read_small_file(dirs.gitdir + "/commondir")) {
    std::optional<std::string> real =
        canonical(resolve_against(dirs.gitdir, trim(commondir->bytes)));
    if (!real) return std::nullopt;
    dirs.common = *real;
  }
  if (::stat((dirs.common + "/objects").c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return std::nullopt;
  }
  return dirs;
}

VirtualFiles graft_git_view(analysis::SourceTree& tree, const GitViewOptions& options) {
  VirtualFiles none;
  none.options = std::make_shared<const GitViewOptions>(options);
  const std::optional<GitDirs> dirs = locate_git_dirs(tree.root);
  if (!dirs) return none;
  GitDirBuilder builder(options);
  const bool in_place = dirs->gitdir == dirs->common && dirs->gitdir == tree.root + "/.git";
  if (!(in_place ? builder.build_in_place(*dirs) : builder.build(*dirs))) return none;
  replace_git_entries(tree, std::move(builder.entries()), !in_place);
  VirtualFiles files = builder.files();
  graft_nested_repositories(tree, options, files);
  files.options = std::move(none.options);
  return files;
}

namespace {

// The tree's path of `path` in the repository whose worktree is `worktree` ("" for the top one).
std::string in_tree(std::string_view worktree, std::string_view path) {
  std::string out(worktree);
  if (!out.empty()) out += '/';
  out += path;
  return out;
}

}  // namespace

bool filter_covers(const GitViewOptions& options, std::string_view path) {
  const std::string_view base = path.substr(path.rfind('/') + 1);
  for (const std::string& pattern : options.filter_patterns) {
    if (pattern.starts_with("/") ? std::string_view(pattern).substr(1) == path
                                 : pattern.starts_with("*") && base.ends_with(pattern.substr(1))) {
      return true;
    }
  }
  return false;
}

std::shared_ptr<const std::string> served_git_index(
    const Snapshot& snapshot, const std::string& checkout_index, std::string_view worktree,
    const std::function<uint64_t(uint32_t)>& inode_of,
    const std::function<bool(uint32_t)>& renumbered, bool locked) {
  std::string path;
  auto restat = [&](std::string_view indexed,
                    const IndexedStat& recorded) -> std::optional<IndexedStat> {
    path = in_tree(worktree, indexed);
    const std::optional<uint32_t> index = snapshot.find(path);
    if (!index) return std::nullopt;
    const analysis::TreeEntry& entry = snapshot.entry(*index);
    if ((!S_ISREG(entry.mode) && !S_ISLNK(entry.mode)) ||
        (recorded.mode & S_IFMT) != (entry.mode & S_IFMT)) {
      return std::nullopt;
    }
    // What git in the checkout compares (dev excepted: git only checks it when built USE_STDEV;
    // the nanoseconds of the times likewise only when built USE_NSEC, which Debian's is not: a
    // chmod within the second of the recorded change time leaves the entry trusted there, so it
    // is trusted here too, or git in the mount calls the file modified by its size).
    IndexedStat now = recorded;
    now.ctime_s = static_cast<uint32_t>(entry.ctime_ns / 1'000'000'000);
    now.mtime_s = static_cast<uint32_t>(entry.mtime_ns / 1'000'000'000);
    now.ino = static_cast<uint32_t>(entry.inode);
    now.uid = static_cast<uint32_t>(entry.uid);
    now.gid = static_cast<uint32_t>(entry.gid);
    now.size = static_cast<uint32_t>(entry.size);
    if (now != recorded) return std::nullopt;
    IndexedStat served = recorded;
    served.size = static_cast<uint32_t>(snapshot.view_size(*index));
    if (snapshot.awaiting_analysis() && !locked && S_ISREG(entry.mode) &&
        snapshot.layout(*index).empty() &&
        snapshot.git_view() && filter_covers(*snapshot.git_view(), path)) {
      served.size = 0;
    }
    if (S_ISREG(entry.mode) && renumbered(*index)) served.size = 0;
    served.ino = static_cast<uint32_t>(inode_of(*index));
    if (snapshot.git_view() && snapshot.git_view()->assume_unchanged && S_ISREG(entry.mode)) {
      served.assume_unchanged = true;
    }
    return served;
  };
  std::optional<std::string> rewritten = rewrite_index_stats(checkout_index, restat);
  return std::make_shared<const std::string>(rewritten ? std::move(*rewritten) : checkout_index);
}

bool git_index_locked(const Snapshot& snapshot, uint32_t index) {
  const std::string lock = snapshot.entry(index).path + ".lock";
  if (const std::optional<uint32_t> found = snapshot.find(lock)) {
    return S_ISREG(snapshot.entry(*found).mode);
  }
  struct stat st {};
  return ::lstat((snapshot.root() + "/" + lock).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

namespace {

// Whether two index records agree on everything but what a view changes (size, inode number,
// device): the same file version, as git recorded it.
bool same_times_and_owner(const IndexedStat& a, const IndexedStat& b) {
  return a.ctime_s == b.ctime_s && a.ctime_ns == b.ctime_ns && a.mtime_s == b.mtime_s &&
         a.mtime_ns == b.mtime_ns && a.mode == b.mode && a.uid == b.uid && a.gid == b.gid;
}

}  // namespace

std::optional<std::string> checkout_bytes_of_overlay(const Snapshot& snapshot,
                                                     std::string_view path, std::string written) {
  const std::optional<uint32_t> overlay = snapshot.find(path);
  if (!overlay || !snapshot.content(*overlay) || !snapshot.git_view()) return std::nullopt;
  if (const std::string* worktree = snapshot.git_index_worktree(*overlay)) {
    // Git recorded the stat it saw through the mount. Where the file's modification time (to the
    // nanosecond), owner and type are still the checkout file's, its bytes have not changed
    // since git verified or wrote them, so the checkout's own size, inode number and change
    // time are what git in the checkout must find. The change time git saw may be earlier: a
    // file written through the mount is stored by link and rename after its last write, which
    // moves its ctime on (fs/checkout_io.h); a later ctime is never accepted.
    // An entry git left as the checkout's index recorded it carries the checkout's stat already:
    // kept. Its file may have changed since with its modification time put back (`touch`,
    // `cp -p`), and taking the file's size now would hide the change from git in the checkout
    // (fuzz seed 112). So does an entry git left as the mount served it (served_git_index: the
    // checkout's record with the view's size and inode number): its times and owner are the
    // record's to the nanosecond, and the record goes back. The mount trusts a record whose times
    // differ from the file's below the second, as git in the checkout does, so the file's own
    // times need not match it: a file changed within the second of its clone or last `git status`
    // (fuzz seed 4011: clone, edits and `rm` of a hard link all in one second, then `git stash` in
    // the mount) kept the view's size in the checkout's index, and git there called it modified.
    std::unordered_map<std::string, IndexedStat> in_checkout;
    rewrite_index_stats(*snapshot.content(*overlay),
                        [&](std::string_view indexed, const IndexedStat& recorded) {
                          in_checkout.emplace(std::string(indexed), recorded);
                          return std::optional<IndexedStat>{};
                        });
    auto restat = [&](std::string_view indexed,
                      const IndexedStat& recorded) -> std::optional<IndexedStat> {
      const auto kept = in_checkout.find(std::string(indexed));
      if (kept != in_checkout.end()) {
        if (kept->second == recorded) return std::nullopt;
        if (kept->second.size != 0 && same_times_and_owner(kept->second, recorded)) {
          IndexedStat checkout = kept->second;
          checkout.assume_unchanged = recorded.assume_unchanged;
          return checkout;
        }
      }
      const std::optional<uint32_t> index = snapshot.find(in_tree(*worktree, indexed));
      if (!index) return std::nullopt;
      const analysis::TreeEntry& entry = snapshot.entry(*index);
      const int64_t recorded_ctime_ns =
          int64_t{recorded.ctime_s} * 1'000'000'000 + int64_t{recorded.ctime_ns};
      if ((!S_ISREG(entry.mode) && !S_ISLNK(entry.mode)) ||
          (recorded.mode & S_IFMT) != (entry.mode & S_IFMT) ||
          recorded.mtime_s != entry.mtime_ns / 1'000'000'000 ||
          recorded.mtime_ns != entry.mtime_ns % 1'000'000'000 || recorded.uid != entry.uid ||
          recorded.gid != entry.gid || recorded_ctime_ns > entry.ctime_ns) {
        return std::nullopt;
      }
      IndexedStat checkout = recorded;
      checkout.ctime_s = static_cast<uint32_t>(entry.ctime_ns / 1'000'000'000);
      checkout.ctime_ns = static_cast<uint32_t>(entry.ctime_ns % 1'000'000'000);
      checkout.size = static_cast<uint32_t>(entry.size);
      checkout.ino = static_cast<uint32_t>(entry.inode);
      return checkout;
    };
    std::optional<std::string> rewritten = rewrite_index_stats(written, restat);
    return rewritten ? std::move(*rewritten) : std::move(written);
  }
  // Config and attributes lose the block the view appended to them, whichever repository's
  // they are.
  const std::string_view name = path.substr(path.rfind('/') + 1);
  if (name == "config" || name == "attributes") {
    const std::string& served = *snapshot.content(*overlay);
    const size_t block = served.rfind(kBlockMark);
    if (block == std::string::npos) return std::nullopt;
    return without_block(std::move(written), served.substr(block));
  }
  return std::nullopt;
}

bool inside_git_dir(std::string_view path) {
  return path == kGit || path.starts_with(".git/") ||
         path.find("/.git/") != std::string_view::npos || path.ends_with("/.git");
}

}  // namespace anchorfs::fs
