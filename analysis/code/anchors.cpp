// Anchor positions: own-line starts, file anchors, and the run of attached comments above a node.
#include "analysis/code/anchors.h"

#include <algorithm>

namespace anchorfs::analysis::code {

std::optional<uint64_t> own_line_start(std::string_view bytes, uint64_t offset) {
  if (offset > bytes.size()) return std::nullopt;
  uint64_t start = offset;
  while (start > 0 && bytes[start - 1] != '\n' && bytes[start - 1] != '\r') {
    const char c = bytes[start - 1];
    if (c != ' ' && c != '\t') return std::nullopt;
    --start;
  }
  return start;
}

std::string_view indent_at(std::string_view bytes, uint64_t line_start) {
  uint64_t end = line_start;
  while (end < bytes.size() && (bytes[end] == ' ' || bytes[end] == '\t')) ++end;
  return bytes.substr(line_start, end - line_start);
}

uint64_t below_empty_lines(std::string_view bytes, uint64_t offset) {
  while (offset < bytes.size() && (bytes[offset] == '\n' || bytes[offset] == '\r')) ++offset;
  return offset;
}

std::optional<uint64_t> file_anchor(std::string_view bytes, bool shebang, bool separated) {
  uint64_t start = bytes.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  const std::string_view rest = bytes.substr(start);
  if (!shebang || !rest.starts_with("#!") || rest.starts_with("#![")) {
    return separated ? start : below_empty_lines(bytes, start);
  }
  const size_t end = rest.find_first_of("\r\n");
  if (end == std::string_view::npos) return std::nullopt;
  start += end + (rest.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  return start;
}

namespace {

// Whether the text between two offsets holds a blank line (two line breaks with only spaces
// and tabs between them), i.e. the earlier node is detached from the later one.
bool blank_line_between(std::string_view bytes, uint64_t begin, uint64_t end) {
  int breaks = 0;
  for (uint64_t i = begin; i < end && i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (c == '\n' || (c == '\r' && (i + 1 >= bytes.size() || bytes[i + 1] != '\n'))) {
      if (++breaks >= 2) return true;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      breaks = 0;
    }
  }
  return false;
}

}  // namespace

TSNode attached_start(TSNode node, std::string_view bytes,
                      std::initializer_list<std::string_view> attached) {
  TSNode first = node;
  for (TSNode prev = ts_node_prev_sibling(node); !ts_node_is_null(prev);
       prev = ts_node_prev_sibling(prev)) {
    const std::string_view type = ts_node_type(prev);
    if (std::find(attached.begin(), attached.end(), type) == attached.end()) break;
    if (!own_line_start(bytes, ts_node_start_byte(prev))) break;
    if (blank_line_between(bytes, ts_node_end_byte(prev), ts_node_start_byte(first))) break;
    first = prev;
  }
  return first;
}

TSNode run_start(TSNode node, std::string_view bytes,
                 std::initializer_list<std::string_view> attached, std::string_view stop) {
  TSNode first = attached_start(node, bytes, attached);
  for (;;) {
    // Named siblings only: a statement's terminator is an anonymous sibling of its own.
    const TSNode prev = ts_node_prev_named_sibling(first);
    if (ts_node_is_null(prev) || std::string_view(ts_node_type(prev)) == stop ||
        blank_line_between(bytes, ts_node_end_byte(prev), ts_node_start_byte(first))) {
      return first;
    }
    first = attached_start(prev, bytes, attached);
  }
}

}  // namespace anchorfs::analysis::code
