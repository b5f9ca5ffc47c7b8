// A private temporary directory for a test, removed with everything below it (mounts detached).
#pragma once

#include <string>

namespace anchorfs::test_support {

class TempDir {
 public:
  // $TMPDIR (or /tmp)/PREFIX-XXXXXX.
  explicit TempDir(const std::string& prefix = "anchorfs-test");
  // Detaches any mount left below (a failed test), deepest first, so nothing is ever deleted
  // through a mount; then removes the tree, read-only directories included.
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& relative) const { return path_ + "/" + relative; }

 private:
  std::string path_;
};

}  // namespace anchorfs::test_support
