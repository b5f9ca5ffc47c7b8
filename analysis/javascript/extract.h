// One walk over a JavaScript/TypeScript syntax tree: the file's CodeFacts.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analysis/code/code_facts.h"
#include "analysis/javascript/dialect.h"

namespace anchorfs::analysis::javascript {

// What the JavaScript front end's CodeFacts hold beyond the kit's documented meaning:
// - Definition::role: "function", "generator", "arrow" (a name bound to an arrow function; a
//   bound function expression is a "function"), "class", "interface", "namespace", "method", "getter", "setter",
//   "static" (also `X.m = function` on a class or function X of the file), "constructor",
//   "field" (a class field holding a function), "property" (`obj.m = function` on a file-level
//   object literal `obj`: a top-level definition named "obj.m" with owner "obj");
// - Import::name: "default" for a default import, "*" for a namespace import or `export *`,
//   "" for a whole-module binding (`const m = require("m")`, `import m = require("m")`) or a
//   side-effect import; Import::source "" with reexport set is an export of a local name
//   (`export {a as b}`, `export default a`, `module.exports = a` as "default",
//   `module.exports = {b: a}`): name is the local name, alias the exported one;
// - TypedName::type "" marks an untyped local or parameter (it shadows outer names); a class's
//   fields are named "this.<field>".
code::CodeFacts extract_facts(std::string_view bytes, Dialect dialect);

}  // namespace anchorfs::analysis::javascript
