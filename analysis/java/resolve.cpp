// Java resolution: edges from the type index, and call sites resolved through the receiver's
// declared type and arity (precision first: an uncertain call gets no edge).
#include "analysis/java/resolve.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/file_edges.h"
#include "analysis/java/overloads.h"
#include "analysis/java/type_index.h"

namespace anchorfs::analysis::java {
namespace {

bool is_method(const code::Definition& d) {
  return d.kind == EntityKind::Function && d.role == "method";
}

bool accepts(const code::Definition& d, uint32_t arity, bool variadic_phase) {
  if (variadic_phase) return d.variadic && arity + 1 >= d.arity;
  return !d.variadic && d.arity == arity;
}

// CamelCase with a capital first: how Java spells types (a constant is all capitals, a
// variable starts lower case).
bool spelled_as_type(std::string_view name) {
  return !name.empty() && name[0] >= 'A' && name[0] <= 'Z' &&
         std::any_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// Typed names of every file by (scope, name), and what each one's type resolves to.
class Variables {
 public:
  // Types a call chain (a `var` initialised by a call: "f(0)", "x.g(1)") at (file, scope).
  using ChainTyper = std::function<uint32_t(uint32_t file, uint32_t scope, std::string_view)>;
  void set_chain_typer(ChainTyper typer) { chain_typer_ = std::move(typer); }

  // Each file's names are sorted on its own, files side by side.
  explicit Variables(TypeIndex& types) : types_(types), sorted_(types.file_count()) {
    resolved_.resize(types.file_count());
    tbb::parallel_for(uint32_t{0}, types.file_count(), [&](uint32_t f) {
      const auto& names = types.facts(f).typed_names;
      auto& order = sorted_[f];
      order.resize(names.size());
      for (uint32_t i = 0; i < names.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(names[a].scope, names[a].name, a) <
               std::tie(names[b].scope, names[b].name, b);
      });
      resolved_[f].assign(names.size(), kUnset);
    });
  }

  // Where the declarations of `name` directly in definition `scope` of `file` start in the
  // file's sorted order (sorted_), if there are any.
  std::vector<uint32_t>::const_iterator first_declared(uint32_t file, uint32_t scope,
                                                       std::string_view name) const {
    const auto& names = types_.facts(file).typed_names;
    const auto& order = sorted_[file];
    return std::lower_bound(order.begin(), order.end(), std::make_pair(scope, name),
                            [&](uint32_t i, const std::pair<uint32_t, std::string_view>& key) {
                              return std::make_pair(names[i].scope,
                                                    std::string_view(names[i].name)) < key;
                            });
  }

  // The type of `name` declared directly in definition `scope` of `file`: kNone when it is
  // declared there without a repository type (or with two different ones), `missing` when it
  // is not declared there at all.
  static constexpr uint32_t kMissing = UINT32_MAX - 1;
  uint32_t declared_in(uint32_t file, uint32_t scope, std::string_view name) {
    const auto& names = types_.facts(file).typed_names;
    const auto& order = sorted_[file];
    auto it = first_declared(file, scope, name);
    uint32_t type = kMissing;
    for (; it != order.end() && names[*it].scope == scope && names[*it].name == name; ++it) {
      const uint32_t t = type_of(file, *it);
      if (type != kMissing && t != type) return kNone;
      type = t;
    }
    return type;
  }

  // The declarations of `name` directly in definition `scope` of `file`, when they all write one
  // type: nullptr with `found` false when there is none, nullptr with `found` true when they
  // disagree.
  const code::TypedName* written_in(uint32_t file, uint32_t scope, std::string_view name,
                                    bool& found) const {
    const auto& names = types_.facts(file).typed_names;
    const auto& order = sorted_[file];
    auto it = first_declared(file, scope, name);
    const code::TypedName* out = nullptr;
    found = false;
    for (; it != order.end() && names[*it].scope == scope && names[*it].name == name; ++it) {
      if (found && (out == nullptr || out->type != names[*it].type)) return nullptr;
      found = true;
      out = &names[*it];
    }
    return out;
  }

  // The repository type a call chain written as a variable's type ("f(0)") resolves to.
  uint32_t chain_type(uint32_t file, const code::TypedName& name) {
    return type_of(file, static_cast<uint32_t>(&name - types_.facts(file).typed_names.data()));
  }

  // Resolves every typed name once (so a file's uses of types through its package and
  // on-demand imports are all recorded, whether or not a call needs them). A written type's
  // answer needs only the settled index, so files take theirs side by side; the call chains of
  // `var`s then follow in file order, one thread, as each may read another's answer.
  void resolve_all() {
    tbb::parallel_for(uint32_t{0}, types_.file_count(), [&](uint32_t f) {
      const auto& names = types_.facts(f).typed_names;
      for (uint32_t i = 0; i < names.size(); ++i) {
        if (!names[i].type.ends_with(')')) type_of(f, i);
      }
    });
    for (uint32_t f = 0; f < types_.file_count(); ++f) {
      for (uint32_t i = 0; i < resolved_[f].size(); ++i) type_of(f, i);
    }
  }

 private:
  static constexpr uint32_t kUnset = UINT32_MAX - 2;
  uint32_t type_of(uint32_t file, uint32_t i) {
    uint32_t& memo = resolved_[file][i];
    if (memo == kUnset) {
      const code::TypedName& t = types_.facts(file).typed_names[i];
      if (t.type.ends_with(')')) {
        memo = kNone;  // while typing the chain: `var x = x.f();` is not evident
        const uint32_t type = chain_typer_ ? chain_typer_(file, t.scope, t.type) : kNone;
        resolved_[file][i] = type;
        return type;
      }
      memo = types_.resolve_type(file, t.scope, t.type);
    }
    return memo;
  }

  TypeIndex& types_;
  ChainTyper chain_typer_;
  std::vector<std::vector<uint32_t>> sorted_;
  std::vector<std::vector<uint32_t>> resolved_;
};

class CallResolver {
 public:
  CallResolver(TypeIndex& types, Variables& variables)
      : types_(types), variables_(variables), overloads_(types) {}

