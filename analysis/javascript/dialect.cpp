// File-name rules of the JavaScript front end: which files it claims and with which grammar.
#include "analysis/javascript/dialect.h"

extern "C" const TSLanguage* tree_sitter_javascript();
extern "C" const TSLanguage* tree_sitter_typescript();
extern "C" const TSLanguage* tree_sitter_tsx();

namespace anchorfs::analysis::javascript {

// Declaration files hold no bodies and repeat the names of the modules they describe (like
// Python's .pyi stubs); a minified bundle is one line of generated code where a tag block has
// nowhere useful to go. Both are served unchanged.
std::optional<Dialect> dialect_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  const std::string_view stem = base.substr(0, dot);
  const std::string_view ext = base.substr(dot + 1);
  if (ext == "js" || ext == "jsx" || ext == "mjs" || ext == "cjs") {
    if (stem.ends_with(".min")) return std::nullopt;
    return Dialect::JavaScript;
  }
  if (ext == "ts" || ext == "mts" || ext == "cts") {
    if (stem.ends_with(".d")) return std::nullopt;
    return Dialect::TypeScript;
  }
  if (ext == "tsx") return Dialect::Tsx;
  return std::nullopt;
}

const TSLanguage* grammar_of(Dialect dialect) {
  switch (dialect) {
    case Dialect::JavaScript:
      return tree_sitter_javascript();
    case Dialect::TypeScript:
      return tree_sitter_typescript();
    case Dialect::Tsx:
      return tree_sitter_tsx();
  }
  return tree_sitter_javascript();
}

std::string_view dialect_name(Dialect dialect) {
  switch (dialect) {
    case Dialect::JavaScript:
      return "js";
    case Dialect::TypeScript:
      return "ts";
    case Dialect::Tsx:
      return "tsx";
  }
  return "js";
}

}  // namespace anchorfs::analysis::javascript
