// What each import statement of a repository's Python files names, resolved once per analysis.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "analysis/python/facts.h"
#include "analysis/python/modules.h"

namespace anchorfs::analysis::python {

// One `import`, `from … import` or `from … import *` statement and what it refers to.
struct ResolvedImport {
  uint32_t stmt = kNone;    // index into the file's FileFacts::stmts
  uint32_t module = kNone;  // the repository module the statement's spec names; kNone: none does
  // The module the statement binds to its name, if it binds one: `import a.b` binds a,
  // `import a.b as x` a.b, `from m import sub` m.sub when m has such a submodule.
  uint32_t bound = kNone;
  // `from m import …`: the file whose module-level names are imported (kNone for `import m`, a
  // namespace package or an unresolved m).
  uint32_t from_file = kNone;
};

// The name-resolution service of the Python front end: the one place that decides what an
// import means, read by the call graph (resolve*.cpp) and the dense relations (dense_symbols.cpp)
// so that they never disagree about it. Module names and relative specs come from ModuleIndex;
// what a statement binds, and which names `from m import *` brings in (`__all__`), from here.
// Following a `from x import y` chain to the entity defining y is left to each reader: the call
// graph follows it through its points-to variables, the dense relations by looking names up,
// both hop by hop through this table.
class ImportTable {
 public:
  ImportTable(const ResolverInput& input, const ModuleIndex& modules);

  const ModuleIndex& modules() const { return modules_; }
  // The import statements of `file`, in statement order.
  std::span<const ResolvedImport> of_file(uint32_t file) const;
  // Import statement `stmt` of `file`; nullptr when that statement is no import.
  const ResolvedImport* statement(uint32_t file, uint32_t stmt) const;
  // Whether `from <file's module> import *` binds module-level name `name` of `file`: the names a
  // literal `__all__` lists, or else every name not starting with an underscore.
  bool star_exports(uint32_t file, std::string_view name) const;

 private:
  ResolvedImport resolve(uint32_t file, uint32_t stmt, const FileFacts& facts) const;

  const ModuleIndex& modules_;
  std::vector<ResolvedImport> imports_;  // every file's in turn, each in statement order
  std::vector<uint32_t> file_begin_;     // file f's are [file_begin_[f], file_begin_[f + 1])
  std::vector<uint8_t> has_all_;         // per file: it has a literal __all__
  std::vector<std::vector<std::string_view>> all_;  // per file: that __all__, sorted
};

}  // namespace anchorfs::analysis::python