  // The callee of one call site, or kNone.
  uint32_t resolve(uint32_t file, const code::Call& call) {
    switch (call.form) {
      case code::CallForm::Plain:
        return unqualified(file, call);
      case code::CallForm::Member:
        return qualified(file, call);
      case code::CallForm::Construct:
        return construct(file, call);
      case code::CallForm::Path:
        return kNone;  // not produced for Java
    }
    return kNone;
  }

 private:
  // The innermost class at or around definition `local` of `file`, or kNone.
  uint32_t enclosing_class(uint32_t file, uint32_t local) {
    for (uint32_t d = local; d != 0;) {
      const code::Definition& def = types_.facts(file).definitions[d];
      if (def.kind == EntityKind::Class) return types_.global(file, d);
      d = def.parent;
    }
    return kNone;
  }

  bool declares_method(uint32_t type, std::string_view name) {
    const NameKey key(name);
    for (uint32_t t : types_.chain(type)) {
      for (uint32_t m : types_.children_named(t, key)) {
        if (is_method(types_.definition(m))) return true;
      }
    }
    return false;
  }

  // A call's argument types and the outermost definition around it (private members are
  // accessible within their own outermost class only).
  struct CallArguments {
    std::vector<StaticType> types;
    uint32_t outermost = kNone;
  };
  using Arguments = std::optional<CallArguments>;

  uint32_t outermost(uint32_t file, uint32_t local) const {
    while (local != 0 && types_.facts(file).definitions[local].parent != 0) {
      local = types_.facts(file).definitions[local].parent;
    }
    return types_.global(file, local);
  }

  // Each argument's static type, or nullopt when the call records none or none is evident.
  Arguments argument_types(uint32_t file, const code::Call& call) {
    if (call.argument_types.size() != call.arity || call.arity == 0) return std::nullopt;
    CallArguments out;
    out.outermost = outermost(file, call.scope);
    bool any = false;
    for (const std::string& written : call.argument_types) {
      out.types.push_back(argument_type(file, call.scope, written));
      any = any || out.types.back().kind != StaticType::Kind::Unknown;
    }
    if (!any) return std::nullopt;
    return out;
  }

