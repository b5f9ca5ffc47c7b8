// How the Rust front end writes Rust facts into the shared CodeFacts record (the conventions its
// extractor and resolver agree on).
#pragma once

#include <string_view>

namespace anchorfs::analysis::rust {

// The cache encoding's magic: bump it whenever the conventions below or extraction change.
inline constexpr std::string_view kFactsMagic = "rust-facts-4";

// Definition::role values.
inline constexpr std::string_view kRoleFn = "fn";            // a free or nested function
inline constexpr std::string_view kRoleMethod = "method";    // in an impl or trait body
inline constexpr std::string_view kRoleExternFn = "extern";  // declared in an `extern` block
// macro_rules! (named `name!`); its arity is 1 when every rule takes one expression
// (`($e:expr $(,)?)`) and uses it as code, 0 otherwise.
inline constexpr std::string_view kRoleMacro = "macro";
inline constexpr std::string_view kRoleStruct = "struct";
inline constexpr std::string_view kRoleEnum = "enum";
inline constexpr std::string_view kRoleUnion = "union";
inline constexpr std::string_view kRoleTrait = "trait";  // bases: its supertraits
// An impl block, named after its type; owner: the type path; bases: the trait, if any.
inline constexpr std::string_view kRoleImpl = "impl";
inline constexpr std::string_view kRoleMod = "mod";  // an inline `mod name { ... }`

// Import::source of a `mod name;` declaration (`mod` is a keyword, so no `use` path starts
// with it); Import::alias then holds its `#[path = "..."]`, if any. Every other import is a
// `use` (or `extern crate`): source is the whole path as written ("crate::a::Foo", for a glob
// the module path), name its last segment or "*", alias the `as` name.
inline constexpr std::string_view kModDeclaration = "mod";

// A tuple struct's fields are TypedNames of the struct named by position ("0", "1", ...).
// TypedName::name of a function's return type (not an identifier, so no binding clashes).
inline constexpr std::string_view kReturnType = "->";
// TypedName::name prefix of a generic parameter's trait bound: "<T>" has type "Trait".
inline constexpr char kBoundOpen = '<';

// TypedName::type conventions. A type is a path with generic arguments, references and smart
// pointers (Box, Rc, Arc) removed. A leading '?' marks an Option or Result of it (usable after
// `?`, `.unwrap()` or `.expect(..)`). A trailing "()" means "what calling this path returns"
// (`let x = Foo::new();` records x as "Foo::new()"; `let x = Foo::new()?;` as "?Foo::new()";
// `let y = x.build();` as "x.build()": the method build on x's type).
inline constexpr char kFallible = '?';
inline constexpr std::string_view kCallResult = "()";
// A leading '[' marks a collection whose elements are of the type that follows (`Vec<Item>`,
// `&[Item]`, `[Item; 4]` are "[Item"); a leading '@' the element of the receiver that follows
// (`for x in &self.items` records x as "@self.items").
inline constexpr char kElementsOf = '[';
inline constexpr char kElementOf = '@';

// A call of a macro of the crate (`name!`, Plain) has arity = the number of calls recorded from
// its tokens, which follow it in CodeFacts::calls: resolution keeps them when the macro's arity
// is 1 (it wraps an expression), and drops them otherwise.

}  // namespace anchorfs::analysis::rust
