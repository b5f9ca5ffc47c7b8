// Shared helpers for the refresh tests: a scratch tree and what a snapshot serves (tests wait
// for a refresh with Refresher::wait_until_idle, never by polling).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "fs/snapshot.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::refresh::testing {

// Writes `bytes` to root/relative, creating parent directories.
void put(const std::string& root, const std::string& relative, const std::string& bytes);

// The bytes a reader of the mount would see for `path` in `snapshot` ("<missing>" when it is
// not there, "<unreadable>" when reading fails).
std::string served_bytes(const fs::Snapshot& snapshot, const std::string& path);

// A test with a scratch directory of its own (removed after it, mounts below it detached).
class ScratchTree : public ::testing::Test {
 protected:
  void SetUp() override;
  test_support::TempDir dir_{"anchorfs-refresh"};
  std::string root_;  // its canonical path
};

}  // namespace anchorfs::refresh::testing
