// Whole-tree checks shared by the mount tests: rendered bytes, strip round trip, AST equality.
#pragma once

#include <string>
#include <vector>

namespace anchorfs::itest {

// Regular files below `repo` (relative paths), symlinks and directories excluded.
std::vector<std::string> regular_files(const std::string& repo);

// Runs one python3 over every `.py` pair (original under `repo`, view under `mount`) and
// compares ast.dump() of both; files whose original does not parse are skipped. Returns "" on
// success, else python's report. `compared` receives how many files were compared.
std::string ast_mismatches(const std::string& repo, const std::string& mount,
                           const std::vector<std::string>& files, size_t& compared);

}  // namespace anchorfs::itest
