// The error type every command throws; main() prints it as "anchorfs: <what>: <why>".
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace anchorfs::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

class CliError : public std::runtime_error {
 public:
  CliError(const std::string& what, const std::string& why, int exit_code = kExitRuntime)
      : std::runtime_error(what.empty() ? why : what + ": " + why), exit_code_(exit_code) {}

  int exit_code() const { return exit_code_; }

  // A second line, "anchorfs: <hint>", pointing to where the problem is explained ("" = none).
  const std::string& hint() const { return hint_; }
  CliError&& with_hint(std::string hint) && {
    hint_ = std::move(hint);
    return std::move(*this);
  }

 private:
  int exit_code_;
  std::string hint_;
};

// "<message>" for `errno` (strerror), for building CliError reasons.
std::string errno_text(int error);

}  // namespace anchorfs::cli
