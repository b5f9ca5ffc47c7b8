// Shared helpers for the refresh tests: a scratch tree and bounded waiting.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>

#include "fs/snapshot.h"

namespace anchorfs::refresh::testing {

// Writes `bytes` to root/relative, creating parent directories.
void put(const std::string& root, const std::string& relative, const std::string& bytes);

// Polls `condition` until it holds or `timeout` passes; returns its last value.
bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = std::chrono::seconds(10));

// The bytes a reader of the mount would see for `path` in `snapshot` ("<missing>" when it is
// not there, "<unreadable>" when reading fails).
std::string served_bytes(const fs::Snapshot& snapshot, const std::string& path);

class ScratchTree : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::string root_;
};

}  // namespace anchorfs::refresh::testing
