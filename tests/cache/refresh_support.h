// Shared helpers for the refresh tests: a scratch tree and bounded waiting.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>

namespace anchorfs::refresh::testing {

// Writes `bytes` to root/relative, creating parent directories.
void put(const std::string& root, const std::string& relative, const std::string& bytes);

// Polls `condition` until it holds or `timeout` passes; returns its last value.
bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = std::chrono::seconds(10));

class ScratchTree : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::string root_;
};

}  // namespace anchorfs::refresh::testing
