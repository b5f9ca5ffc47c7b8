// Facts of a file in a brace language (JS/TS, Go, Java, Rust): an outline plus raw references.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/language_facts.h"

namespace anchorfs::analysis::code {

// A class-like or function-like definition. Index 0 of CodeFacts::definitions is the file.
struct Definition {
  EntityKind kind = EntityKind::Function;
  uint32_t parent = 0;  // an earlier definition, 0 for top level
  std::string name;     // simple name
  uint32_t line = 1;    // 1-based line of the definition's name
  bool has_anchor = false;
  uint64_t anchor_offset = 0;  // start of a line: above doc comments, annotations, attributes
  std::string anchor_indent;   // that line's leading whitespace
  // The language's word for it ("struct", "interface", "trait", "enum", "impl", "method",
  // "constructor", ...): resolution reads it, the core does not.
  std::string role;
  // The type a method belongs to when that is not its parent definition (a Go receiver type, the
  // type of a Rust impl block, a JS `X.prototype.m = ...`), as written.
  std::string owner;
  // Supertypes as written: extends / implements / embedded types / `impl Trait for`.
  std::vector<std::string> bases;
  bool exported = false;  // visible outside its module as the language defines it
  // A function's parameter count, the last one variadic when `variadic` (Java `T... xs`): where a
  // language overloads by arity, resolution picks among same-named functions with it.
  uint32_t arity = 0;
  bool variadic = false;
  // Each parameter's type as written, generic arguments removed (a variadic one's element type),
  // "" where the front end cannot tell it; empty where the language overloads by arity only.
  // Resolution picks among overloads of one arity with them.
  std::vector<std::string> parameter_types{};
  // Visible only inside the outermost definition around it (a Java `private` member): overload
  // selection leaves it out of calls from elsewhere.
  bool private_scope = false;

  friend bool operator==(const Definition&, const Definition&) = default;
};

// An import, use or require as written.
struct Import {
  std::string source;  // the module, package or path ("./util", "example.com/m/pkg", "a.b.C")
  std::string name;    // the imported member, "" for the whole module, "*" for a wildcard
  std::string alias;   // the local name it binds, "" when it binds none of its own
  uint32_t line = 1;
  bool reexport = false;  // `export ... from`, `pub use`
  // The innermost enclosing definition, 0 at file level: where a language scopes imports to a
  // block (a Rust `use` inside `mod tests { ... }` or a function body).
  uint32_t scope = 0;

  friend bool operator==(const Import&, const Import&) = default;
};

enum class CallForm : uint8_t {
  Plain,      // f()
  Member,     // receiver.f(): receiver is "this", "self", "super", an identifier or a path
  Path,       // a::b::f() or pkg.F() where the qualifier names a module, package or type
  Construct,  // new X(), X{...}, X::new(): name is the type
};

struct Call {
  uint32_t scope = 0;  // the innermost enclosing definition, 0 for file-level code
  CallForm form = CallForm::Plain;
  std::string receiver;  // as written; "" for Plain
  std::string name;
  uint32_t line = 1;
  uint32_t arity = 0;  // the number of arguments written
  // Each argument's static type where it is evident from the code around it, in a form the
  // language's resolver reads (a type as written, a variable whose declared type it looks up),
  // "" where it is not; empty where the language records none.
  std::vector<std::string> argument_types{};

  friend bool operator==(const Call&, const Call&) = default;
};

// A name with a type that is statically evident: a parameter, a typed or constructed local, a
// field. Resolution uses it to type a call's receiver.
struct TypedName {
  uint32_t scope = 0;  // the definition it is declared in (a class for its fields)
  std::string name;
  std::string type;  // as written, generic arguments and pointers/references removed

  friend bool operator==(const TypedName&, const TypedName&) = default;
};

// A function declared without a body (a C prototype, a method declared in its class): where
// a language links a call through a declaration to the one definition behind it.
struct Declaration {
  uint32_t scope = 0;  // the innermost enclosing definition (a class for a method)
  std::string name;
  std::string owner;  // the qualifier written before the name (`A` of `int A::f();`), "" for none
  uint32_t line = 1;

  friend bool operator==(const Declaration&, const Declaration&) = default;
};

class CodeFacts final : public LanguageFacts {
 public:
  uint32_t entity_count() const override { return static_cast<uint32_t>(definitions.size()); }
  DefinitionOutline definition(uint32_t d) const override;

  std::vector<Definition> definitions{1};  // [0] is the file
  std::vector<Import> imports;
  std::vector<Call> calls;
  std::vector<TypedName> typed_names;
  std::vector<Declaration> declarations;
  std::string package;  // the declared package or module name, where the language has one
  // The condition the whole file is compiled under, as written (Go's `//go:build` expression);
  // "" for none. Resolution keeps calls between files that can be built together.
  std::string build_condition;

  friend bool operator==(const CodeFacts&, const CodeFacts&) = default;
};

// The cache encoding. `magic` names the front end and its layout; deserialize returns nullptr for
// anything that is not a well-formed encoding with that magic (never crashes on any bytes).
std::string serialize(const CodeFacts& facts, std::string_view magic);
std::unique_ptr<CodeFacts> deserialize(std::string_view bytes, std::string_view magic);

}  // namespace anchorfs::analysis::code
