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
  std::ifstream mounts("/proc/self/mountinfo");
  std::string line;
  while (std::getline(mounts, line)) {
    if (line.find(" " + path_) != std::string::npos) return;
  }
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("open " + path + ": " + std::strerror(errno));
  std::string bytes;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw std::runtime_error("read " + path + ": " + std::strerror(error));
    }
    if (n == 0) break;
    bytes.append(chunk, static_cast<size_t>(n));
  }
  ::close(fd);
  return bytes;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

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

bool is_mounted(const std::string& mountpoint) {
  std::ifstream mounts("/proc/self/mountinfo");
  std::string line;
  while (std::getline(mounts, line)) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    if (point == mountpoint) return true;
  }
  return false;
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