  StaticType argument_type(uint32_t file, uint32_t scope, std::string_view written) {
    if (written == "this") {
      const uint32_t c = enclosing_class(file, scope);
      if (c == kNone) return {};
      return {StaticType::Kind::Reference, types_.fqn(c), true, c, 0};
    }
    if (written.starts_with("call:")) {
      bool skip_self = false;
      const uint32_t type = receiver_type(file, scope, written.substr(5), skip_self);
      if (type == kNone) return {};
      return {StaticType::Kind::Reference, types_.fqn(type), true, type, 0};
    }
    if (!written.starts_with("var:")) return overloads_.written_type(file, scope, written);
    // A variable: its declared type, looked up as a receiver's is; `x.f`, `this.f`: field f of
    // x's type.
    const std::string_view name = written.substr(4);
    if (const size_t dot = name.find('.'); dot != std::string_view::npos) {
      const std::string_view object = name.substr(0, dot);
      const uint32_t type = object == "this" ? enclosing_class(file, scope)
                                             : variable_type(file, scope, object);
      if (type == kNone || type == Variables::kMissing) return {};
      return field_declared_type(type, name.substr(dot + 1)).value_or(StaticType{});
    }
    for (uint32_t d = scope;;) {
      const uint32_t g = types_.global(file, d);
      if (d != 0 && types_.definition(g).kind == EntityKind::Class) {
        std::optional<StaticType> field = field_declared_type(g, name);
        if (field) return *field;
        if (!types_.chain_complete(g)) return {};  // an unseen supertype may declare it
      } else {
        bool found = false;
        const code::TypedName* declared = variables_.written_in(file, d, name, found);
        if (found) return declared_type(file, declared);
      }
      if (d == 0) return {};
      d = types_.facts(file).definitions[d].parent;
    }
  }

  // The declared type of field `name` of `type` or a supertype; nullopt when none declares it.
  std::optional<StaticType> field_declared_type(uint32_t type, std::string_view name) {
    for (uint32_t t : types_.chain(type)) {
      bool found = false;
      const code::TypedName* declared =
          variables_.written_in(types_.file_of(t), types_.local_of(t), name, found);
      if (found) return declared_type(types_.file_of(t), declared);
    }
    return std::nullopt;
  }

  StaticType declared_type(uint32_t file, const code::TypedName* declared) {
    if (declared == nullptr) return {};
    if (!declared->type.ends_with(')')) {
      return overloads_.written_type(file, declared->scope, declared->type);
    }
    const uint32_t type = variables_.chain_type(file, *declared);
    if (type == kNone) return {};
    return {StaticType::Kind::Reference, types_.fqn(type), true, type, 0};
  }

  // A call site whose argument types are worked out only once two candidates need them (most
  // names have one method of that name in the chain: 18 % of java/util's call-site instructions
  // went to argument types nobody read). Working them out records no use of a type that the
  // call sites nested in the arguments do not record themselves: a "call:" argument's chain is
  // the receiver of such a call site, resolved in the same scope; a "var:" argument's type was
  // resolved with every typed name; written types are resolved quietly.
  struct Lazy {
    uint32_t file;
    const code::Call* call;  // null: no argument types
  };
  // Among candidates of several arities or types, what the argument types select (see
  // Overloads::select), when they decide.
  std::optional<uint32_t> by_argument_types(std::span<const uint32_t> methods, Lazy lazy) {
    if (lazy.call == nullptr || methods.size() < 2) return std::nullopt;
    const Arguments arguments = argument_types(lazy.file, *lazy.call);
    if (!arguments) return std::nullopt;
    std::vector<const Candidate*> candidates;
    for (uint32_t m : methods) {
      const bool accessible = !types_.definition(m).private_scope ||
                              outermost(types_.file_of(m), types_.local_of(m)) ==
                                  arguments->outermost;
      if (accessible) candidates.push_back(&overloads_.candidate(m));
    }
    const Overloads::Selection selection = overloads_.select(candidates, arguments->types);
    if (!selection.decided) return std::nullopt;
    return selection.method;
  }

