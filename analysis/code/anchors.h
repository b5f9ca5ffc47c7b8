// Where a tag block may go in a brace language: line starts between tokens, above what a
// definition carries with it (doc comments, annotations, attributes, decorators).
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace anchorfs::analysis::code {

// The start of the line holding `offset` when only spaces and tabs precede it on that line.
std::optional<uint64_t> own_line_start(std::string_view bytes, uint64_t offset);

// The leading spaces and tabs of the line starting at `line_start`.
std::string_view indent_at(std::string_view bytes, uint64_t line_start);

// The first line start after a UTF-8 byte order mark and, when `shebang` is true, a first line
// starting with "#!" (but not Rust's "#![", an inner attribute). nullopt when a shebang line has
// no terminator (nothing may follow it).
std::optional<uint64_t> file_anchor(std::string_view bytes, bool shebang);

// The node a definition's tag block goes above: `node` itself, or the first of the run of
// siblings just before it whose type is one of `attached` (comments, annotations, attributes),
// each starting on its own line and with no blank line between it and what follows.
TSNode attached_start(TSNode node, std::string_view bytes,
                      std::initializer_list<std::string_view> attached);

}  // namespace anchorfs::analysis::code
