// Resolving every import statement of a repository's Python files once, for all readers.
#include "analysis/python/imports.h"

#include <algorithm>
#include <optional>

namespace anchorfs::analysis::python {

ImportTable::ImportTable(const ResolverInput& input, const ModuleIndex& modules)
    : modules_(modules) {
  const size_t files = input.files.size();
  file_begin_.reserve(files + 1);
  has_all_.assign(files, 0);
  all_.resize(files);
  for (uint32_t f = 0; f < files; ++f) {
    file_begin_.push_back(static_cast<uint32_t>(imports_.size()));
    const FileFacts& facts = *input.files[f].facts;
    for (uint32_t s = 0; s < facts.stmts.size(); ++s) {
      const StmtKind kind = facts.stmts[s].kind;
      if (kind == StmtKind::ImportModule || kind == StmtKind::ImportFrom ||
          kind == StmtKind::ImportStar) {
        imports_.push_back(resolve(f, s, facts));
      }
    }
    if (facts.has_all) {
      has_all_[f] = 1;
      for (uint32_t name : facts.all_names) all_[f].push_back(facts.strings[name]);
      std::sort(all_[f].begin(), all_[f].end());
    }
  }
  file_begin_.push_back(static_cast<uint32_t>(imports_.size()));
}

ResolvedImport ImportTable::resolve(uint32_t file, uint32_t stmt, const FileFacts& facts) const {
  const Stmt& st = facts.stmts[stmt];
  ResolvedImport out;
  out.stmt = stmt;
  std::optional<uint32_t> top;
  const auto module = modules_.resolve(file, facts.strings[st.a], &top);
  // A spec naming no repository module binds nothing known, not even a top package that is in
  // the repository: what the statement imports is code this analysis cannot see (precision first).
  if (!module) return out;
  out.module = *module;
  switch (st.kind) {
    case StmtKind::ImportModule:
      if (const auto bound = st.b == 1 ? top : module) out.bound = *bound;
      break;
    case StmtKind::ImportFrom:
      if (const auto sub = modules_.submodule(*module, facts.strings[st.b])) out.bound = *sub;
      out.from_file = modules_.modules()[*module].file;
      break;
    default:  // ImportStar
      out.from_file = modules_.modules()[*module].file;
      break;
  }
  return out;
}

std::span<const ResolvedImport> ImportTable::of_file(uint32_t file) const {
  return std::span<const ResolvedImport>(imports_).subspan(
      file_begin_[file], file_begin_[file + 1] - file_begin_[file]);
}

const ResolvedImport* ImportTable::statement(uint32_t file, uint32_t stmt) const {
  const std::span<const ResolvedImport> imports = of_file(file);
  const auto it = std::lower_bound(imports.begin(), imports.end(), stmt,
                                   [](const ResolvedImport& i, uint32_t s) { return i.stmt < s; });
  return it != imports.end() && it->stmt == stmt ? &*it : nullptr;
}

bool ImportTable::star_exports(uint32_t file, std::string_view name) const {
  if (has_all_[file] == 0) return !name.starts_with('_');
  return std::binary_search(all_[file].begin(), all_[file].end(), name);
}

}  // namespace anchorfs::analysis::python
