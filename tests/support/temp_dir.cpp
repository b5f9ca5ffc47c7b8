// TempDir: mkdtemp, and a removal that never reaches through a mount.
#include "tests/support/temp_dir.h"

#include <sys/mount.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "tests/support/mount_table.h"

namespace anchorfs::test_support {

TempDir::TempDir(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/" + prefix + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  for (const std::string& point : mounts_below(path_)) ::umount2(point.c_str(), MNT_DETACH);
  if (!mounts_below(path_).empty()) return;  // leaking beats deleting through a live mount
  namespace fsys = std::filesystem;
  std::error_code ignored;
  for (auto it = fsys::recursive_directory_iterator(path_, ignored);
       it != fsys::recursive_directory_iterator(); it.increment(ignored)) {
    if (it->is_directory(ignored) && !it->is_symlink(ignored)) {
      fsys::permissions(it->path(), fsys::perms::owner_all, fsys::perm_options::add, ignored);
    }
  }
  fsys::permissions(path_, fsys::perms::owner_all, fsys::perm_options::add, ignored);
  fsys::remove_all(path_, ignored);
}

}  // namespace anchorfs::test_support
