// Whole-file reads and full writes with CLI-style errors.
#pragma once

#include <string>
#include <string_view>

namespace anchorfs::cli {

// The bytes of a regular file, read without following a final symlink and without blocking on
// FIFOs. Throws CliError naming `path`.
std::string read_regular_file(const std::string& path);

// Everything from a descriptor until end of file (stdin). Throws CliError naming `what`.
std::string read_all(int fd, const std::string& what);

// Writes all of `data` to `fd`, retrying short writes. Throws CliError naming `what`.
void write_all(int fd, std::string_view data, const std::string& what);

}  // namespace anchorfs::cli