  // The method `name(arity arguments)` of `type` or, when it declares none of that arity, of the
  // nearest supertype that does (breadth first, superclass before interfaces). Where the argument
  // types are evident, they choose among every method of that name in the chain as javac does
  // (JLS 15.12.2); otherwise fixed-arity methods are preferred to variadic ones, as javac's first
  // phases do, and several candidates of the same arity in one type (overloads by parameter type)
  // give none.
  uint32_t find_method(uint32_t type, std::string_view name, uint32_t arity, bool skip_self,
                       Lazy arguments = Lazy{0, nullptr}) {
    const std::vector<uint32_t>& chain = types_.chain(type);
    const NameKey key(name);
    if (arguments.call != nullptr) {
      std::vector<uint32_t> methods;
      for (size_t i = skip_self ? 1 : 0; i < chain.size(); ++i) {
        for (uint32_t m : types_.children_named(chain[i], key)) {
          if (is_method(types_.definition(m))) methods.push_back(m);
        }
      }
      if (const auto chosen = by_argument_types(methods, arguments)) return *chosen;
    }
    for (bool variadic_phase : {false, true}) {
      for (size_t i = skip_self ? 1 : 0; i < chain.size(); ++i) {
        uint32_t found = kNone;
        for (uint32_t m : types_.children_named(chain[i], key)) {
          const code::Definition& def = types_.definition(m);
          if (!is_method(def) || !accepts(def, arity, variadic_phase)) continue;
          if (found != kNone) return kNone;
          found = m;
        }
        if (found == kNone) continue;
        // A supertype's method of that arity with other parameter types is an overload, not
        // one `found` overrides: which one applies depends on the arguments.
        const Candidate& chosen = overloads_.candidate(found);
        for (size_t j = i + 1; j < chain.size(); ++j) {
          for (uint32_t m : types_.children_named(chain[j], key)) {
            const code::Definition& def = types_.definition(m);
            if (is_method(def) && accepts(def, arity, variadic_phase) &&
                !Overloads::may_override(chosen, overloads_.candidate(m))) {
              return kNone;
            }
          }
        }
        return found;
      }
    }
    return kNone;
  }

  // `m()`: the innermost enclosing class whose members (own or inherited) include a method named
  // m decides (JLS 15.12.1); an enclosing class with a supertype outside the repository may
  // inherit m unseen, so the search stops there. Then single and on-demand static imports.
  uint32_t unqualified(uint32_t file, const code::Call& call) {
    for (uint32_t c = enclosing_class(file, call.scope); c != kNone;
         c = enclosing_class(file, types_.definition(c).parent)) {
      if (declares_method(c, call.name)) {
        return find_method(c, call.name, call.arity, false, Lazy{file, &call});
      }
      if (!types_.chain_complete(c)) return kNone;
    }
    for (bool on_demand : {false, true}) {
      for (const code::Import& import : types_.facts(file).imports) {
        if (import.name != (on_demand ? std::string_view("*") : std::string_view(call.name))) {
          continue;
        }
        const uint32_t type = types_.by_fqn(import.source, file);
        if (type != kNone && declares_method(type, call.name)) {
          return find_method(type, call.name, call.arity, false, Lazy{file, &call});
        }
      }
    }
    return kNone;
  }

  // The field `name` of `type` or a supertype: its type, kNone when it has no repository type,
  // Variables::kMissing when there is no such field.
  uint32_t field_type(uint32_t type, std::string_view name) {
    for (uint32_t t : types_.chain(type)) {
      const uint32_t found = variables_.declared_in(types_.file_of(t), types_.local_of(t), name);
      if (found != Variables::kMissing) return found;
    }
    return Variables::kMissing;
  }

  // A variable named `name` visible at `scope`: locals and parameters of the enclosing
  // definitions, fields of the enclosing classes and their supertypes, innermost first.
  uint32_t variable_type(uint32_t file, uint32_t scope, std::string_view name) {
    for (uint32_t d = scope;;) {
      const uint32_t g = types_.global(file, d);
      if (d != 0 && types_.definition(g).kind == EntityKind::Class) {
        const uint32_t found = field_type(g, name);
        if (found != Variables::kMissing) return found;
        // An unseen supertype may declare it, unless it is spelled as Java spells types
        // (`Helper.run()` in a class extending a library class is a static call).
        if (!types_.chain_complete(g) && !spelled_as_type(name)) return kNone;
      } else {
        const uint32_t found = variables_.declared_in(file, d, name);
        if (found != Variables::kMissing) return found;
      }
      if (d == 0) return Variables::kMissing;
      d = types_.facts(file).definitions[d].parent;
    }
  }

