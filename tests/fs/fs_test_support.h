// Helpers for the fs suite: temp trees, plans by hand, a reference apply, and a live mount.
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "analysis/source_tree.h"
#include "fs/server.h"
#include "fs/snapshot.h"
#include "render/tag_plan.h"
#include "tests/support/files.h"
#include "tests/support/mount_table.h"
#include "tests/support/temp_dir.h"
#include "tests/support/wait.h"

namespace anchorfs::fs::test {

using test_support::is_mounted;
using test_support::read_file;
using test_support::TempDir;
using test_support::wait_until;
using test_support::write_file;

// The tagged view of `original`, computed independently of fs/ (insertions are sorted).
std::string reference_apply(const std::string& original, const render::TagPlan& plan);

// Plans by path, convenient to write by hand: {path, {{offset, text}, ...}}.
using PlanSpec = std::map<std::string, std::vector<std::pair<uint64_t, std::string>>>;
std::vector<std::pair<std::string, render::TagPlan>> to_plans(const PlanSpec& spec);
render::TagPlan to_plan(const std::vector<std::pair<uint64_t, std::string>>& insertions);

// A Server mounted on a fresh mountpoint and run on a background thread. The destructor stops
// it and, should that fail, unmounts lazily so no test leaves a mount behind.
class LiveMount {
 public:
  LiveMount(std::shared_ptr<const Snapshot> snapshot, const std::string& mountpoint,
            ServerOptions options = {});
  ~LiveMount();
  LiveMount(const LiveMount&) = delete;
  LiveMount& operator=(const LiveMount&) = delete;

  Server& server() { return *server_; }
  const std::string& mountpoint() const { return mountpoint_; }
  std::string operator/(const std::string& relative) const { return mountpoint_ + "/" + relative; }
  // Stops the server and waits for run() to return; returns its result.
  int stop();

 private:
  std::string mountpoint_;
  std::unique_ptr<Server> server_;
  std::thread thread_;
  int result_ = -1;
  bool stopped_ = false;
};

}  // namespace anchorfs::fs::test
