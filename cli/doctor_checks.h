// What `anchorfs doctor` checks: everything a mount needs from the machine, each finding with
// the fix for its problem.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cli/cache_args.h"

namespace anchorfs::cli {

struct Finding {
  std::string subject;  // "/dev/fuse", "fusermount3", "inotify", ...
  bool ok = true;
  std::string detail;  // what was found
  std::string fix;     // what to do about it (empty when ok)
};

inline Finding passed(const char* subject, std::string detail) {
  return {subject, true, std::move(detail), ""};
}

inline Finding failed(const char* subject, std::string detail, std::string fix) {
  return {subject, false, std::move(detail), std::move(fix)};
}

struct DoctorRequest {
  std::string mountpoint;                 // "" = none given
  std::string repo;                       // "" = the source of an anchorfs mount at mountpoint
  std::vector<std::string> fuse_options;  // as `mount -o` would get them
  CacheArgs cache;
};

Finding check_fuse_device();
Finding check_fusermount();
Finding check_allow_other(const std::vector<std::string>& fuse_options);
Finding check_inotify(const std::string& repo);
Finding check_cache(const CacheArgs& cache, const std::string& repo);
Finding check_remote_cache(const CacheArgs& cache);
Finding check_mountpoint(const std::string& mountpoint);

// The second line of a mount failure that doctor explains.
std::string doctor_hint(const std::string& mountpoint);

}  // namespace anchorfs::cli