  // The declared result type of method `g` when it is a repository type, else kNone.
  uint32_t result_type(uint32_t g) {
    if (g == kNone) return kNone;
    const uint32_t type = variables_.declared_in(types_.file_of(g), types_.local_of(g), "return");
    return type == Variables::kMissing ? kNone : type;
  }

  // "name(N)": a call written in a receiver, with its argument count.
  static bool split_call(std::string_view part, std::string_view& name, uint32_t& arity) {
    if (!part.ends_with(')')) return false;
    const size_t open = part.find('(');
    if (open == std::string_view::npos) return false;
    name = part.substr(0, open);
    const std::string_view digits = part.substr(open + 1, part.size() - open - 2);
    return std::from_chars(digits.data(), digits.data() + digits.size(), arity).ec == std::errc();
  }

 public:
  // The static type of a receiver as the facts write it (a variable, a type named for a static
  // call, `this`, `super`, `Outer.this`, a field chain, calls with declared results), or kNone;
  // `skip_self` says the method is looked up from the supertypes (`super.m()`).
  uint32_t receiver_type(uint32_t file, uint32_t scope, std::string_view receiver,
                         bool& skip_self) {
    skip_self = false;
    if (receiver.starts_with("new ") || receiver.starts_with("(")) {
      const std::string_view written = receiver.starts_with("new ")
                                           ? receiver.substr(4)
                                           : receiver.substr(1, receiver.size() - 2);
      return types_.resolve_type(file, scope, written);
    }
    std::vector<std::string_view> parts;
    for (size_t at = 0; at <= receiver.size();) {
      const size_t dot = std::min(receiver.find('.', at), receiver.size());
      parts.push_back(receiver.substr(at, dot - at));
      at = dot + 1;
    }
    uint32_t type = kNone;
    size_t next = 1;
    std::string_view name;
    uint32_t arity = 0;
    if (parts[0] == "this" || parts[0] == "super") {
      type = enclosing_class(file, scope);
      skip_self = parts[0] == "super";
    } else if (split_call(parts[0], name, arity)) {
      type = result_type(unqualified(file, {scope, code::CallForm::Plain, "", std::string(name),
                                            0, arity}));
    } else {
      const uint32_t variable = variable_type(file, scope, parts[0]);
      if (variable != Variables::kMissing) {
        type = variable;
      } else {
        // A type: the longest prefix naming one ("Outer.Inner", "com.x.T") before any call.
        size_t names = 0;
        while (names < parts.size() && !parts[names].ends_with(')')) ++names;
        for (next = names; next > 0; --next) {
          const char* end = parts[next - 1].data() + parts[next - 1].size();
          type = types_.resolve_type(
              file, scope,
              std::string_view(receiver.data(), static_cast<size_t>(end - receiver.data())));
          if (type != kNone) break;
        }
      }
    }
    for (; next < parts.size() && type != kNone; ++next) {
      if (parts[next] == "this") continue;  // Outer.this
      if (parts[next] == "super") {
        // Outer.super.m(): Outer's superclass; I.super.m(): the interface I itself.
        skip_self = types_.definition(type).role != "interface";
        continue;
      }
      if (split_call(parts[next], name, arity)) {
        type = result_type(find_method(type, name, arity, skip_self));
        skip_self = false;
        continue;
      }
      const uint32_t field = field_type(type, parts[next]);
      type = field == Variables::kMissing ? kNone : field;
    }
    return type;
  }

 private:
  // `receiver.m()`: m in the chain of the receiver's static type.
  uint32_t qualified(uint32_t file, const code::Call& call) {
    bool skip_self = false;
    const uint32_t type = receiver_type(file, call.scope, call.receiver, skip_self);
    if (type == kNone) return kNone;
    return find_method(type, call.name, call.arity, skip_self, Lazy{file, &call});
  }

