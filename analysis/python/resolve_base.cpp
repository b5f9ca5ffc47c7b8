// The resolution's base for appended-unit refreshes: what calling each module-level name with
// empty arguments does, read off the final state with the ticks that say since when.
#include <algorithm>

#include "analysis/python/resolve_resolver.h"

namespace anchorfs::analysis::python {

const NameCall* FileBase::find(std::string_view name) const {
  for (const NameCall& call : names) {
    if (call.name == name) return &call;
  }
  return nullptr;
}

namespace detail {
namespace {

// Classes whose bases are followed before giving up (a cycle or a deep chain is refused).
constexpr size_t kMaxAncestors = 4096;

void merge_call(NameCall& into, const NameCall& from) {
  into.tick = std::max(into.tick, from.tick);
  into.values = std::max(into.values, from.values);
  into.callable = into.callable && from.callable;
  into.callees.insert(into.callees.end(), from.callees.begin(), from.callees.end());
}

}  // namespace

// call_values' Class case with empty arguments: the instance (which must exist), the `__init__`
// the MRO finds and each of its functions' receiver flowing into `self`, which must be a no-op.
// Every class reachable through bases counts: their shapes say when an MRO last changed (and,
// if some store spells `__init__`, when a class body gained a name).
NameCall Resolver::class_call(ScopeId cls, ClassCalls& class_calls) {
  NameCall call;
  const ValueId instance = values_.existing_instance(cls);
  if (instance == kNoValue) {
    call.callable = false;
    return call;
  }
  call.values = raw(instance) + 1;
  const bool init_stored = (name_roles_[s_init_] & kStored) != 0;
  // A mark per class, not a search of `seen`: a chain of thousands of bases (hostile input)
  // made each walk quadratic, and export_base walks from every class.
  const uint32_t walk = ++class_calls.walk;
  std::vector<uint32_t>& mark = class_calls.walk_mark;
  std::vector<uint32_t> seen{raw(cls)};
  mark[raw(cls)] = walk;
  for (size_t i = 0; i < seen.size(); ++i) {
    if (seen.size() > kMaxAncestors) {
      call.callable = false;
      return call;
    }
    const ScopeId k{seen[i]};
    if (scope_shape_[k] != kNoVar) call.tick = std::max(call.tick, vars_.changed(scope_shape_[k]));
    // Only a store spelled `__init__` can give a class that name after setup.
    if (init_stored && attribute_shape_[k] != kNoVar) {
      call.tick = std::max(call.tick, vars_.changed(attribute_shape_[k]));
    }
    for (const uint32_t b : classes_.bases(seen[i])) {
      if (mark[b] != walk) {
        mark[b] = walk;
        seen.push_back(b);
      }
    }
  }
  const std::vector<uint32_t>& order = mro(cls);
  const size_t at = first_binding(order, s_init_, 0);
  bool called_init = false;
  if (at < order.size()) {
    const VarId init = find_var(ScopeId{order[at]}, s_init_);
    call.tick = std::max(call.tick, vars_.changed(init));
    for (const ValueId m : vars_.get(init)) {
      if (values_[m].kind != VK::Function) continue;
      const ScopeId function = values_[m].scope();
      called_init = true;
      call.callees.push_back({raw(scopes_[function].file), scopes_[function].local});
      const ParamSummary& summary = param_summary_[function];
      if (summary.positional_count == 0) continue;
      const VarId self = positional_vars_[summary.positional_begin];
      call.tick = std::max(call.tick, vars_.changed(self));
      const Set selves = vars_.get(self);
      if (!vars_.poisoned(self) &&
          std::find(selves.begin(), selves.end(), instance) == selves.end()) {
        call.callable = false;
      }
    }
  }
  if (!called_init) call.callees.push_back({raw(scopes_[cls].file), scopes_[cls].local});
  return call;
}

void Resolver::add_call_of(ValueId v, NameCall& call, ClassCalls& class_calls) {
  const Value val = values_[v];
  switch (val.kind) {
    case VK::Function: {
      const ScopeId g = val.scope();
      if ((scopes_[g].flags & kGenerator) != 0 || returned_param_[g] != kNone) {
        call.callable = false;
      } else {
        call.callees.push_back({raw(scopes_[g].file), scopes_[g].local});
      }
      break;
    }
    case VK::Class: {
      const uint32_t c = raw(val.scope());
      if (class_calls.done[c] == 0) {
        class_calls.calls[c] = class_call(val.scope(), class_calls);
        class_calls.done[c] = 1;
      }
      merge_call(call, class_calls.calls[c]);
      break;
    }
    case VK::Bound:
    case VK::Instance:
    case VK::Wrapped:
    case VK::Builtin:
      call.callable = false;
      break;
    default:  // not callable: call_values passes over it
      break;
  }
}

void Resolver::export_base() {
  ResolutionBase& base = *base_;
  base.files.assign(files_.size(), {});
  ClassCalls class_calls{.calls = std::vector<NameCall>(scopes_.size()),
                         .done = std::vector<uint8_t>(scopes_.size(), 0),
                         .walk_mark = std::vector<uint32_t>(scopes_.size(), 0)};
  for (const FileId f : files_.ids()) {
    FileBase& file = base.files[raw(f)];
    file.end_tick = first_round_end_[f].tick;
    file.end_values = first_round_end_[f].values;
    const ScopeId module = module_scope(f);
    file.names.reserve(module_names_[f].size());
    const std::vector<NameId>& names = module_names_[f];
    for (size_t i = 0; i < names.size(); ++i) {
      // Each lookup is a cache miss in the 8 MB scope-variable table (most of export_base's
      // time): the slot of the name 8 ahead is asked for first (a hint: it changes nothing).
      constexpr size_t kAhead = 8;
      if (i + kAhead < names.size()) scope_vars_.prefetch(module, names[i + kAhead]);
      const NameId name = names[i];
      const VarId var = find_var(module, name);
      if (var == kNoVar) continue;
      NameCall call;
      call.name = std::string(strings_.by_id()[name]);
      call.late = i >= setup_module_names_[f];
      call.callable = !call.late;
      call.tick = vars_.changed(var);
      for (const ValueId v : vars_.get(var)) add_call_of(v, call, class_calls);
      std::sort(call.callees.begin(), call.callees.end());
      call.callees.erase(std::unique(call.callees.begin(), call.callees.end()), call.callees.end());
      file.names.push_back(std::move(call));
    }
  }
}

}  // namespace detail
}  // namespace anchorfs::analysis::python
