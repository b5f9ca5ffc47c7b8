// Files of plain directives only (generated register headers): their facts need no syntax tree.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace anchorfs::analysis::cfamily {

// The number of top-level items (directive lines and comments) of a file that holds nothing but
// blank lines, comments and these directives, each on a line of its own, with nothing after its
// operands but blanks and comments: `#define NAME` with an optional value (object-like: no `(`
// right after the name), `#undef NAME`, `#ifdef NAME`, `#ifndef NAME`, `#else`, `#endif`,
// conditionals balanced and at most kMaxPlainNesting deep. No `\` line continuation, no quote,
// no `/` in a value but a trailing `/* */` comment, no `//` on a `#define` line, ASCII outside
// comments. nullopt for any other file.
//
// Why exactly these: tree-sitter-c reads such a file as the preprocessor does (a value is one
// `preproc_arg` token up to the line break or a `/*`), and the C extractor takes nothing from
// any of these nodes — no definition (object-like macros are not entities), no include, no
// call — so its facts are the file's layout, its file anchor and its dialect alone
// (docs/languages/c.md, "Files of plain directives").
std::optional<uint64_t> plain_directive_items(std::string_view bytes);

inline constexpr int kMaxPlainNesting = 32;

}  // namespace anchorfs::analysis::cfamily
