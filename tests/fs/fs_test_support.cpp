// Temp trees, hand-written plans, a reference apply and a self-cleaning live mount for fs tests.
#include "fs_test_support.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace anchorfs::fs::test {

std::string reference_apply(const std::string& original, const render::TagPlan& plan) {
  std::string out;
  size_t copied = 0;
  for (const render::Insertion& insertion : plan.insertions) {
    out.append(original, copied, insertion.offset - copied);
    out += insertion.text;
    copied = insertion.offset;
  }
  out.append(original, copied);
  return out;
}

render::TagPlan to_plan(const std::vector<std::pair<uint64_t, std::string>>& insertions) {
  render::TagPlan plan;
  for (const auto& [offset, text] : insertions) plan.insertions.push_back({offset, text});
  return plan;
}

std::vector<std::pair<std::string, render::TagPlan>> to_plans(const PlanSpec& spec) {
  std::vector<std::pair<std::string, render::TagPlan>> plans;
  for (const auto& [path, insertions] : spec) plans.emplace_back(path, to_plan(insertions));
  return plans;
}

LiveMount::LiveMount(std::shared_ptr<const Snapshot> snapshot, const std::string& mountpoint,
                     ServerOptions options)
    : mountpoint_(mountpoint) {
  options.mountpoint = mountpoint;
  server_ = std::make_unique<Server>(std::move(snapshot), std::move(options));
  server_->mount();
  thread_ = std::thread([this] { result_ = server_->run(); });
}

int LiveMount::stop() {
  if (!stopped_) {
    stopped_ = true;
    server_->stop();
    thread_.join();
  }
  return result_;
}

LiveMount::~LiveMount() {
  stop();
  server_.reset();
  if (is_mounted(mountpoint_)) ::umount2(mountpoint_.c_str(), MNT_DETACH);
}

}  // namespace anchorfs::fs::test
