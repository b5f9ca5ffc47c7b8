// The delimiter lines that open and close a tag block, shared by block rendering and strip.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace anchorfs::render {

enum class BlockKind { Function, Class, File };

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// "=== Function Annotation ===" etc., without the comment marker.
std::string_view delimiter_title(BlockKind kind);

// Tag fields in contract order (docs/tag-format.md); lean strip accepts them in this order only.
inline constexpr std::string_view kFieldNames[] = {
    "PARENT",   "CHILDREN",     "IMPORTS", "IMPORTED_BY", "CALLS",    "CALLED_BY",
    "BASE",     "DERIVED",      "CONFIG_USAGE", "ENV_VAR", "CONST_REF", "IO_DEP",
    "DATA_DEP", "TEST_REF",     "REGISTERED_BY", "REGISTERS"};

// The lean header's word: "@function", "@class", "@file".
std::string_view lean_header_word(BlockKind kind);

// The kind when `line` is `<ws><marker> @<kind> <name>`: a lean block's header.
std::optional<BlockKind> is_lean_header(std::string_view line);

// The index in kFieldNames when `line` is `<ws><marker> <FIELD>: ...`.
std::optional<size_t> field_line_index(std::string_view line);

// The line comment markers of every front end ("#", ...): strip and the guards know no language.
const std::vector<std::string_view>& comment_markers();

// What follows the comment marker when `line` is `<spaces/tabs/form feeds><marker>...`.
std::optional<std::string_view> after_comment_marker(std::string_view line);

// The kind when `line` (without its terminator) is `<spaces/tabs/form feeds><marker> === <Kind>
// Annotation ===`.
std::optional<BlockKind> delimiter_kind(std::string_view line);

}  // namespace anchorfs::render
