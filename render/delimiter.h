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

// The line comment markers of every front end ("#", ...): strip and the guards know no language.
const std::vector<std::string_view>& comment_markers();

// What follows the comment marker when `line` is `<spaces/tabs/form feeds><marker>...`.
std::optional<std::string_view> after_comment_marker(std::string_view line);

// The kind when `line` (without its terminator) is `<spaces/tabs/form feeds><marker> === <Kind>
// Annotation ===`.
std::optional<BlockKind> delimiter_kind(std::string_view line);

}  // namespace anchorfs::render
