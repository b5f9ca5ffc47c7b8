// The Python front end's per-file facts: scopes, flattened expressions and flow constraints.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/language_facts.h"

namespace anchorfs::analysis::python {

// Bump whenever extraction or the serialized layout changes: cached facts of another version
// are ignored (PythonFrontEnd::facts_version).
inline constexpr uint32_t kFactsVersion = 14;

inline constexpr uint32_t kNone = UINT32_MAX;

// A scope: the module (always scope 0), a class body, a function body or a lambda. Every scope
// but the module is an entity; scopes are numbered in source order (pre-order by start byte).
enum class ScopeKind : uint8_t { Module, Class, Function, Lambda };

enum class ParamKind : uint8_t { Positional, VarPositional, KeywordOnly, VarKeyword };

struct Param {
  uint32_t name = kNone;  // string id
  ParamKind kind = ParamKind::Positional;
  friend bool operator==(const Param&, const Param&) = default;
};

enum ScopeFlag : uint8_t {
  kGenerator = 1,     // the body yields
  kStaticMethod = 2,  // decorated with staticmethod
  kClassMethod = 4,   // decorated with classmethod
  kProperty = 8,      // decorated with property (or a cached_property-like decorator)
};

struct Scope {
  ScopeKind kind = ScopeKind::Module;
  uint8_t flags = 0;
  bool has_anchor = false;
  uint32_t parent = kNone;  // enclosing scope; kNone for the module
  uint32_t name = kNone;    // string id of the simple name ("<lambda1>" for lambdas)
  uint32_t line = 1;        // 1-based line of the definition (of its first decorator)
  uint64_t anchor_offset = 0;
  uint32_t anchor_indent = kNone;               // string id of the anchor line's leading whitespace
  uint32_t params_begin = 0, params_count = 0;  // into FileFacts::params
  uint32_t decorators_begin = 0, decorators_count = 0;  // expr ids, into FileFacts::lists
  uint32_t bases_begin = 0, bases_count = 0;            // expr ids, into FileFacts::lists
  friend bool operator==(const Scope&, const Scope&) = default;
};

// Expressions, flattened. `list` ranges index FileFacts::lists (expr ids).
enum class ExprKind : uint8_t {
  Opaque,        // no modelled value; list: sub-expressions evaluated for their calls; str: a
                 // dict display's key when it is a plain string literal ("'k")
  Name,          // str: the name
  Attribute,     // a: object; str: attribute
  Call,          // a: callee; list: arguments (Keyword/Star/DoubleStar for the special forms)
  Subscript,     // a: container; list: index expressions (evaluated for their calls); str: the
                 // only index when literal: "2" (decimal), "1:3", ":2", "1:", "?:" (a slice
                 // without step, "?" a bound that is not a decimal literal), "'k" (a plain
                 // string key k), else kNone
  Container,     // a literal or comprehension; list: elements (dict keys and values alike);
                 // str: "{}" for a dict display of key: value pairs only (list alternates
                 // key, value), else kNone
  Tuple,         // a tuple/list literal of known length; list: positional elements
  Alternatives,  // value is any of list (`a or b`, `x if c else y`); a: extra expr (condition)
  Definition,    // a: scope id of a lambda (its function object)
  Keyword,       // str: keyword; a: value (call arguments only)
  Star,          // a: value (`*x` in calls, literals and targets)
  DoubleStar,    // a: value (`**x` in calls and dict literals)
  Iterate,       // a: iterable; an element of it (for targets, comprehensions, yield from)
  Enter,         // a: context manager; what `with a as x` binds
  Caught,        // a: exception class expression; what `except a as e` binds
  ScopedName,    // a: scope id; str: name bound in that scope (parameter defaults)
};

struct Expr {
  ExprKind kind = ExprKind::Opaque;
  uint32_t a = kNone;
  uint32_t str = kNone;
  uint32_t list_begin = 0, list_count = 0;
  friend bool operator==(const Expr&, const Expr&) = default;
};

// Flow-insensitive constraints, each evaluated in `scope`.
enum class StmtKind : uint8_t {
  Assign,        // target a (a pattern expr) receives value b
  Return,        // the scope's function returns b
  Yield,         // the scope's function yields b
  Evaluate,      // b is evaluated for its calls only
  Define,        // binds scope a (a class or function) under its name, through its decorators
  ImportModule,  // `import m` (str: bound name, a: module string id; b == 1 binds the top package)
  ImportFrom,    // `from m import n as k` (a: module string id with leading dots, b: n, str: k)
  ImportStar,    // `from m import *` (a: module string id with leading dots)
  Global,        // `global str`
  Nonlocal,      // `nonlocal str`
};

struct Stmt {
  StmtKind kind = StmtKind::Evaluate;
  uint32_t scope = 0;
  uint32_t a = kNone;
  uint32_t b = kNone;
  uint32_t str = kNone;
  friend bool operator==(const Stmt&, const Stmt&) = default;
};

// Dense-view facts (docs/dense.md): syntax the flow constraints leave out. `path` is an access
// chain as written, "()" marking a call within it ("os.environ.get", "Path().read_text",
// "settings.DEBUG", a plain name "MAX_SIZE"); `key` a plain string literal.
enum class DenseKind : uint8_t {
  Read,       // path read (an UPPER_CASE or `global` name; a chain through a class or constant)
  Write,      // path assigned (a `global` name; `Cls.attr` or `cls.attr`)
  Call,       // path called; key: the first positional argument when it is a string literal
  Key,        // path subscripted by, or tested with `in` for, the literal key
  Decorator,  // scope decorated by path (its callee, for a call); key: the decorator displayed
};

struct DenseFact {
  DenseKind kind = DenseKind::Read;
  uint32_t scope = 0;  // the innermost class or function scope (a lambda's facts are its parent's)
  uint32_t path = kNone;  // string id
  uint32_t key = kNone;   // string id, or kNone
  friend bool operator==(const DenseFact&, const DenseFact&) = default;
};

// The header (parsed_cleanly, anchors, newline, lines, dense_extracted) is LanguageFacts'.
struct FileFacts final : LanguageFacts {
  uint32_t entity_count() const override { return static_cast<uint32_t>(scopes.size()); }
  DefinitionOutline definition(uint32_t d) const override;

