// Recognising and spelling tag block delimiter lines.
#include "render/delimiter.h"

namespace anchorfs::render {

std::string_view delimiter_title(BlockKind kind) {
  switch (kind) {
    case BlockKind::Function:
      return "=== Function Annotation ===";
    case BlockKind::Class:
      return "=== Class Annotation ===";
    case BlockKind::File:
      return "=== File Annotation ===";
  }
  return "";
}

std::optional<BlockKind> delimiter_kind(std::string_view line) {
  size_t start = line.find_first_not_of(" \t\f");
  if (start == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(start);
  if (!rest.starts_with("# ")) return std::nullopt;
  rest.remove_prefix(2);
  for (BlockKind kind : {BlockKind::Function, BlockKind::Class, BlockKind::File}) {
    if (rest == delimiter_title(kind)) return kind;
  }
  return std::nullopt;
}

}  // namespace anchorfs::render
