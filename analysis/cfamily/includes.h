// Which file of the repository an `#include` names: compile_commands.json's include paths when
// the repository has one, else the conventions real projects follow.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace anchorfs::analysis::cfamily {

inline constexpr std::string_view kCompileCommands = "compile_commands.json";

class IncludeResolver {
 public:
  // `paths` are the repository-relative paths of the language's files (index = file number);
  // `root` the repository, where compile_commands.json is read when present.
  IncludeResolver(std::string_view root, const std::vector<std::string_view>& paths);

  struct Found {
    std::optional<uint32_t> file;  // nullopt when no file of the repository is evidently meant
    bool tie = false;  // several were equally likely (another context may tell them apart)
  };

  // The file `spec` names when written in `from` (quoted unless `system`). Among include
  // directories the one nearest to `context` wins (the translation unit being compiled, which
  // picks arch/x86/include/ for a header it includes); "" means `from` itself.
  Found resolve(uint32_t from, std::string_view spec, bool system,
                std::string_view context = {}) const;

  const std::vector<std::string>& include_dirs() const { return include_dirs_; }

  // The include directories `root`'s compile_commands.json names (repository-relative, "" for
  // the root, each with a '/'), sorted; empty without a readable database.
  static std::vector<std::string> compile_command_dirs(std::string_view root);

 private:
  bool is_root(std::string_view prefix) const;

  const std::vector<std::string_view>& paths_;
  // The root directory's own name with a '/' ("boost/" for /usr/include/boost): the library's
  // files include each other as <boost/...>, the root's parent being their include directory.
  std::string root_name_;
  std::unordered_map<std::string_view, uint32_t> by_path_;
  std::unordered_map<std::string_view, std::vector<uint32_t>> by_basename_;
  std::vector<std::string> include_dirs_;  // repository-relative, "" for the root, with a '/'
};

}  // namespace anchorfs::analysis::cfamily
