// C and C++ resolution. Definitions are indexed by qualified name ("ns::A::f"); a call resolves
// through the rules of docs/languages/c.md: the enclosing class (and its bases), then for each
// enclosing namespace outwards the same file, the headers it includes (transitively), and a
// function defined in exactly one file whose declaration the caller can see.
#include "analysis/cfamily/resolve.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>

#include "analysis/cfamily/includes.h"
#include "analysis/code/code_facts.h"
#include "analysis/code/definition_index.h"

namespace anchorfs::analysis::cfamily {
namespace {

using code::DefId;

// "a.b" (a nested namespace's or an out-of-line owner's id form) -> "a::b".
std::string qualified(std::string_view dotted) {
  std::string out;
  for (const char c : dotted) {
    if (c == '.') {
      out += "::";
    } else {
      out += c;
    }
  }
  return out;
}

std::string join(std::string_view prefix, std::string_view name) {
  if (prefix.empty()) return std::string(name);
  return std::string(prefix) + "::" + std::string(name);
}

bool is_function(const code::Definition& def) {
  return def.kind == EntityKind::Function;
}

bool is_class(const code::Definition& def) {
  return def.kind == EntityKind::Class &&
         (def.role == "class" || def.role == "struct" || def.role == "union");
}

bool accepts(const code::Definition& def, uint32_t arity) {
  return def.arity == arity || (def.variadic && arity >= def.arity);
}

class Resolver {
 public:
  Resolver(const ResolverInput& input, std::vector<Edge>& out, const FileSelection& selection)
      : input_(input), out_(out), selection_(selection), defs_(input.files) {}

  void run() {
    const size_t n = input_.files.size();
    facts_.resize(n);
    std::vector<std::string_view> paths(n);
    for (uint32_t f = 0; f < n; ++f) {
      facts_[f] = static_cast<const code::CodeFacts*>(input_.files[f].facts);
      paths[f] = input_.files[f].path;
    }
    includes_resolver_.emplace(input_.root, paths);
    includes_.resize(n);
    ambiguous_.resize(n);
    for (uint32_t f = 0; f < n; ++f) {
      for (const code::Import& import : facts_[f]->imports) {
        const auto found = includes_resolver_->resolve(f, import.source, import.name == "<>");
        if (found.file && *found.file != f) includes_[f].push_back(*found.file);
        if (found.tie) ambiguous_[f].push_back(&import);
      }
      std::sort(includes_[f].begin(), includes_[f].end());
      includes_[f].erase(std::unique(includes_[f].begin(), includes_[f].end()), includes_[f].end());
    }
    index();
    stamp_.assign(n, UINT32_MAX);
    for (uint32_t f = 0; f < n; ++f) attach_out_of_line(f);
    // Each file's edges leave its own entities and read only the indexes above, so a file's
    // edges do not depend on which other files are resolved (incremental.cpp relies on it).
    for (uint32_t f = 0; f < n; ++f) {
      if (!selection_.only.empty() && !selection_.only[f]) continue;
      close_over(f);
      for (const uint32_t target : includes_[f]) {
        out_.push_back({entity(f, 0), entity(target, 0), Relation::Imports});
      }
      inheritance(f);
      calls(f);
      if (selection_.ends != nullptr) selection_.ends->push_back({f, out_.size()});
    }
  }

 private:
  EntityIndex entity(uint32_t f, uint32_t d) const { return input_.files[f].entity + d; }
  const code::Definition& def(DefId r) const { return defs_.definition(r); }
  static uint32_t key(DefId r) { return code::DefinitionIndex::raw(r); }

  // --- Names ----------------------------------------------------------------------------------

  // The qualified name of the scope a definition opens ("ns::A" for class A in namespace ns,
  // "ns::A" for an out-of-line `ns::A::f`'s enclosing class too).
  std::string scope_name(uint32_t f, uint32_t d) const {
    std::string name;
    std::vector<uint32_t> chain;
    for (uint32_t at = d; at != 0 && chain.size() < 64; at = facts_[f]->definitions[at].parent) {
      chain.push_back(at);
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const code::Definition& x = facts_[f]->definitions[*it];
      if (is_function(x) && x.role != "macro") {
        if (!x.owner.empty()) name = join(name, x.owner);  // the class an out-of-line method joins
        break;  // names inside a function body are the function's own
      }
      name = join(name, qualified(x.name));
    }
    return name;
  }

