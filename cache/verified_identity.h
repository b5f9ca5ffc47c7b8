// The data file's identity as a verified store last left it: opening an unchanged store skips
// its page walk.
#pragma once

#include <optional>
#include <string>

namespace anchorfs::cache {

// Beside the data file; "verified.*" are its temporary names while it is replaced.
inline constexpr const char* kVerifiedFile = "verified";

// What identifies a data file's state: device, inode, size, and modification and change times
// (nanoseconds). Any write through the filesystem moves the change time, which no user can set
// back, and replacing the file changes the inode. nullopt when it cannot be read.
std::optional<std::string> identity_of_fd(int fd);
std::optional<std::string> identity_of_path(const std::string& path);

// The identity last recorded in `dir`, if any.
std::optional<std::string> recorded_identity(const std::string& dir);
// Records `identity` (atomically: a temporary file renamed over the record; best effort, a
// failure only costs the next open its walk).
void record_identity(const std::string& dir, const std::string& identity);
void forget_identity(const std::string& dir);

}  // namespace anchorfs::cache
