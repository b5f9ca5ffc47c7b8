// Recognising and spelling tag block delimiter lines.
#include "render/delimiter.h"

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/language.h"

namespace anchorfs::render {

const std::vector<std::string_view>& comment_markers() {
  static const std::vector<std::string_view> markers = [] {
    std::vector<std::string_view> all;
    for (const auto& front_end : analysis::front_ends()) {
      std::string_view marker = front_end->tag_syntax().line_comment;
      if (!marker.empty() && std::find(all.begin(), all.end(), marker) == all.end()) {
        all.push_back(marker);
      }
    }
    return all;
  }();
  return markers;
}

std::optional<std::string_view> after_comment_marker(std::string_view line) {
  size_t start = line.find_first_not_of(" \t\f");
  if (start == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(start);
  for (std::string_view marker : comment_markers()) {
    if (rest.starts_with(marker)) return rest.substr(marker.size());
  }
  return std::nullopt;
}

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
  std::optional<std::string_view> comment = after_comment_marker(line);
  if (!comment || !comment->starts_with(' ')) return std::nullopt;
  std::string_view rest = comment->substr(1);
  for (BlockKind kind : {BlockKind::Function, BlockKind::Class, BlockKind::File}) {
    if (rest == delimiter_title(kind)) return kind;
  }
  return std::nullopt;
}

std::string_view lean_header_word(BlockKind kind) {
  switch (kind) {
    case BlockKind::Function:
      return "@function";
    case BlockKind::Class:
      return "@class";
    case BlockKind::File:
      return "@file";
  }
  return "";
}

std::optional<BlockKind> is_lean_header(std::string_view line) {
  std::optional<std::string_view> comment = after_comment_marker(line);
  if (!comment || !comment->starts_with(' ')) return std::nullopt;
  std::string_view rest = comment->substr(1);
  for (BlockKind kind : {BlockKind::Function, BlockKind::Class, BlockKind::File}) {
    std::string_view word = lean_header_word(kind);
    if (rest.size() > word.size() + 1 && rest.starts_with(word) && rest[word.size()] == ' ' &&
        rest[word.size() + 1] != ' ') {
      return kind;
    }
  }
  return std::nullopt;
}

std::optional<size_t> field_line_index(std::string_view line) {
  std::optional<std::string_view> comment = after_comment_marker(line);
  if (!comment || !comment->starts_with(' ')) return std::nullopt;
  std::string_view rest = comment->substr(1);
  for (size_t i = 0; i < std::size(kFieldNames); ++i) {
    std::string_view name = kFieldNames[i];
    if (rest.size() > name.size() + 1 && rest.starts_with(name) && rest[name.size()] == ':' &&
        rest[name.size() + 1] == ' ') {
      return i;
    }
  }
  return std::nullopt;
}

}  // namespace anchorfs::render