  std::string full_name(uint32_t f, uint32_t d) const {
    const code::Definition& x = facts_[f]->definitions[d];
    const std::string parent = scope_name(f, x.parent);
    if (!x.owner.empty()) return join(join(parent, x.owner), simple_name(x));
    return join(parent, qualified(x.name));
  }

  static std::string_view simple_name(const code::Definition& x) {
    if (x.owner.empty()) return x.name;
    const size_t dot = x.name.rfind('.');
    return dot == std::string::npos ? std::string_view(x.name)
                                    : std::string_view(x.name).substr(dot + 1);
  }

  // Enclosing scope names of a scope, innermost first, ending with "" (the global namespace).
  std::vector<std::string> prefixes(uint32_t f, uint32_t scope) const {
    std::string name = scope_name(f, scope);
    std::vector<std::string> out;
    while (!name.empty()) {
      out.push_back(name);
      const size_t sep = name.rfind("::");
      name = sep == std::string::npos ? std::string() : name.substr(0, sep);
    }
    out.emplace_back();
    return out;
  }

  // --- Indexes --------------------------------------------------------------------------------

  bool overloaded(const std::string& name) const {
    const auto it = simple_counts_.find(name);
    return it != simple_counts_.end() && it->second > 1;
  }

  void index() {
    for (uint32_t f = 0; f < facts_.size(); ++f) {
      const code::CodeFacts& facts = *facts_[f];
      for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
        const code::Definition& x = facts.definitions[d];
        if (is_class(x)) {
          classes_[full_name(f, d)].push_back(defs_.id(f, d));
        } else if (is_function(x)) {
          const bool member = x.role != "function" && x.role != "macro";
          if (!member) {
            functions_[full_name(f, d)].push_back(defs_.id(f, d));
            ++simple_counts_[x.name];
          } else if (is_class(facts.definitions[x.parent]) && x.owner.empty()) {
            methods_[key(defs_.id(f, x.parent))].push_back(defs_.id(f, d));
          }
        }
      }
      for (const code::Declaration& decl : facts.declarations) {
        if (!decl.owner.empty()) continue;
        if (decl.scope != 0 && !is_function(facts.definitions[decl.scope]) &&
            facts.definitions[decl.scope].role != "namespace") {
          continue;  // a method's declaration in its class
        }
        declared_[join(scope_name(f, decl.scope), decl.name)].push_back(f);
      }
    }
  }

  // Marks the files `f` includes, directly or not, with stamp f. An include a header leaves
  // ambiguous (`<asm/io.h>` in include/linux/io.h) is decided by f's own path, as the build
  // of f decides it by its include directories.
  void close_over(uint32_t f) {
    std::vector<uint32_t> stack{f};
    stamp_[f] = f;
    auto reach = [&](uint32_t next) {
      if (stamp_[next] == f) return;
      stamp_[next] = f;
      stack.push_back(next);
    };
    while (!stack.empty()) {
      const uint32_t at = stack.back();
      stack.pop_back();
      for (const uint32_t next : includes_[at]) reach(next);
      if (at == f) continue;
      for (const code::Import* import : ambiguous_[at]) {
        const auto found = includes_resolver_->resolve(at, import->source, import->name == "<>",
                                                       input_.files[f].path);
        if (found.file) reach(*found.file);
      }
    }
    closed_ = f;
  }

  bool visible(uint32_t file) const { return stamp_[file] == closed_; }

  // An out-of-line `A::f` belongs to the one class named A its file can see.
  void attach_out_of_line(uint32_t f) {
    const code::CodeFacts& facts = *facts_[f];
    bool any = false;
    for (uint32_t d = 1; d < facts.definitions.size() && !any; ++d) {
      any = !facts.definitions[d].owner.empty();
    }
    if (!any) return;
    close_over(f);
    for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
      const code::Definition& x = facts.definitions[d];
      if (x.owner.empty() || !is_function(x)) continue;
      if (const auto cls = find_class(f, x.parent, x.owner)) {
        methods_[key(*cls)].push_back(defs_.id(f, d));
      }
    }
  }

