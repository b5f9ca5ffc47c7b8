// The fixture repository of the integration tests: the sample project plus awkward files.
#pragma once

#include <string>

namespace anchorfs::itest {

// Creates `dir` holding a copy of examples/sample_project plus: CRLF, BOM, no final newline,
// tab-indented, decorated, shebang+encoding, empty and syntax-error Python files; non-Python
// files; a file and a directory symlink; dotfile directories.
void build_fixture_repo(const std::string& dir);

}  // namespace anchorfs::itest
