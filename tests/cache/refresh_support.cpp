// Scratch trees and served bytes for the refresh tests.
#include "refresh_support.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace anchorfs::refresh::testing {

void put(const std::string& root, const std::string& relative, const std::string& bytes) {
  const std::filesystem::path path = std::filesystem::path(root) / relative;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

void ScratchTree::SetUp() {
  root_ = std::filesystem::canonical(dir_.path()).string();
}

std::string served_bytes(const fs::Snapshot& snapshot, const std::string& path) {
  const std::optional<uint32_t> index = snapshot.find(path);
  if (!index) {
    return "<missing>";
  }
  const int fd = ::open((snapshot.root() + "/" + path).c_str(), O_RDONLY | O_CLOEXEC);
  std::string bytes(snapshot.view_size(*index), '\0');
  const bool ok = snapshot.layout(*index).empty() ? ::pread(fd, bytes.data(), bytes.size(), 0) ==
                                                        static_cast<ssize_t>(bytes.size())
                                                  : snapshot.layout(*index).read(fd, 0, bytes);
  ::close(fd);
  return ok ? bytes : "<unreadable>";
}

}  // namespace anchorfs::refresh::testing