  // The class `written` names from scope `scope` of file `f` (closure computed for f): the one
  // class of that qualified name, innermost enclosing scope first, defined in f or a file it
  // includes.
  std::optional<DefId> find_class(uint32_t f, uint32_t scope, std::string_view written) const {
    for (const std::string& prefix : prefixes(f, scope)) {
      const auto it = classes_.find(join(prefix, written));
      if (it == classes_.end()) continue;
      std::optional<DefId> found;
      for (const DefId r : it->second) {
        if (!visible(defs_.file_of(r))) continue;
        if (found) return std::nullopt;  // two classes of one name in sight: no guess
        found = r;
      }
      if (found) return found;
    }
    return std::nullopt;
  }

  // The class a class's base names, looked up from the class's own file.
  std::vector<DefId> bases(DefId cls) {
    std::vector<DefId> out;
    for (const std::string& base : def(cls).bases) {
      if (const auto r = find_class_from(defs_.file_of(cls), def(cls).parent, base)) {
        out.push_back(*r);
      }
    }
    return out;
  }

  // find_class from another file than the one whose closure is marked (memoized).
  std::optional<DefId> find_class_from(uint32_t f, uint32_t scope, const std::string& written) {
    const std::string key = std::to_string(f) + ":" + std::to_string(scope) + ":" + written;
    if (const auto it = class_memo_.find(key); it != class_memo_.end()) return it->second;
    const uint32_t saved = closed_;
    std::optional<DefId> r;
    if (saved == f) {
      r = find_class(f, scope, written);
    } else {
      close_over(f);
      r = find_class(f, scope, written);
      close_over(saved);
    }
    class_memo_.emplace(key, r);
    return r;
  }

  // --- Edges ----------------------------------------------------------------------------------

