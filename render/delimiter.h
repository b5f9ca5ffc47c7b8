// The delimiter lines that open and close a tag block, shared by block rendering and strip.
#pragma once

#include <optional>
#include <string_view>

namespace anchorfs::render {

enum class BlockKind { Function, Class, File };

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// "=== Function Annotation ===" etc., without the comment marker.
std::string_view delimiter_title(BlockKind kind);

// The kind when `line` (without its terminator) is `<spaces/tabs/form feeds># === <Kind> Annotation
// ===`.
std::optional<BlockKind> delimiter_kind(std::string_view line);

}  // namespace anchorfs::render
