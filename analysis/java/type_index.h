// The repository's Java types: definitions by global id, fully qualified names, and how a type
// name written in a file resolves (nested, local, imported, same-package, java.lang, qualified).
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/code/code_facts.h"
#include "analysis/language.h"

namespace anchorfs::analysis::java {

inline constexpr uint32_t kNone = UINT32_MAX;

// A definition's name with its hash, as TypeIndex::children_named looks names up: made once for
// a lookup along a chain of types rather than once per type.
struct NameKey {
  // Implicit: any name is a key.
  NameKey(std::string_view n)
      : name(n), hash(static_cast<uint32_t>(std::hash<std::string_view>{}(n))) {}
  std::string_view name;
  uint32_t hash;
};

// Every definition of every file has a global id: its file's offset plus its index in the file
// (index 0, the file itself, stands for the file's top-level scope). Until settle() the index
// fills its supertype memos as lookups ask (one thread); from then on only the name memos change,
// and each thread keeps its own, so lookups may run on several threads at once.
class TypeIndex {
 public:
  explicit TypeIndex(const ResolverInput& input);

  uint32_t file_count() const { return static_cast<uint32_t>(files_.size()); }
  uint32_t definition_count() const { return static_cast<uint32_t>(owner_.size()); }
  const code::CodeFacts& facts(uint32_t file) const { return *files_[file].facts; }
  uint32_t global(uint32_t file, uint32_t local) const { return offsets_[file] + local; }
  uint32_t file_of(uint32_t g) const { return owner_[g]; }
  uint32_t local_of(uint32_t g) const { return g - offsets_[owner_[g]]; }
  const code::Definition& definition(uint32_t g) const {
    return files_[owner_[g]].facts->definitions[local_of(g)];
  }
  EntityIndex entity(uint32_t g) const { return files_[owner_[g]].entity + local_of(g); }
  EntityIndex file_entity(uint32_t file) const { return files_[file].entity; }

  // The definitions directly inside `g` named `name`.
  std::span<const uint32_t> children_named(uint32_t g, const NameKey& key) const;

  // The type a name written in `file` at definition `scope` denotes, or kNone: "T", "Outer.Inner",
  // "com.x.T". Arrays and primitives denote no type.
  uint32_t resolve_type(uint32_t file, uint32_t scope, std::string_view written);
  // The same without counting it as a use of the type (overload selection resolves parameter
  // and argument types a file need not name: literals, erasures).
  uint32_t resolve_type_quietly(uint32_t file, uint32_t scope, std::string_view written);

  // The type with this fully qualified name; among several (the same class in two source roots)
  // the one in `from_file`'s source root, else none.
  uint32_t by_fqn(std::string_view fqn, uint32_t from_file) const;
  // A named type's fully qualified name; "" for local and anonymous classes.
  const std::string& fqn(uint32_t type) const { return qualified_[type]; }

  // Resolves every definition's supertypes, chain and completeness (one thread). From then on
  // bases(), chain() and chain_complete() only read, and type lookups may run on several threads.
  void settle();

  // A type's resolved supertypes in declaration order (superclass first), and whether every
  // supertype up its chain resolved to a repository type.
  std::span<const uint32_t> bases(uint32_t type);
  bool chain_complete(uint32_t type);

  // `type` and its supertypes, breadth first, each once; valid as long as the index.
  const std::vector<uint32_t>& chain(uint32_t type);

  // A member type named `name` of `type` or of a supertype, or kNone.
  uint32_t member_type(uint32_t type, const NameKey& key);

  // File pairs (from, to) where `from` names a type `to` declares: explicit imports, and the
  // types a file uses through on-demand imports, its own package, java.lang or a qualified name;
  // sorted, each once (whichever thread's lookup found it). Call once lookups are over.
  std::vector<std::pair<uint32_t, uint32_t>> uses();
  void record_import_declarations();

 private:
  struct File {
    std::string_view path;
    const code::CodeFacts* facts;
    EntityIndex entity;
    std::string root;  // the source root its package declaration implies
  };
  struct Lookups;
  uint32_t resolve_type(Lookups& lookups, uint32_t file, uint32_t scope, std::string_view written);
  uint32_t lexical_type(Lookups& lookups, uint32_t file, uint32_t scope, std::string_view name);
  uint32_t file_level_type(Lookups& lookups, uint32_t file, std::string_view name);
  uint32_t file_level_lookup(uint32_t file, std::string_view name, bool& implicit) const;
  void use(Lookups& lookups, uint32_t file, uint32_t type) const;
  Lookups& lookups();

  std::vector<File> files_;
  std::vector<uint32_t> offsets_;  // by file
  std::vector<uint32_t> owner_;    // file of each global id
  // Children of each global id (CSR: child_start_[g] .. child_start_[g + 1]) sorted by the hash
  // of their name, then name, then id; child_hash_ holds the hashes in the same order, so a
  // lookup compares integers and reads a name only to confirm a hit.
  std::vector<uint32_t> child_start_;
  std::vector<uint32_t> child_list_;
  std::vector<uint32_t> child_hash_;
  // The children's names in the same order: a hit is confirmed from here, not through the
  // definition's file, facts and string (four dependent loads a lookup).
  std::vector<std::string_view> child_name_;
  // Whether a definition has a class among its children: most have none, and a type name is
  // looked up as a member type along every enclosing class's chain before the file's names.
  std::vector<uint8_t> has_class_child_;  // bytes: files set theirs side by side
  // Looked up by string_view without building a std::string.
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <class T>
  using StringMap = std::unordered_map<std::string, T, StringHash, std::equal_to<>>;
  StringMap<std::vector<uint32_t>> by_fqn_;
  std::vector<std::string> qualified_;  // by global id: package for a file, "" for no name
  // A simple name's type at file level, and whether the file names it through its package, an
  // on-demand import or java.lang (`implicit`), recorded as a use once asked for (`used`).
  struct FileName {
    uint32_t type = kNone;
    bool implicit = false;
    bool used = false;
  };
  // What one thread's lookups remember and found: a name's file-level type is the same on every
  // thread, and uses are a set, so neither depends on which thread looked first.
  struct Lookups {
    std::vector<StringMap<FileName>> file_names;  // memo by file (sized on first use)
    bool quiet = false;  // resolving for overload selection: the file does not name the type
    std::vector<std::pair<uint32_t, uint32_t>> uses;
  };
  tbb::enumerable_thread_specific<Lookups> lookups_;
  enum class BaseState : uint8_t { Unresolved, InProgress, Done };
  std::vector<BaseState> base_state_;
  std::vector<std::vector<uint32_t>> bases_;
  std::vector<int8_t> complete_;  // -1 unknown, 0 no, 1 yes
  // chain() by type, kept once every type in it has its bases (empty until then); chains built
  // while a base in them was still being resolved stay apart (rare: a cycle, a base named
  // through a member type), each as built.
  std::vector<std::vector<uint32_t>> chains_;
  std::deque<std::vector<uint32_t>> unsettled_chains_;
};

}  // namespace anchorfs::analysis::java
