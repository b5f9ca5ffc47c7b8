// Whole-file reads and writes for tests, with the errno in every failure.
#pragma once

#include <string>

namespace anchorfs::test_support {

// The bytes of `path`, read with read(2) (as a tool would through a mount); throws
// std::runtime_error naming the path and the error.
std::string read_file(const std::string& path);
// The same, or "" when the file cannot be read: for polling a mount, where a file changed on disk
// answers EIO until the refresh that serves its new version (the mount never serves a mix).
std::string read_file_if_readable(const std::string& path);
// Replaces `path` with `bytes`, creating missing parent directories; throws on error.
void write_file(const std::string& path, const std::string& bytes);
void make_dirs(const std::string& path);

}  // namespace anchorfs::test_support
