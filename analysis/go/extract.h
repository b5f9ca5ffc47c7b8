// Go extraction: one parse, one walk, a file's code::CodeFacts.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::go {

// Prefixes of a typed name's type: a container of elements of the named type that follows, and
// the element of the chain that follows (neither begins a type name or a receiver chain).
inline constexpr std::string_view kElementsOf = "[]";
inline constexpr std::string_view kRangeOf = "range ";

// What the Go facts hold, in the kit's terms (resolve.cpp reads them so):
// - definitions: type declarations (Class; role "struct", "interface" or "type"; bases = the
//   embedded types as written, "T" or "pkg.T"), functions (role "func") and methods (role
//   "method", owner = the receiver's type name). A method whose receiver type is declared
//   earlier in the same file is that type's child; otherwise it is a top-level definition named
//   "Type.Method", so its id reads the same either way.
// - imports: one entry per import spec (name "", alias = the explicit name: an identifier, "."
//   or "_"; "" for none) and one per member the file uses through it (`pkg.X`: name "X", alias =
//   the identifier used as qualifier).
// - typed_names: scope 0 = package-level vars and consts; scope = a function: its receiver,
//   parameters and locals, and "return" (a keyword, never a variable) for its first result;
//   scope = a struct: its fields. The type is "T", "pkg.T", a call whose result gives it
//   ("F()", "pkg.F()", "x.M()"), a field or package var a local is assigned ("v.Block"),
//   kElementsOf + T for a slice, array or map of T, or kRangeOf + a chain for the value
//   variable of `range chain`; "" when the name is declared but its type is not evident (a
//   local shadowing a package name must never be taken for the package).
// - calls: Plain `f()`, Member `x.f()` with the receiver as a chain of names and calls
//   ("x", "a.b", "F()", "a.f().g"). Composite literals `T{}` run no code and are not calls; a
//   conversion `T(x)` is recorded like a call and resolves to no function.
code::CodeFacts extract_facts(std::string_view bytes);

}  // namespace anchorfs::analysis::go