  // A constructor of `type` taking `arity` arguments; a class or record declaring none gets the
  // edge itself (its implicit constructor has no definition of its own).
  uint32_t constructor_of(uint32_t type, uint32_t arity, Lazy arguments) {
    const code::Definition& def = types_.definition(type);
    if (def.kind != EntityKind::Class) return kNone;
    const NameKey key(def.name);
    if (arguments.call != nullptr) {
      std::vector<uint32_t> constructors;
      for (uint32_t c : types_.children_named(type, key)) {
        const code::Definition& ctor = types_.definition(c);
        if (ctor.kind == EntityKind::Function && ctor.role == "constructor") constructors.push_back(c);
      }
      if (const auto chosen = by_argument_types(constructors, arguments)) return *chosen;
    }
    bool declared = false;
    for (bool variadic_phase : {false, true}) {
      uint32_t found = kNone;
      for (uint32_t c : types_.children_named(type, key)) {
        const code::Definition& ctor = types_.definition(c);
        if (ctor.kind != EntityKind::Function || ctor.role != "constructor") continue;
        declared = true;
        if (!accepts(ctor, arity, variadic_phase)) continue;
        if (found != kNone) return kNone;
        found = c;
      }
      if (found != kNone) return found;
    }
    if (declared) return kNone;
    return def.role == "class" || def.role == "record" ? type : kNone;
  }

  uint32_t construct(uint32_t file, const code::Call& call) {
    if (call.name == "this" || call.name == "super") {
      const uint32_t c = enclosing_class(file, call.scope);
      if (c == kNone) return kNone;
      if (call.name == "this") return constructor_of(c, call.arity, Lazy{file, &call});
      for (uint32_t base : types_.bases(c)) {
        if (types_.definition(base).role == "class") {
          return constructor_of(base, call.arity, Lazy{file, &call});
        }
      }
      return kNone;
    }
    const uint32_t type = types_.resolve_type(file, call.scope, call.name);
    return type == kNone ? kNone : constructor_of(type, call.arity, Lazy{file, &call});
  }

  TypeIndex& types_;
  Variables& variables_;
  Overloads overloads_;
};

}  // namespace

// Supertypes are resolved first, in file order (a cycle's answer depends on where it was entered);
// with the index settled, typed names and then call sites resolve file by file on any thread
// (each thread with its own CallResolver and its own memos), their edges joined in file order,
// so the edges are the same whatever the thread count.
void resolve(const ResolverInput& input, std::vector<Edge>& edges) {
  TypeIndex types(input);
  for (uint32_t f = 0; f < types.file_count(); ++f) {
    const auto& defs = types.facts(f).definitions;
    for (uint32_t d = 1; d < defs.size(); ++d) {
      if (defs[d].kind != EntityKind::Class) continue;
      const uint32_t g = types.global(f, d);
      for (uint32_t base : types.bases(g)) {
        edges.push_back({types.entity(g), types.entity(base), Relation::Inherits});
      }
    }
  }
  types.settle();
  Variables variables(types);
  tbb::enumerable_thread_specific<CallResolver> resolvers(
      [&] { return CallResolver(types, variables); });
  // This thread's resolver types the `var` chains, and keeps the overload candidates it made.
  CallResolver& chains = resolvers.local();
  variables.set_chain_typer([&chains](uint32_t file, uint32_t scope, std::string_view chain) {
    bool skip_self = false;
    return chains.receiver_type(file, scope, chain, skip_self);
  });
  variables.resolve_all();
  variables.set_chain_typer(nullptr);  // every name's type is known from here on
  std::vector<std::vector<Edge>> by_file(types.file_count());
  tbb::parallel_for(uint32_t{0}, types.file_count(), [&](uint32_t f) {
    CallResolver& calls = resolvers.local();
    for (const code::Call& call : types.facts(f).calls) {
      const uint32_t callee = calls.resolve(f, call);
      if (callee == kNone) continue;
      by_file[f].push_back({types.entity(types.global(f, call.scope)), types.entity(callee),
                            Relation::Calls});
    }
  });
  join_file_edges(by_file, edges);
  types.record_import_declarations();
  for (const auto& [from, to] : types.uses()) {
    edges.push_back({types.file_entity(from), types.file_entity(to), Relation::Imports});
  }
}

}  // namespace anchorfs::analysis::java