  bool has_all = false;              // module-level __all__ given as a literal list of strings
  std::vector<uint32_t> all_names;   // string ids of __all__
  std::vector<std::string> strings;  // interned names, indexed by string id
  std::vector<Scope> scopes;         // scopes[0] is the module
  std::vector<Param> params;
  std::vector<Expr> exprs;
  std::vector<uint32_t> lists;
  std::vector<Stmt> stmts;
  std::vector<DenseFact> dense;  // sorted, unique; filled when dense_extracted and parsed cleanly
  friend bool operator==(const FileFacts&, const FileFacts&) = default;
};

// A compact binary encoding tagged with kFactsVersion.
std::string serialize_facts(const FileFacts& facts);

// nullopt for anything that is not a well-formed encoding of kFactsVersion (garbage,
// truncation, other versions, out-of-range references); never crashes.
std::optional<FileFacts> deserialize_facts(std::string_view bytes);

// True when every reference inside `facts` is in range (what the resolver relies on).
bool facts_are_consistent(const FileFacts& facts);

// The core's ResolverInput with its facts known to be Python's (PythonFrontEnd converts).
struct ResolverFile {
  std::string_view path;  // repository-relative
  const FileFacts* facts = nullptr;
  EntityIndex entity = kNoEntity;  // its File entity; scope s > 0 is entity + s
};

struct ResolverInput {
  std::string_view root;  // absolute path of the repository (its basename may name a package)
  std::span<const ResolverFile> files;  // sorted by path
};

}  // namespace anchorfs::analysis::python
