// The dense view's output of the one Python walk (docs/dense.md): per-node rules, a post-pass.
#pragma once

#include <tree_sitter/api.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/code/child_list.h"
#include "analysis/python/facts.h"
#include "analysis/python/nesting.h"
#include "analysis/python/node_kinds.h"

namespace anchorfs::analysis::python {

// Longest decorator text kept for a REGISTERED_BY label (bytes, before "...").
inline constexpr size_t kMaxDecoratorText = 60;

// How the walk reached a node, which is what its dense facts depend on.
enum class Use : uint8_t {
  Read,         // evaluated
  Store,        // (part of) an assignment or `del` target
  ChainObject,  // the object of an attribute chain already recorded whole
  Ignored,      // not code the dense view looks at (imports, annotations, case patterns...)
};

// The dense sink. The call-graph walk (extract.cpp) calls enter() on every node it visits and
// walk() on every subtree it leaves unvisited, so each node's dense rules run with the role it
// was reached in. Rules that depend on the whole file (which names are declared `global`, which
// are imported) cannot be decided while walking: such candidates are kept and settled by
// finish(), once the file's statements are known. The tree must outlive finish().
class DenseCollector {
 public:
  // `scopes` are the walk's scopes as it creates them; `nesting` its depth, which walk() adds to.
  // A disabled collector records nothing.
  DenseCollector(std::string_view text, const std::vector<Scope>& scopes, Nesting& nesting,
                 bool enabled);
  DenseCollector(const DenseCollector&) = delete;
  DenseCollector& operator=(const DenseCollector&) = delete;

  // The dense view leaves these subtrees out whatever reaches them.
  static bool skipped(NodeKind k);

  // The facts of node n itself (not its children), reached as `use` in walk scope `scope`.
  void enter(TSNode n, NodeKind k, Use use, uint32_t scope);

  // enter() over n and every node below it, each with the role the dense rules give it.
  void walk(TSNode n, Use use, uint32_t scope);

  // The decorator `expr` of the definition whose scope is `definition`.
  void decorator(TSNode expr, NodeKind k, uint32_t definition);

  // Settles the candidates against `facts` (its statements and strings complete) and fills
  // facts.dense, sorted and unique, interning its strings after the walk's.
  void finish(FileFacts& facts);

 private:
  struct Fact {
    DenseKind kind;
    uint32_t scope;
    std::string path;
    std::optional<std::string> key;
    friend auto operator<=>(const Fact&, const Fact&) = default;
  };
  // (scope, name), views into the source.
  using NameUse = std::pair<uint32_t, std::string_view>;

  std::string_view text(TSNode n) const { return node_text(text_, n); }
  TSNode field(TSNode n, TSFieldId id) const { return anchorfs_child_by_field(n, id); }
  uint32_t owner(uint32_t scope) const;
  bool in_function(uint32_t scope) const;

  void read_name(std::string_view name, uint32_t scope);
  void write_name(std::string_view name, uint32_t scope);
  void read_chain(const std::string& chain, uint32_t scope);
  void write_chain(const std::string& chain, uint32_t scope);
  void add(DenseKind k, uint32_t scope, std::string path, std::optional<std::string> key = {});
  void call(TSNode n, uint32_t scope);
  void call_fact(std::string callee, TSNode n, uint32_t scope);
  void subscript_key(TSNode n, uint32_t scope);
  void comparison_key(TSNode n, uint32_t scope);

  std::optional<std::string> chain_of(TSNode n, size_t parts = 0) const;
  std::optional<std::string> literal(TSNode n) const;
  std::vector<TSNode> positional(TSNode call);
  std::optional<std::string> first_argument_literal(TSNode call) const;
  std::string decorator_text(const std::string& callee, TSNode expr, bool is_call);

  // Collects n's named children (with fields when asked) onto the stack.
  struct Range {
    size_t begin, end;
  };
  Range children(TSNode n, bool named_only = true, bool with_fields = false);
  void release(const Range& r) { stack_.resize(r.begin); }
  void walk_children(TSNode n, Use use, uint32_t scope);

  std::string_view text_;
  const Grammar& g_;
  const std::vector<Scope>& scopes_;
  Nesting& nesting_;
  bool enabled_;
  std::vector<Child> stack_;
  std::vector<Fact> facts_;
  // Candidates, each kept once however often it occurs (a generated file can hold hundreds of
  // thousands of uses of a few names):
  std::set<NameUse> reads_;     // in functions, not UPPER_CASE: facts if declared `global`
  std::set<NameUse> writes_;    // in functions: facts if declared `global` in that scope
  std::set<Fact> if_imported_;  // calls and keys: facts if the chain's root is imported
};

}  // namespace anchorfs::analysis::python