  void inheritance(uint32_t f) {
    const code::CodeFacts& facts = *facts_[f];
    for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
      if (!is_class(facts.definitions[d]) || facts.definitions[d].bases.empty()) continue;
      for (const std::string& base : facts.definitions[d].bases) {
        if (const auto r = find_class(f, facts.definitions[d].parent, base)) {
          out_.push_back({entity(f, d), defs_.entity(*r), Relation::Inherits});
        }
      }
    }
  }

  // The method `name` taking `arity` arguments of class `cls` or, when it declares none of that
  // name, of its bases (breadth first, bounded); nullopt when none or several fit.
  std::optional<DefId> method(DefId cls, std::string_view name, uint32_t arity, bool constructor) {
    const std::vector<DefId> named = defs_.search_bases(
        cls, 16, [&](DefId c) { return bases(c); },
        [&](DefId c, std::vector<DefId>& out) {
          const auto it = methods_.find(key(c));
          if (it == methods_.end()) return;
          for (const DefId m : it->second) {
            const code::Definition& x = def(m);
            if (simple_name(x) == name && constructor == (x.role == "constructor")) out.push_back(m);
          }
        },
        constructor);  // constructors are not inherited
    if (named.empty()) return std::nullopt;
    return pick(named, arity);
  }

  // The one candidate accepting `arity` arguments; an overload set split by arity picks by it.
  std::optional<DefId> pick(std::span<const DefId> candidates, uint32_t arity) const {
    std::optional<DefId> found;
    for (const DefId r : candidates) {
      if (!accepts(def(r), arity)) continue;
      if (found && !(*found == r)) return std::nullopt;
      found = r;
    }
    return found;
  }

  // The class whose method a function is (in its class or out of line), or nullopt.
  std::optional<DefId> enclosing_class(uint32_t f, uint32_t scope) {
    const auto at = defs_.enclosing(defs_.id(f, scope), [](const code::Definition& x) {
      return is_class(x) || (is_function(x) && !x.owner.empty());
    });
    if (!at || is_class(def(*at))) return at;
    return find_class(f, def(*at).parent, def(*at).owner);
  }

  // A free function (or function-like macro) `name` from scope `scope`: tried in each enclosing
  // namespace outwards; at the first that knows the name, the same file's definition, else the
  // one in an included header, else the one non-static definition of the repository when its
  // declaration is in sight.
  enum class Found { None, Edge, Stop };
  Found free_function(uint32_t f, uint32_t scope, std::string_view name, uint32_t arity,
                      std::optional<DefId>& out) {
    for (const std::string& prefix : prefixes(f, scope)) {
      const std::string key = join(prefix, name);
      const auto it = functions_.find(key);
      if (it == functions_.end()) continue;
      // Candidates are in id order, so a file's own are one run of them: found by bisection,
      // and when there are any nothing else is read (a common static name such as `probe` has
      // thousands of definitions).
      const std::vector<DefId>& candidates = it->second;
      const auto first = std::lower_bound(candidates.begin(), candidates.end(), defs_.id(f, 0));
      const auto last = std::lower_bound(
          first, candidates.end(),
          defs_.id(f, static_cast<uint32_t>(defs_.facts(f).definitions.size())));
      if (first != last) {
        out = pick({first, last}, arity);
        return out ? Found::Edge : Found::Stop;
      }
      std::vector<DefId>& included = included_;
      std::vector<DefId>& global = global_;
      included.clear();
      global.clear();
      for (const DefId r : candidates) {
        if (visible(defs_.file_of(r))) {
          included.push_back(r);
        } else if (included.empty() && global.size() < 2 && def(r).exported &&
                   def(r).role == "function") {
          global.push_back(r);
        }
      }
      // A header's `static inline` stub (or macro) beside a prototype of the same name is one
      // branch of a configuration switch (`#ifdef CONFIG_X` prototype, `#else` stub; C allows
      // no other way to have both): which one a build sees is not evident, and the real
      // definition may be elsewhere or outside the tree, so the stub gets no edge.
      if (!included.empty()) {
        out = declared_in_sight(key) ? std::nullopt : pick(included, arity);
        return out ? Found::Edge : Found::Stop;
      }
      // Several files defining it (per architecture, per program) leave the choice to the
      // build: no edge.
      if (global.size() == 1 && declared_in_sight(key)) {
        out = pick(global, arity);
        return out ? Found::Edge : Found::Stop;
      }
      return Found::Stop;
    }
    return Found::None;
  }

  // Whether the file whose closure is marked, or a header it includes, declares `key`.
  bool declared_in_sight(const std::string& key) const {
    const auto it = declared_.find(key);
    if (it == declared_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](uint32_t d) { return visible(d); });
  }

  // The class of a name's declared type from `scope`: locals and parameters of the function,
  // fields of its class and bases, file-level names.
  std::optional<DefId> type_of_name(uint32_t f, uint32_t scope, std::string_view name) {
    const code::CodeFacts& facts = *facts_[f];
    for (uint32_t at = scope;; at = facts.definitions[at].parent) {
      if (is_class(facts.definitions[at]) && at != 0) break;
      for (const code::TypedName& t : facts.typed_names) {
        if (t.scope == at && t.name == name) return find_class(f, at, t.type);
      }
      if (at == 0) break;
    }
    if (const auto cls = enclosing_class(f, scope)) return field_type(*cls, name);
    return std::nullopt;
  }

  // The class of field `name` of `cls` or, when it declares none, of its nearest base that does.
  std::optional<DefId> field_type(DefId cls, std::string_view name) {
    const code::TypedName* field = nullptr;
    const std::vector<DefId> declaring = defs_.search_bases(
        cls, 16, [&](DefId c) { return bases(c); },
        [&](DefId c, std::vector<DefId>& out) {
          if (!out.empty()) return;
          for (const code::TypedName& t : defs_.facts(defs_.file_of(c)).typed_names) {
            if (t.scope == defs_.local_of(c) && t.name == name) {
              field = &t;
              out.push_back(c);
              return;
            }
          }
        });
    if (declaring.empty()) return std::nullopt;
    const DefId c = declaring.front();
    return find_class_from(defs_.file_of(c), defs_.local_of(c), field->type);
  }

  std::optional<DefId> receiver_class(uint32_t f, uint32_t scope, std::string_view receiver) {
    const size_t dot = receiver.find('.');
    const std::string_view head = receiver.substr(0, dot);
    std::optional<DefId> cls =
        head == "this" ? enclosing_class(f, scope) : type_of_name(f, scope, head);
    if (!cls || dot == std::string_view::npos) return cls;
    return field_type(*cls, receiver.substr(dot + 1));
  }

  std::optional<DefId> callee(uint32_t f, const code::Call& c) {
    switch (c.form) {
      case code::CallForm::Plain: {
        if (const auto cls = enclosing_class(f, c.scope)) {
          if (const auto m = method(*cls, c.name, c.arity, false)) return m;
        }
        if (cpp_caller_ && overloaded(c.name)) return std::nullopt;
        std::optional<DefId> out;
        const Found found = free_function(f, c.scope, c.name, c.arity, out);
        if (found != Found::None) return out;
        if (const auto cls = find_class(f, c.scope, c.name))
          return method(*cls, c.name, c.arity, true);
        return std::nullopt;
      }
      case code::CallForm::Path: {
        if (const auto cls = find_class(f, c.scope, c.receiver)) {
          const std::string_view own =
              std::string_view(c.receiver)
                  .substr(c.receiver.rfind("::") == std::string::npos ? 0
                                                                      : c.receiver.rfind("::") + 2);
          return method(*cls, c.name, c.arity, c.name == own);
        }
        std::optional<DefId> out;
        free_function(f, c.scope, c.receiver + "::" + c.name, c.arity, out);
        return out;
      }
      case code::CallForm::Member: {
        const auto cls = receiver_class(f, c.scope, c.receiver);
        if (!cls) return std::nullopt;
        return method(*cls, c.name, c.arity, false);
      }
      case code::CallForm::Construct: {
        const auto cls = find_class(f, c.scope, c.name);
        if (!cls) return std::nullopt;
        const size_t sep = c.name.rfind("::");
        const std::string own = sep == std::string::npos ? c.name : c.name.substr(sep + 2);
        return method(*cls, own, c.arity, true);
      }
    }
    return std::nullopt;
  }

  void calls(uint32_t f) {
    const bool cpp = facts_[f]->package == "c++";
    cpp_caller_ = cpp;
    for (const code::Call& c : facts_[f]->calls) {
      // C++: a free function named without a qualifier is found by argument-dependent lookup
      // and `using` declarations too (`using std::sin; sin(x)`), so the name must name one
      // function in the whole tree; a call of a function from itself is more often another
      // overload of the same arity (forwarding) than recursion.
      if (const auto target = callee(f, c)) {
        if (cpp && *target == defs_.id(f, c.scope)) continue;
        out_.push_back({entity(f, c.scope), defs_.entity(*target), Relation::Calls});
      }
    }
  }

  const ResolverInput& input_;
  std::vector<Edge>& out_;
  const FileSelection& selection_;
  std::vector<const code::CodeFacts*> facts_;
  std::optional<IncludeResolver> includes_resolver_;
  std::vector<std::vector<uint32_t>> includes_;
  std::vector<std::vector<const code::Import*>> ambiguous_;  // includes decided per build
  code::DefinitionIndex defs_;
  std::unordered_map<std::string, std::vector<DefId>> classes_;
  std::unordered_map<std::string, std::vector<DefId>> functions_;
  std::unordered_map<uint32_t, std::vector<DefId>> methods_;  // by class
  std::unordered_map<std::string, std::vector<uint32_t>> declared_;
  std::vector<DefId> included_;  // free_function's scratch, reused across calls
  std::vector<DefId> global_;
  std::unordered_map<std::string, uint32_t> simple_counts_;  // free functions by simple name
  bool cpp_caller_ = false;  // the file whose calls are being resolved is C++
  std::unordered_map<std::string, std::optional<DefId>> class_memo_;
  std::vector<uint32_t> stamp_;
  uint32_t closed_ = UINT32_MAX;
};

}  // namespace

void resolve(const ResolverInput& input, std::vector<Edge>& edges,
             const FileSelection& selection) {
  Resolver(input, edges, selection).run();
}

}  // namespace anchorfs::analysis::cfamily
