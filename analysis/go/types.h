// Statically evident types in Go: a name's declared or constructed type, a call's declared
// result, fields and methods of a type (promoted through embedding).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/go/package_index.h"

namespace anchorfs::analysis::go {

// A type declaration of the repository.
struct TypeRef {
  uint32_t package = 0;
  DefRef def;
};

// Per definition (file << 32 | def): its fields (structs) or first result (functions). Built
// once and only read after, so the files' resolutions share it from any thread.
using TypeMembers = std::unordered_map<uint64_t, std::vector<const code::TypedName*>>;
TypeMembers type_members(const PackageIndex& index);

// One file's view at a time (enter_file); one per thread, over members shared by all.
class Types {
 public:
  Types(const PackageIndex& index, const TypeMembers& members);

  // Starts answering for names declared in `file` (its locals are indexed once per file).
  void enter_file(uint32_t file);

  // The type a written type names in `file` ("T", "pkg.T"), or nullopt.
  std::optional<TypeRef> named(uint32_t file, std::string_view type) const;

  // The type of a receiver chain ("x", "a.b", "F()", "pkg.F().g") in a scope of the current
  // file, or nullopt when any step is not evident.
  std::optional<TypeRef> of_chain(uint32_t scope, std::string_view chain) const;

  // The declaration of a local name in a scope of the current file: nullopt when not declared
  // there; an empty view when declared with no evident type (or several different ones).
  std::optional<std::string_view> local(uint32_t scope, std::string_view name) const;

  // The methods `name` of a type, declared on it or promoted from one embedded type; empty when
  // none, when ambiguous, and for interfaces (their dynamic type is not evident).
  std::vector<DefRef> methods(const TypeRef& type, std::string_view name) const;

 private:
  std::optional<TypeRef> of_written(uint32_t file, uint32_t scope, std::string_view type,
                                    int depth) const;
  std::optional<TypeRef> of_chain_in(uint32_t file, uint32_t scope, std::string_view chain,
                                     int depth) const;
  std::optional<TypeRef> element_of(uint32_t file, uint32_t scope, std::string_view chain,
                                    int depth) const;
  std::optional<TypeRef> result_of(const std::vector<DefRef>& callees, int depth) const;
  std::optional<TypeRef> field(const TypeRef& type, std::string_view name, int depth) const;
  std::vector<DefRef> methods_at(const TypeRef& type, std::string_view name, int depth) const;
  std::optional<std::string_view> local_in(uint32_t file, uint32_t scope,
                                           std::string_view name) const;

  const PackageIndex& index_;
  uint32_t file_ = 0;
  // Locals of the current file by (scope, name): their written type, "" when not evident.
  std::unordered_map<uint64_t, std::unordered_map<std::string_view, std::string_view>> locals_;
  const TypeMembers& members_;
};

}  // namespace anchorfs::analysis::go
