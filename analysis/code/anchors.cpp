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

// A node and its earlier siblings, walked back one at a time: from the list of them when the
// caller has it, else by tree-sitter's node search.
class Siblings {
 public:
  explicit Siblings(TSNode node) : node_(node) {}
  Siblings(TSNode node, std::span<const TSNode> before)
      : node_(node), listed_(true), list_(before), here_at_(before.size()) {}

  TSNode node() const { return node_; }

  // The sibling before the current node (only named ones when `named`), or a null node; the
  // current node stays until `step` moves onto what this returned.
  TSNode before(bool named) {
    if (!listed_) return named ? ts_node_prev_named_sibling(node_) : ts_node_prev_sibling(node_);
    for (size_t i = here_at_; i-- > 0;) {
      if (!named || ts_node_is_named(list_[i])) {
        probe_at_ = i;
        return list_[i];
      }
    }
    return TSNode{};
  }

  // Makes the node `before` returned last the current one.
  void step(TSNode prev) {
    node_ = prev;
    here_at_ = probe_at_;
  }

 private:
  TSNode node_;
  bool listed_ = false;
  std::span<const TSNode> list_;
  size_t here_at_ = 0;
  size_t probe_at_ = 0;
};

void attach(Siblings& siblings, std::string_view bytes,
            std::initializer_list<std::string_view> attached) {
  for (TSNode prev = siblings.before(false); !ts_node_is_null(prev);
       prev = siblings.before(false)) {
    const std::string_view type = ts_node_type(prev);
    if (std::find(attached.begin(), attached.end(), type) == attached.end()) break;
    if (!own_line_start(bytes, ts_node_start_byte(prev))) break;
    if (blank_line_between(bytes, ts_node_end_byte(prev), ts_node_start_byte(siblings.node()))) {
      break;
    }
    siblings.step(prev);
  }
}

}  // namespace

TSNode attached_start(TSNode node, std::string_view bytes,
                      std::initializer_list<std::string_view> attached) {
  Siblings siblings(node);
  attach(siblings, bytes, attached);
  return siblings.node();
}

TSNode attached_start(TSNode node, std::string_view bytes,
                      std::initializer_list<std::string_view> attached,
                      std::span<const TSNode> before) {
  Siblings siblings(node, before);
  attach(siblings, bytes, attached);
  return siblings.node();
}

namespace {

TSNode run_start(Siblings& siblings, std::string_view bytes,
                 std::initializer_list<std::string_view> attached, std::string_view stop) {
  attach(siblings, bytes, attached);
  for (;;) {
    // Named siblings only: a statement's terminator is an anonymous sibling of its own.
    const TSNode prev = siblings.before(true);
    if (ts_node_is_null(prev) || std::string_view(ts_node_type(prev)) == stop ||
        blank_line_between(bytes, ts_node_end_byte(prev), ts_node_start_byte(siblings.node()))) {
      return siblings.node();
    }
    siblings.step(prev);
    attach(siblings, bytes, attached);
  }
}

}  // namespace

TSNode run_start(TSNode node, std::string_view bytes,
                 std::initializer_list<std::string_view> attached, std::string_view stop) {
  Siblings siblings(node);
  return run_start(siblings, bytes, attached, stop);
}

TSNode run_start(TSNode node, std::string_view bytes,
                 std::initializer_list<std::string_view> attached, std::string_view stop,
                 std::span<const TSNode> before) {
  Siblings siblings(node, before);
  return run_start(siblings, bytes, attached, stop);
}

}  // namespace anchorfs::analysis::code
