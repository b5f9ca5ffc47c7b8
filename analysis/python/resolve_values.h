// Abstract values: what a variable can hold, interned so that equal values share one ValueId.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/python/resolve_flat_map.h"
#include "analysis/python/resolve_ids.h"

namespace anchorfs::analysis::python::detail {

// Wrapped(w, inner): what a wrapper-returning decorator made of `inner` (see find_wrappers).
// Property(getter): what `property(getter)` made of a function not decorated as a property.
// Param(i): in a return variable only, "the i-th positional argument of the call at hand"
// (see Resolver::find_param_returns); call_result puts the call's own argument in its place.
enum class VK : uint8_t {
  Module,
  Class,
  Function,
  Instance,
  Bound,
  Super,
  Container,
  Generator,
  Builtin,
  Wrapped,
  Property,
  Param
};

enum class Builtin : uint8_t {
  Super,
  StaticMethod,
  ClassMethod,
  Property,
  Iter,
  Next,
  List,
  Tuple,
  Set,
  FrozenSet,
  Sorted,
  Reversed,
  Type,
  Map,
  Filter,
  Min,
  Max,
  kCount,
};

inline constexpr std::string_view kBuiltinNames[] = {
    "super", "staticmethod", "classmethod", "property",  "iter",   "next",
    "list",  "tuple",        "set",         "frozenset", "sorted", "reversed",
    "type",  "map",          "filter",      "min",       "max"};

// One value: its kind and two numbers whose meaning the kind gives; read them through the
// accessor of that meaning.
struct Value {
  VK kind;
  uint32_t a;
  uint32_t b;

  // Class, Instance (its class), Function, Generator (its function), Bound (the function),
  // Super (the class whose MRO it continues after), Wrapped (the wrapper closure).
  ScopeId scope() const { return ScopeId{a}; }
  ModuleId module() const { return ModuleId{a}; }
  SiteId site() const { return SiteId{a}; }  // Container
  Builtin builtin() const { return static_cast<Builtin>(a); }
  ValueId receiver() const { return ValueId{b}; }  // Bound, Super
  ValueId inner() const { return ValueId{b}; }     // Wrapped: the decorated definition
  uint32_t index() const { return a; }             // Param: the argument's position
  ScopeId getter() const { return ScopeId{a}; }    // Property
};

// Every value made during the resolution, numbered in creation order (value ids order the
// sets, so the order values are made in is part of the result: docs/resolver.md).
class Values {
 public:
  // Sizes the per-class instance cache.
  explicit Values(size_t scopes = 0) : instance_(scopes, kNoValue) {}

  const Value& operator[](ValueId v) const { return values_[v]; }
  size_t size() const { return values_.size(); }
  size_t bytes() const { return values_.capacity() * sizeof(Value); }
  size_t index_bytes() const { return ids_.bytes(); }

  ValueId module(ModuleId m) { return intern(VK::Module, raw(m)); }
  ValueId cls(ScopeId c) { return intern(VK::Class, raw(c)); }
  ValueId function(ScopeId f) { return intern(VK::Function, raw(f)); }
  ValueId generator(ScopeId f) { return intern(VK::Generator, raw(f)); }
  ValueId container(SiteId site) { return intern(VK::Container, raw(site)); }
  ValueId builtin(Builtin b) { return intern(VK::Builtin, static_cast<uint32_t>(b)); }
  ValueId bound(ScopeId function, ValueId receiver) {
    return intern(VK::Bound, raw(function), raw(receiver));
  }
  ValueId super(ScopeId cls, ValueId receiver) {
    return intern(VK::Super, raw(cls), raw(receiver));
  }
  ValueId wrapped(ScopeId wrapper, ValueId inner) {
    return intern(VK::Wrapped, raw(wrapper), raw(inner));
  }
  ValueId property(ScopeId getter) { return intern(VK::Property, raw(getter)); }
  ValueId param(uint32_t index) { return intern(VK::Param, index); }
  // Instances are looked up constantly: one cached value per class.
  ValueId instance(ScopeId cls) {
    ValueId& v = instance_[cls];
    if (v == kNoValue) v = intern(VK::Instance, raw(cls));
    return v;
  }

  // The class's instance value if one was made, else kNoValue.
  ValueId existing_instance(ScopeId cls) const { return instance_[cls]; }

  // Frees the index that finds existing values: no value is made after the rounds.
  void release_index() { ids_ = {}; }

 private:
  ValueId intern(VK k, uint32_t a, uint32_t b = 0) {
    const uint64_t k64 = (uint64_t{static_cast<uint8_t>(k)} << 58) ^ (uint64_t{a} << 29) ^ b;
    const auto [id, inserted] = ids_.try_emplace(k64, values_.next_id());
    if (inserted) values_.push_back({k, a, b});
    return *id;
  }

  IdVector<ValueId, Value> values_;
  FlatMap<uint64_t, ValueId> ids_;
  IdVector<ScopeId, ValueId> instance_;
};

}  // namespace anchorfs::analysis::python::detail
