// Canonical paths and containment checks for the CLI's argument validation.
#include "cli/paths.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "cli/cli_error.h"

namespace anchorfs::cli {

std::string canonical(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) throw CliError(path, errno_text(errno));
  std::string result = real;
  std::free(real);
  return result;
}

std::string canonical_keep_last(const std::string& path) {
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  if (trimmed.empty()) throw CliError(path, "empty path");
  const size_t slash = trimmed.rfind('/');
  std::string dir;
  std::string last;
  if (slash == std::string::npos) {
    dir = ".";
    last = trimmed;
  } else {
    dir = slash == 0 ? "/" : trimmed.substr(0, slash);
    last = trimmed.substr(slash + 1);
  }
  if (last.empty()) return "/";  // the root itself
  if (last == "." || last == "..") return canonical(trimmed);
  const std::string parent = canonical(dir);
  return parent == "/" ? "/" + last : parent + "/" + last;
}

bool is_within(const std::string& inner, const std::string& outer) {
  if (outer == "/") return true;
  return inner == outer ||
         (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
          inner[outer.size()] == '/');
}

}  // namespace anchorfs::cli
