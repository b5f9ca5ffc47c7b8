// Where a tag block may go in a brace language: line starts between tokens, above what a
// definition carries with it (doc comments, annotations, attributes, decorators).
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>

namespace anchorfs::analysis::code {

// The start of the line holding `offset` when only spaces and tabs precede it on that line.
std::optional<uint64_t> own_line_start(std::string_view bytes, uint64_t offset);

// The leading spaces and tabs of the line starting at `line_start`.
std::string_view indent_at(std::string_view bytes, uint64_t line_start);

// The first line start after a UTF-8 byte order mark and, when `shebang` is true, a first line
// starting with "#!" (but not Rust's "#![", an inner attribute). nullopt when a shebang line has
// no terminator (nothing may follow it). A block at the very start is followed by no empty line
// unless the front end separates its blocks (`separated`, TagSyntax::separate_blocks): strip
// takes an empty line after a block starting the text for its separator, so otherwise the anchor
// goes below the file's leading empty lines.
std::optional<uint64_t> file_anchor(std::string_view bytes, bool shebang, bool separated = false);

// `offset`, or the end of the run of empty lines starting there (see file_anchor).
uint64_t below_empty_lines(std::string_view bytes, uint64_t offset);

// The node a definition's tag block goes above: `node` itself, or the first of the run of
// siblings just before it whose type is one of `attached` (comments, annotations, attributes),
// each starting on its own line and with no blank line between it and what follows. The
// siblings are found by ts_node_prev_sibling, which searches down from the root for each one,
// quadratic in a file's declarations: a walk gives them from its list (below) when it can.
TSNode attached_start(TSNode node, std::string_view bytes,
                      std::initializer_list<std::string_view> attached);

// As above, with the siblings before `node` given in order, named and anonymous (a walk that
// lists each node's children, code::ChildLists in code/walk.h, has them): no search.
TSNode attached_start(TSNode node, std::string_view bytes,
                      std::initializer_list<std::string_view> attached,
                      std::span<const TSNode> before);

// The first node (with its attached comments, as attached_start) of the run of named siblings
// ending with `node` that no blank line separates, stopping below a sibling of type `stop`.
// Where a block must follow a blank line: gofmt puts one before a comment that follows a
// top-level declaration, so a block between `}` and the next `func` would not stay put.
TSNode run_start(TSNode node, std::string_view bytes,
                 std::initializer_list<std::string_view> attached, std::string_view stop);

// As above, with the siblings before `node` given in order, named and anonymous.
TSNode run_start(TSNode node, std::string_view bytes,
                 std::initializer_list<std::string_view> attached, std::string_view stop,
                 std::span<const TSNode> before);

}  // namespace anchorfs::analysis::code
