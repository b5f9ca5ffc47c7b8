// The resolver's output: the edges once the rounds are done, and its debug statistics.
#include <algorithm>

#include "analysis/python/dense_parts.h"
#include "analysis/python/resolve_resolver.h"
#include "analysis/python/resolve_trace.h"

namespace anchorfs::analysis::python::detail {

void Resolver::release_evaluation_state() {
  stmt_reads_ = ReadLists();
  std::vector<uint32_t>().swap(stmt_round_);
  std::vector<uint32_t>().swap(reads_);
  std::vector<uint32_t>().swap(expr_slot_);
  scope_vars_ = {};
  object_vars_ = {};
  element_vars_ = {};
  key_vars_ = {};
  std::unordered_map<uint32_t, std::vector<uint32_t>>().swap(site_key_vars_);
  object_shapes_ = {};
  value_ids_ = {};
  defining_class_ = {};
  instance_vars_of_ = {};
  std::vector<uint32_t>().swap(instance_vars_pool_);
  arg_storage_.clear();
  classes_.release_orders();
}

void Resolver::trace_tables() const {
  size_t big = 0, mid = 0, total = 0;
  for (uint32_t v = 0; v < vars_.size(); ++v) {
    const size_t n = vars_.count(v);
    total += n;
    big += n >= kMaxSet ? 1 : 0;
    mid += n >= 16 ? 1 : 0;
  }
  resolve_trace("sets: full %zu, >=16 %zu, total size %zu", big, mid, total);
  resolve_trace("tables: call sites %zu scope vars %zu object vars %zu element vars %zu values %zu",
                site_calls_.size(), scope_vars_.size(), object_vars_.size(), element_vars_.size(),
                values_.size());
  const auto mb = [](size_t bytes) { return static_cast<double>(bytes) / (1 << 20); };
  const auto vec = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  size_t more = 0;
  for (const auto& m : more_callees_) more += vec(m);
  resolve_trace(
      "memory MB: vars %.1f reads %.1f stmt ticks %.1f expr slots %.1f call sites %.1f+%.1f "
      "scope vars %.1f object vars %.1f element vars %.1f values %.1f+%.1f "
      "class cache %.1f+%.1f strings %.1f",
      mb(vars_.bytes()), mb(stmt_reads_.bytes()), mb(vec(stmt_round_)), mb(vec(expr_slot_)),
      mb(vec(site_calls_)), mb(more), mb(scope_vars_.bytes()), mb(object_vars_.bytes()),
      mb(element_vars_.bytes()), mb(vec(values_)), mb(value_ids_.bytes()),
      mb(defining_class_.bytes()), mb(instance_vars_of_.bytes() + vec(instance_vars_pool_)),
      mb(vec(gstr_) + vec(strings_by_id_)));
}

uint32_t Resolver::file_of_entity(EntityIndex e) const {
  const auto it = std::upper_bound(files_.begin(), files_.end(), e,
                                   [](EntityIndex x, const FileRec& r) { return x < r.entity; });
  return static_cast<uint32_t>(it - files_.begin()) - 1;
}

void Resolver::emit_edges() {
  for (uint32_t g = 0; g < scopes_.size(); ++g) {
    const ScopeRec& s = scopes_[g];
    if (s.parent != kNone) out_.push_back({entity_of(s.parent), entity_of(g), Relation::Contains});
    for (uint32_t b : classes_.bases(g))
      out_.push_back({entity_of(g), entity_of(b), Relation::Inherits});
  }
  // `from m import name`: the import reaches the file defining what `name` turned out to be.
  for (const FromImport& fi : from_imports_) {
    bool found = false;
    for (uint32_t v : vars_.get(fi.var)) {
      const Value val = values_[v];
      uint32_t target = kNone;
      if (val.kind == VK::Class || val.kind == VK::Function) target = scopes_[val.a].file;
      if (val.kind == VK::Module) target = modules_.modules()[val.a].file;
      if (target == kNone) continue;
      found = true;
      if (target != fi.file) import_edges_.insert(key(fi.file, target));
    }
    if (!found && fi.from_file != fi.file) import_edges_.insert(key(fi.file, fi.from_file));
  }
  for (uint64_t k : import_edges_) {
    out_.push_back({files_[k >> 32].entity, files_[k & 0xffffffffu].entity, Relation::Imports});
  }
  // Test doubles passed into product code resolve its calls into test files; such an edge says
  // nothing about the product, so a file that does not import a test file calls nothing in it.
  std::vector<uint8_t> test_file(files_.size());
  for (uint32_t f = 0; f < files_.size(); ++f) test_file[f] = is_test_path(input_.files[f].path);
  const auto through_test_double = [&](uint64_t call) {
    const uint32_t caller = file_of_entity(static_cast<EntityIndex>(call >> 32));
    const uint32_t callee = file_of_entity(static_cast<EntityIndex>(call));
    return test_file[callee] != 0 && test_file[caller] == 0 &&
           !import_edges_.contains(key(caller, callee));
  };
  std::vector<uint64_t> calls(call_edges_.begin(), call_edges_.end());
  for (const SiteCalls& site : site_calls_) {
    if (site.more == kNone) {
      calls.push_back(key(site.caller, site.callee));
      continue;
    }
    const std::vector<uint32_t>& callees = more_callees_[site.more];
    if (callees.size() > kMaxCalleesPerSite) continue;
    for (uint32_t callee : callees) calls.push_back(key(site.caller, callee));
  }
  std::vector<SiteCalls>().swap(site_calls_);
  std::sort(calls.begin(), calls.end());
  calls.erase(std::unique(calls.begin(), calls.end()), calls.end());
  std::erase_if(calls, through_test_double);
  for (uint64_t k : calls) {
    out_.push_back(
        {static_cast<EntityIndex>(k >> 32), static_cast<EntityIndex>(k), Relation::Calls});
  }
}

}  // namespace anchorfs::analysis::python::detail
