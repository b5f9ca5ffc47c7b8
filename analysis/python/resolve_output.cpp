// The resolver's output: the edges once the rounds are done, and its debug statistics.
#include <algorithm>

#include "analysis/python/dense_parts.h"
#include "analysis/python/resolve_resolver.h"
#include "analysis/python/resolve_trace.h"

namespace anchorfs::analysis::python::detail {

void Resolver::release_evaluation_state() {
  stmt_reads_ = ReadLists();
  reads_snapshot_.release();
  readers_ = ReaderIndex();
  stmt_round_.release();
  reads_.release();
  expr_slot_.release();
  object_vars_ = {};
  heap_.release_sites();
  object_shapes_ = {};
  values_.release_index();
  defining_class_ = {};
  instance_vars_of_ = {};
  std::vector<VarId>().swap(instance_vars_pool_);
  args_.release();
}

void Resolver::release_lookup_state() {
  scope_vars_ = {};
  scope_names_.release();
  classes_.release_orders();
}

void Resolver::trace_tables() const {
  size_t big = 0, mid = 0, total = 0;
  for (uint32_t v = 0; v < vars_.size(); ++v) {
    const size_t n = vars_.count(VarId{v});
    total += n;
    big += n >= kMaxSet ? 1 : 0;
    mid += n >= 16 ? 1 : 0;
  }
  resolve_trace("sets: full %zu, >=16 %zu, total size %zu", big, mid, total);
  resolve_trace("tables: call sites %zu scope vars %zu object vars %zu element vars %zu values %zu",
                calls_.size(), scope_vars_.size(), object_vars_.size(), heap_.element_vars(),
                values_.size());
  const auto mb = [](size_t bytes) { return static_cast<double>(bytes) / (1 << 20); };
  const auto vec = [](const auto& v) { return v.capacity() * sizeof(*v.begin()); };
  resolve_trace(
      "memory MB: vars %.1f reads %.1f readers %.1f stmt ticks %.1f expr slots %.1f call sites "
      "%.1f+%.1f "
      "scope vars %.1f object vars %.1f element vars %.1f values %.1f+%.1f "
      "class cache %.1f+%.1f strings %.1f",
      mb(vars_.bytes()), mb(stmt_reads_.bytes()), mb(readers_.bytes()), mb(vec(stmt_round_)),
      mb(vec(expr_slot_)), mb(calls_.bytes()), mb(calls_.more_bytes()), mb(scope_vars_.bytes()),
      mb(object_vars_.bytes()), mb(heap_.element_bytes()), mb(values_.bytes()),
      mb(values_.index_bytes()), mb(defining_class_.bytes()),
      mb(instance_vars_of_.bytes() + vec(instance_vars_pool_)),
      mb(vec(gstr_) + vec(strings_.by_id())));
}

FileId Resolver::file_of_entity(EntityIndex e) const {
  const auto it = std::upper_bound(files_.begin(), files_.end(), e,
                                   [](EntityIndex x, const FileRec& r) { return x < r.entity; });
  return FileId{static_cast<uint32_t>(it - files_.begin()) - 1};
}

void Resolver::emit_edges() {
  for (const ScopeId g : scopes_.ids()) {
    for (uint32_t b : classes_.bases(raw(g))) {
      out_.push_back({entity_of(g), entity_of(ScopeId{b}), Relation::Inherits});
    }
  }
  // `from m import name`: the import reaches the file defining what `name` turned out to be.
  for (const FromImport& fi : from_imports_) {
    bool found = false;
    for (ValueId v : vars_.get(fi.var)) {
      const Value val = values_[v];
      FileId target = kNoFile;
      if (val.kind == VK::Class || val.kind == VK::Function) target = scopes_[val.scope()].file;
      if (val.kind == VK::Module) target = file_of(val.module());
      if (target == kNoFile) continue;
      found = true;
      if (target != fi.file) import_edges_.insert(pack(fi.file, target));
    }
    if (!found && fi.from_file != fi.file) import_edges_.insert(pack(fi.file, fi.from_file));
  }
  for (uint64_t k : import_edges_) {
    const FileId from{static_cast<uint32_t>(k >> 32)}, to{static_cast<uint32_t>(k)};
    out_.push_back({files_[from].entity, files_[to].entity, Relation::Imports});
  }
  // Test doubles passed into product code resolve its calls into test files; such an edge says
  // nothing about the product, so a file that does not import a test file calls nothing in it.
  IdVector<FileId, uint8_t> test_file(files_.size(), 0);
  for (const FileId f : files_.ids()) test_file[f] = is_test_path(input_.files[raw(f)].path);
  const auto through_test_double = [&](uint64_t call) {
    // Most callees are product code: the caller's file is looked up only for the others.
    const FileId callee = file_of_entity(static_cast<EntityIndex>(call));
    if (test_file[callee] == 0) return false;
    const FileId caller = file_of_entity(static_cast<EntityIndex>(call >> 32));
    return test_file[caller] == 0 && !import_edges_.contains(pack(caller, callee));
  };
  std::vector<uint64_t> calls = calls_.edges();
  std::erase_if(calls, through_test_double);
  for (uint64_t k : calls) {
    out_.push_back(
        {static_cast<EntityIndex>(k >> 32), static_cast<EntityIndex>(k), Relation::Calls});
  }
}

}  // namespace anchorfs::analysis::python::detail
