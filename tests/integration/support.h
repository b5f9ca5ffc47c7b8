// Helpers for the integration tests: running the anchorfs binary, temp trees, hashing, mounts.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/mount_table.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"

namespace anchorfs::itest {

inline const std::string kAnchorfs = ANCHORFS_BIN;
inline const std::string kSampleProject = ANCHORFS_SAMPLE_PROJECT;

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed
  std::string out;
  std::string err;
};

struct RunOptions {
  std::string input;                       // fed on stdin
  std::string cwd;                         // "" keeps the current directory
  std::map<std::string, std::string> env;  // added to the environment
  uid_t uid = 0;                           // run as this user when non-zero (we are root)
  int timeout_seconds = 120;               // killed after this (a hang is a failure)
};

RunOptions feeding(std::string input);
RunOptions as_user(uid_t uid);
RunOptions in_dir(std::string cwd, std::map<std::string, std::string> env = {});

ProcessResult run(const std::vector<std::string>& argv, const RunOptions& options = {});
ProcessResult anchorfs(const std::vector<std::string>& args, const RunOptions& options = {});

using test_support::make_dirs;
using test_support::read_file;
using test_support::read_file_if_readable;
using test_support::TempDir;
using test_support::write_file;
void copy_tree(const std::string& from, const std::string& to);

// Every entry below `root` (relative paths, sorted), without following symlinks.
struct TreeItem {
  std::string path;
  mode_t mode = 0;
};
std::vector<TreeItem> list_tree(const std::string& root);

// A digest of everything observable about a tree: paths, types, modes, sizes, mtimes, bytes,
// symlink targets.
std::string tree_fingerprint(const std::string& root);

using test_support::is_mounted;
using test_support::mount_fstype;

// Pids of running processes whose command line contains every one of `needles`.
std::vector<pid_t> find_processes(const std::vector<std::string>& needles);

using test_support::wait_until;

// Mounts REPO on MOUNTPOINT with `anchorfs mount` (extra args appended) and unmounts (lazily if
// needed) at destruction, so a failing test never leaves a mount behind.
class Mount {
 public:
  Mount(const std::string& repo, const std::string& mountpoint,
        const std::vector<std::string>& extra = {});
  ~Mount();
  Mount(const Mount&) = delete;
  Mount& operator=(const Mount&) = delete;
  const ProcessResult& result() const { return result_; }
  bool ok() const { return result_.exit_code == 0; }

 private:
  std::string mountpoint_;
  ProcessResult result_;
};

}  // namespace anchorfs::itest
