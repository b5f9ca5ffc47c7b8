// Which grammar a JavaScript or TypeScript file is parsed with, chosen by its file name.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace anchorfs::analysis::javascript {

enum class Dialect : uint8_t {
  JavaScript,  // .js .jsx .mjs .cjs: tree-sitter-javascript (JSX included)
  TypeScript,  // .ts .mts .cts: tree-sitter-typescript (no JSX: `<T>x` is a type assertion)
  Tsx,         // .tsx: tree-sitter-typescript's TSX grammar
};

// The dialect of a repository-relative path, or nullopt when the front end does not claim it:
// other extensions, declaration files (.d.ts, .d.mts, .d.cts) and minified bundles (.min.js).
std::optional<Dialect> dialect_of(std::string_view path);

const TSLanguage* grammar_of(Dialect dialect);

// "js", "ts", "tsx": the cache-key suffix of LanguageFrontEnd::dialect.
std::string_view dialect_name(Dialect dialect);

}  // namespace anchorfs::analysis::javascript
