// Java overload selection: subtyping over repository types and the java.lang types literals and
// boxing produce, the three applicability phases and the most specific method of JLS 15.12.2.
#include "analysis/java/overloads.h"

#include <algorithm>
#include <array>
#include <utility>

namespace anchorfs::analysis::java {
namespace {

constexpr std::array<std::string_view, 8> kPrimitives = {"byte", "short", "char",  "int",
                                                         "long", "float", "double", "boolean"};

// Widening primitive conversion (JLS 5.1.2) or identity; it is also primitive subtyping (4.10.1).
bool widens(std::string_view from, std::string_view to) {
  if (from == to) return true;
  static constexpr std::pair<std::string_view, std::string_view> kWider[] = {
      {"byte", "short|int|long|float|double"}, {"short", "int|long|float|double"},
      {"char", "int|long|float|double"},       {"int", "long|float|double"},
      {"long", "float|double"},                {"float", "double"}};
  for (const auto& [narrow, wider] : kWider) {
    if (narrow != from) continue;
    for (size_t at = 0; at <= wider.size();) {
      const size_t bar = std::min(wider.find('|', at), wider.size());
      if (wider.substr(at, bar - at) == to) return true;
      at = bar + 1;
    }
  }
  return false;
}

constexpr std::pair<std::string_view, std::string_view> kBoxes[] = {
    {"boolean", "java.lang.Boolean"}, {"byte", "java.lang.Byte"},
    {"short", "java.lang.Short"},     {"char", "java.lang.Character"},
    {"int", "java.lang.Integer"},     {"long", "java.lang.Long"},
    {"float", "java.lang.Float"},     {"double", "java.lang.Double"}};

// Every supertype of the java.lang classes literals, boxing and string concatenation produce
// (JDK 17), so a parameter of any other type is known not to accept them.
struct Supertypes {
  std::string_view type;
  std::array<std::string_view, 6> supers;
};
constexpr Supertypes kLibrary[] = {
    {"java.lang.Object", {}},
    {"java.lang.String",
     {"java.io.Serializable", "java.lang.Comparable", "java.lang.CharSequence",
      "java.lang.constant.Constable", "java.lang.constant.ConstantDesc"}},
    {"java.lang.Number", {"java.io.Serializable"}},
    {"java.lang.Boolean", {"java.io.Serializable", "java.lang.Comparable", "java.lang.constant.Constable"}},
    {"java.lang.Character",
     {"java.io.Serializable", "java.lang.Comparable", "java.lang.constant.Constable"}},
    {"java.lang.Byte",
     {"java.lang.Number", "java.io.Serializable", "java.lang.Comparable",
      "java.lang.constant.Constable"}},
    {"java.lang.Short",
     {"java.lang.Number", "java.io.Serializable", "java.lang.Comparable",
      "java.lang.constant.Constable"}},
    {"java.lang.Integer",
     {"java.lang.Number", "java.io.Serializable", "java.lang.Comparable",
      "java.lang.constant.Constable", "java.lang.constant.ConstantDesc"}},
    {"java.lang.Long",
     {"java.lang.Number", "java.io.Serializable", "java.lang.Comparable",
      "java.lang.constant.Constable", "java.lang.constant.ConstantDesc"}},
    {"java.lang.Float",
     {"java.lang.Number", "java.io.Serializable", "java.lang.Comparable",
      "java.lang.constant.Constable", "java.lang.constant.ConstantDesc"}},
    {"java.lang.Double",
     {"java.lang.Number", "java.io.Serializable", "java.lang.Comparable",
      "java.lang.constant.Constable", "java.lang.constant.ConstantDesc"}},
};

// java.lang types a simple name denotes when no repository type and no import claims it (the
// ones overload selection compares by name).
constexpr std::string_view kJavaLang[] = {
    "Boolean", "Byte",     "CharSequence", "Character", "Class",        "Cloneable",
    "Comparable", "Double", "Enum",        "Float",     "Integer",      "Iterable",
    "Long",    "Number",   "Object",       "Runnable",  "Short",        "String",
    "StringBuilder", "Throwable", "Exception", "RuntimeException", "Void"};

std::string_view unqualified_part(std::string_view name) {
  const size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

Answer all_of(std::initializer_list<Answer> answers) {
  Answer out = Answer::Yes;
  for (Answer a : answers) {
    if (a == Answer::No) return Answer::No;
    if (a == Answer::Unknown) out = Answer::Unknown;
  }
  return out;
}

StaticType array_element(StaticType t, uint32_t dims) {
  t.dims -= dims;
  return t;
}

}  // namespace

StaticType Overloads::written_type(uint32_t file, uint32_t scope, std::string_view written) {
  StaticType out;
  while (written.ends_with("[]")) {
    written.remove_suffix(2);
    ++out.dims;
  }
  if (written.empty() || written.ends_with(')')) return {};
  if (written.starts_with('<') && written.ends_with('>')) {
    StaticType erasure = written_type(file, scope, written.substr(1, written.size() - 2));
    if (erasure.kind != StaticType::Kind::Reference) return {};
    erasure.dims += out.dims;
    erasure.variable = true;
    return erasure;
  }
  if (std::find(kPrimitives.begin(), kPrimitives.end(), written) != kPrimitives.end()) {
    out.kind = StaticType::Kind::Primitive;
    out.name = std::string(written);
    return out;
  }
  if (written == "null") {
    out.kind = out.dims == 0 ? StaticType::Kind::Null : StaticType::Kind::Unknown;
    return out;
  }
  out.kind = StaticType::Kind::Reference;
  out.type = types_.resolve_type_quietly(file, scope, written);
  if (out.type != kNone) {
    out.name = types_.fqn(out.type);
    return out;
  }
  // A library type: its package is evident from a qualified name, an import, or java.lang.
  if (written.find('.') != std::string_view::npos) {
    out.qualified = written[0] >= 'a' && written[0] <= 'z';
    out.name = std::string(out.qualified ? written : unqualified_part(written));
    return out;
  }
  for (const code::Import& import : types_.facts(file).imports) {
    if (import.name.empty() && unqualified_part(import.source) == written) {
      out.name = import.source;
      return out;
    }
    if (import.name == written) {
      out.name = import.source + "." + std::string(written);
      return out;
    }
  }
  if (std::find(std::begin(kJavaLang), std::end(kJavaLang), written) != std::end(kJavaLang)) {
    out.name = "java.lang." + std::string(written);
    return out;
  }
  out.name = std::string(written);
  out.qualified = false;
  return out;
}

const Candidate& Overloads::candidate(uint32_t g) {
  if (made_at_[g] == kNone) {
    made_at_[g] = static_cast<uint32_t>(made_.size());
    made_.push_back(make_candidate(g));
  }
  return made_[made_at_[g]];
}

Candidate Overloads::make_candidate(uint32_t g) {
  const code::Definition& def = types_.definition(g);
  Candidate out;
  out.method = g;
  out.variadic = def.variadic;
  if (def.parameter_types.size() != def.arity) {
    out.parameters.resize(def.arity);  // not recorded: every parameter Unknown
    return out;
  }
  for (const std::string& written : def.parameter_types) {
    // Java parameters are recorded without a type only when it is a reference one.
    StaticType parameter;
    parameter.kind = StaticType::Kind::AnyReference;
    if (!written.empty()) parameter = written_type(types_.file_of(g), types_.local_of(g), written);
    out.parameters.push_back(std::move(parameter));
  }
  return out;
}

bool Overloads::is_object(const StaticType& t) const {
  return t.kind == StaticType::Kind::Reference && t.dims == 0 && t.qualified &&
         t.name == "java.lang.Object";
}

// `sub` <: `super` for reference (or null) `sub` and reference or array `super`.
Answer Overloads::subtype(const StaticType& sub, const StaticType& super) {
  using Kind = StaticType::Kind;
  if (sub.kind == Kind::Unknown || super.kind == Kind::Unknown) return Answer::Unknown;
  if (super.primitive()) return Answer::No;
  if (sub.kind == Kind::Null) return Answer::Yes;
  if (sub.kind == Kind::AnyReference) return is_object(super) ? Answer::Yes : Answer::Unknown;
  if (super.kind == Kind::AnyReference) return Answer::Unknown;
  if (sub.dims > 0) {
    if (super.dims == 0) {
      // Arrays are Objects, Cloneable and Serializable (JLS 4.10.3).
      if (is_object(super)) return Answer::Yes;
      const std::string_view name = super.qualified ? super.name : unqualified_part(super.name);
      if (name == "java.lang.Cloneable" || name == "java.io.Serializable") return Answer::Yes;
      if (super.qualified || super.type != kNone) return Answer::No;
      return name == "Cloneable" || name == "Serializable" ? Answer::Unknown : Answer::No;
    }
    if (super.dims > sub.dims) return Answer::No;
    if (sub.kind == Kind::Primitive || super.kind == Kind::Primitive) {
      return sub.kind == super.kind && sub.dims == super.dims && sub.name == super.name
                 ? Answer::Yes
                 : Answer::No;
    }
    return subtype(array_element(sub, super.dims), array_element(super, super.dims));
  }
  if (super.dims > 0 || sub.kind != Kind::Reference) return Answer::No;
  if (is_object(super)) return Answer::Yes;
  if (sub.type != kNone && sub.type == super.type) return Answer::Yes;
  if (sub.qualified) {
    for (const Supertypes& known : kLibrary) {
      if (known.type != sub.name) continue;
      // Its supertypes are all known: compare by name.
      const auto names = [&](auto&& same) {
        if (same(known.type)) return true;
        return std::any_of(known.supers.begin(), known.supers.end(),
                           [&](std::string_view s) { return !s.empty() && same(s); });
      };
      if (super.qualified && !super.name.empty()) {
        return names([&](std::string_view s) { return s == super.name; }) ? Answer::Yes
                                                                          : Answer::No;
      }
      const std::string_view simple = unqualified_part(super.name);
      return names([&](std::string_view s) { return unqualified_part(s) == simple; }) ? Answer::Unknown
                                                                                 : Answer::No;
    }
  }
  if (sub.type != kNone) {
    if (super.type != kNone) {
      const std::vector<uint32_t>& chain = types_.chain(sub.type);
      if (std::find(chain.begin(), chain.end(), super.type) != chain.end()) return Answer::Yes;
    }
    // Every supertype in the repository: only those (and Object) are supertypes.
    return types_.chain_complete(sub.type) ? Answer::No : Answer::Unknown;
  }
  if (sub.qualified && super.qualified && sub.name == super.name) return Answer::Yes;
  return Answer::Unknown;
}

// Strict (no boxing) or loose invocation compatibility (JLS 5.3).
Answer Overloads::compatible(const StaticType& argument, const StaticType& parameter, bool loose) {
  using Kind = StaticType::Kind;
  if (argument.kind == Kind::Unknown || parameter.kind == Kind::Unknown) return Answer::Unknown;
  if (parameter.primitive()) {
    if (argument.primitive()) return widens(argument.name, parameter.name) ? Answer::Yes : Answer::No;
    if (!loose || argument.kind != Kind::Reference || argument.dims > 0) return Answer::No;
    if (!argument.qualified) return Answer::No;  // not a java.lang box
    for (const auto& [primitive, box] : kBoxes) {
      if (box == argument.name) return widens(primitive, parameter.name) ? Answer::Yes : Answer::No;
    }
    return Answer::No;
  }
  if (argument.primitive()) {
    if (!loose) return Answer::No;
    if (parameter.kind == Kind::AnyReference) return Answer::Unknown;
    for (const auto& [primitive, box] : kBoxes) {
      if (primitive != argument.name) continue;
      StaticType boxed;
      boxed.kind = Kind::Reference;
      boxed.name = std::string(box);
      return subtype(boxed, parameter);
    }
    return Answer::No;
  }
  return subtype(argument, parameter);
}

namespace {

// Parameter `i` of `c` for `arguments` arguments: in phases 1 and 2 a variadic method takes its
// last parameter as an array; in phase 3 that parameter's element type repeats.
StaticType parameter_at(const Candidate& c, size_t i, int phase) {
  const size_t last = c.parameters.size() - 1;
  if (!c.variadic || i < last) return c.parameters[i];
  StaticType t = c.parameters[last];
  if (phase < 3 && t.kind != StaticType::Kind::Unknown) {
    if (t.kind == StaticType::Kind::Null) return {};
    ++t.dims;
  }
  return t;
}

}  // namespace

Answer Overloads::applicable(const Candidate& c, std::span<const StaticType> arguments,
                             int phase) {
  const size_t n = arguments.size();
  if (phase < 3 && c.parameters.size() != n) return Answer::No;
  if (phase == 3 && (!c.variadic || n + 1 < c.parameters.size())) return Answer::No;
  Answer out = Answer::Yes;
  for (size_t i = 0; i < n; ++i) {
    out = all_of({out, compatible(arguments[i], parameter_at(c, i, phase), phase > 1)});
    if (out == Answer::No) return out;
  }
  return out;
}

// JLS 15.12.2.5 for methods that are not generic: each parameter type of `a` a subtype of `b`'s.
bool Overloads::more_specific(const Candidate& a, const Candidate& b, size_t arguments,
                              int phase) {
  const auto below = [&](const StaticType& s, const StaticType& t) {
    if (s.primitive() && t.primitive()) return widens(s.name, t.name);
    if (s.primitive() || t.primitive()) return false;
    return subtype(s, t) == Answer::Yes;
  };
  for (size_t i = 0; i < arguments; ++i) {
    if (!below(parameter_at(a, i, phase), parameter_at(b, i, phase))) return false;
  }
  if (phase == 3 && b.parameters.size() == arguments + 1) {
    return below(parameter_at(a, arguments, phase), parameter_at(b, arguments, phase));
  }
  return true;
}

bool Overloads::may_override(const Candidate& a, const Candidate& b) {
  if (a.parameters.size() != b.parameters.size() || a.variadic != b.variadic) return false;
  for (size_t i = 0; i < a.parameters.size(); ++i) {
    const StaticType& s = a.parameters[i];
    const StaticType& t = b.parameters[i];
    // A type variable's erasure may stand for what the other one names.
    using Kind = StaticType::Kind;
    if (s.kind == Kind::Unknown || t.kind == Kind::Unknown || s.kind == Kind::AnyReference ||
        t.kind == Kind::AnyReference || s.variable || t.variable) {
      continue;
    }
    if (s.kind != t.kind || s.dims != t.dims || s.type != t.type || s.qualified != t.qualified ||
        s.name != t.name) {
      return false;
    }
  }
  return true;
}

Overloads::Selection Overloads::select(std::span<const Candidate* const> candidates,
                                       std::span<const StaticType> arguments) {
  for (int phase = 1; phase <= 3; ++phase) {
    std::vector<const Candidate*> applicable_here;
    for (const Candidate* candidate : candidates) {
      const Candidate& c = *candidate;
      const Answer a = applicable(c, arguments, phase);
      if (a == Answer::Yes) applicable_here.push_back(&c);
      if (a != Answer::Unknown) continue;
      // Undecidable, unless an applicable method of a subtype may override it (`accept(T)` of
      // a generic interface implemented as `accept(double)`): then it is that method.
      const bool overridden =
          std::any_of(applicable_here.begin(), applicable_here.end(),
                      [&](const Candidate* nearer) { return may_override(*nearer, c); });
      if (!overridden) return {};
    }
    if (applicable_here.empty()) continue;
    // The first one more specific than every other; one it may override comes later (a
    // supertype's) and counts as the same method.
    for (size_t i = 0; i < applicable_here.size(); ++i) {
      const Candidate& w = *applicable_here[i];
      bool best = true;
      for (size_t j = 0; j < applicable_here.size() && best; ++j) {
        const Candidate& other = *applicable_here[j];
        best = i == j || (j > i && may_override(w, other)) ||
               more_specific(w, other, arguments.size(), phase);
      }
      if (best) return {true, w.method};
    }
    return {true, kNone};
  }
  return {};
}

}  // namespace anchorfs::analysis::java
