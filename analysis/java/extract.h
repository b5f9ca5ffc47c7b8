// Java facts from one file: one parse, one walk into the brace-language kit's CodeFacts.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::java {

// Definitions (types with their role and bases, methods and constructors with their arity),
// the package, imports, call sites and typed names of `bytes`. Never fails: a file that does not
// parse within its budget gives facts with only the file entity and parsed_cleanly false.
//
// How Java is written into CodeFacts (analysis/java/resolve.cpp reads it back):
// - Definition roles: "class", "interface", "enum", "record", "annotation", "anonymous" (named
//   "<anonymousN>", N counted from 1 within its parent), "enum_constant" (a constant with a
//   body, named after the constant), "method", "constructor" (named after its class).
// - Imports: `import a.B;` {source "a.B"}; `import a.*;` {source "a", name "*"};
//   `import static a.B.m;` {source "a.B", name "m"}; `import static a.B.*;` {source "a.B",
//   name "*"} (an on-demand import names a package or a type; resolution tries both).
// - Calls: `m()` Plain; `x.m()`, `this.m()`, `super.m()`, `a.b.m()`, `Outer.this.m()`,
//   `I.super.m()` Member with the receiver as a dotted name, `new T().m()` Member with receiver
//   "new T", `((T) x).m()` Member with receiver "(T)", `a.b(x).c()` and `f().c()` Member with
//   the calls in the receiver written with their argument count ("a.b(1)", "f(0)"); `new T()`
//   Construct named "T";
//   `this(...)` / `super(...)` Construct named "this" / "super"; an enum constant's arguments
//   Construct named after the enum. Other receivers (an array element, a call on an instance
//   creation or a cast) are not recorded. Calls in lambdas belong to the enclosing definition.
//   Argument types: a literal's ("int", "long", "float", "double", "char", "boolean",
//   "java.lang.String", "null"; a negated numeric literal too), a string concatenation's
//   ("java.lang.String"), `new T(..)`'s and a cast's written type, "this", "var:x" for a name
//   and "var:x.f" / "var:this.f" for a field (resolution looks up its declared type),
//   "call:" and a call written as a receiver is ("call:f(0)", "call:x.g(1)": typed by the
//   callee's declared result), "" for anything else.
// - Parameter types as written (a variadic one's element type); a method's own type parameter
//   is written as its erasure (its first bound, "java.lang.Object" without one); a class's type
//   parameter and `int a[]` are ""; a compact constructor takes its record's component types.
// - Typed names: fields (scope: their class), parameters, locals, resources, catch and for-each
//   variables, pattern variables; a `var` local typed by `new T(...)`, or by a call written as a
//   receiver is ("f(0)", "x.g(1)": its type ends with ')', which no type name does); "return"
//   (scope: a method) for a method's result type; a name whose type is not evident (lambda
//   parameters, `var` from other expressions, a type parameter) gets an empty type, so it still
//   hides a field of the same name.
code::CodeFacts extract_facts(std::string_view bytes);

}  // namespace anchorfs::analysis::java
