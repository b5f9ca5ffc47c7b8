// The abstract heap: allocation sites and the variables of what containers made there hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/python/resolve_flat_map.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/python/resolve_values.h"
#include "analysis/python/resolve_var_sets.h"

namespace anchorfs::analysis::python::detail {

// A container value is its allocation site (SiteId): a literal's expression, a builtin call that
// builds a list, or one of the sites past the expressions below. Per site the heap holds one
// elements variable, the variables of a tuple literal's (or slice's) positions right after it,
// and for a dict display one variable per literal key. Variables come from the resolver's
// VarSets in the order they are asked for (their numbering is part of the schedule).
// The key of a dict display's keys variable in key_vars_ (no string id is this large).
inline constexpr NameId kDisplayKeys{UINT32_MAX - 2};

class Heap {
 public:
  Heap(VarSets& vars, const Values& values) : vars_(vars), values_(values) {}

  // Sites past the expressions: their number fixes where those begin.
  void set_expression_count(uint32_t count) { expr_count_ = count; }
  // Containers that no literal creates: items() views, and the tuple/dict a function's
  // *args/**kwargs parameter receives.
  SiteId items_site(SiteId site) const { return SiteId{expr_count_ + raw(site)}; }
  SiteId varargs_site(ScopeId function) const {
    return SiteId{2 * expr_count_ + 2 * raw(function)};
  }
  SiteId varkw_site(ScopeId function) const {
    return SiteId{2 * expr_count_ + 2 * raw(function) + 1};
  }

  // The elements variable of Container value `v`, remembered per value: most lookups start
  // from a value, and finding it by site in element_vars_ showed in profiles.
  VarId elements_of(ValueId v) {
    if (raw(v) >= container_elements_.size()) container_elements_.resize(values_.size(), kNoVar);
    VarId& elements = container_elements_[v];
    if (elements == kNoVar) elements = elements_var(values_[v].site());
    return elements;
  }

  VarId elements_var(SiteId site) {
    const auto [var, inserted] = element_vars_.try_emplace(site, VarId{0});
    if (inserted) *var = vars_.add();
    return *var;
  }
  bool has_elements(SiteId site) const { return element_vars_.find(site) != nullptr; }

  // A tuple literal's elements variable is created by its first evaluation, and the variables
  // of its positions right after it: they are the next list_count variables.
  static VarId positions_of(VarId elements) { return position(elements, 1); }
  static VarId position(VarId first, uint32_t i) { return VarId{raw(first) + i}; }

  // The values stored under literal key `key` of the dict display at `site`.
  VarId key_var(SiteId site, NameId key) {
    const auto [var, inserted] = key_vars_.try_emplace(site, key, VarId{0});
    if (inserted) {
      *var = vars_.add();
      site_key_vars_[site].push_back(*var);
    }
    return *var;
  }
  VarId find_key_var(SiteId site, NameId key) const {
    const VarId* var = key_vars_.find(site, key);
    return var == nullptr ? kNoVar : *var;
  }
  // A dict display's keys that are not plain string literals: what iterating it gives besides
  // its values (a subscript or get() gives values only). Created by the display's first
  // evaluation, so that every iteration of the dict it makes reads it.
  void add_display_keys(SiteId site) {
    const auto [var, inserted] = key_vars_.try_emplace(site, kDisplayKeys, VarId{0});
    if (inserted) *var = vars_.add();
  }
  VarId display_keys(SiteId site) const { return find_key_var(site, kDisplayKeys); }

  // Every key variable of `site`; null when it has none.
  const std::vector<VarId>* key_vars(SiteId site) const {
    const auto it = site_key_vars_.find(site);
    return it == site_key_vars_.end() ? nullptr : &it->second;
  }

  // Frees the maps from sites: only the rounds use them.
  void release_sites() {
    element_vars_ = {};
    key_vars_ = {};
    std::unordered_map<SiteId, std::vector<VarId>>().swap(site_key_vars_);
  }

  // Debug trace only.
  size_t element_vars() const { return element_vars_.size(); }
  size_t element_bytes() const { return element_vars_.bytes(); }

 private:
  VarSets& vars_;
  const Values& values_;
  uint32_t expr_count_ = 0;
  IdMap<SiteId, VarId> element_vars_;            // a container site's elements
  IdVector<ValueId, VarId> container_elements_;  // per Container value: see elements_of
  PairMap<SiteId, NameId, VarId> key_vars_;      // (dict display site, literal key)
  std::unordered_map<SiteId, std::vector<VarId>> site_key_vars_;  // site -> its key_vars_
};

}  // namespace anchorfs::analysis::python::detail
