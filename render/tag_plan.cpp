// Applying a tag plan to original bytes, and stripping tag blocks back out of a tagged view.
#include "render/tag_plan.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "render/delimiter.h"

namespace anchorfs::render {

uint64_t TagPlan::added_bytes() const {
  uint64_t total = 0;
  for (const Insertion& insertion : insertions) total += insertion.text.size();
  return total;
}

std::string apply(std::string_view original, const TagPlan& plan) {
  std::string out;
  out.reserve(original.size() + plan.added_bytes());
  uint64_t copied = 0;
  for (const Insertion& insertion : plan.insertions) {
    if (insertion.offset < copied || insertion.offset > original.size()) {
      throw std::invalid_argument(
          "tag plan insertions must be sorted and within the file (offset " +
          std::to_string(insertion.offset) + ", file size " + std::to_string(original.size()) +
          ")");
    }
    out.append(original.substr(copied, insertion.offset - copied));
    out.append(insertion.text);
    copied = insertion.offset;
  }
  out.append(original.substr(copied));
  return out;
}

namespace {

// One line of a text: [begin, content_end) is its content, [content_end, end) its terminator.
struct Line {
  size_t begin = 0;
  size_t content_end = 0;
  size_t end = 0;
};

Line line_at(std::string_view text, size_t begin) {
  size_t pos = begin;
  while (pos < text.size() && text[pos] != '\n' && text[pos] != '\r') ++pos;
  Line line{begin, pos, pos};
  if (pos < text.size()) {
    line.end = pos + 1;
    if (text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') line.end = pos + 2;
  }
  return line;
}

bool is_comment_line(std::string_view content) {
  return after_comment_marker(content).has_value();
}

}  // namespace

std::string strip(std::string_view tagged) {
  std::string out;
  out.reserve(tagged.size());
  size_t pos = 0;
  // A UTF-8 byte order mark stays in front; the first line is judged without it.
  if (tagged.starts_with(kUtf8Bom)) {
    out.append(kUtf8Bom);
    pos = kUtf8Bom.size();
  }
  while (pos < tagged.size()) {
    Line open = line_at(tagged, pos);
    std::optional<BlockKind> kind =
        delimiter_kind(tagged.substr(open.begin, open.content_end - open.begin));
    if (!kind) {
      out.append(tagged.substr(open.begin, open.end - open.begin));
      pos = open.end;
      continue;
    }
    // Look for the closing delimiter over comment lines only. The search stops at the next
    // delimiter line of any kind, so every line is examined at most twice: linear time.
    size_t next = open.end;
    bool closed = false;
    while (next < tagged.size()) {
      Line line = line_at(tagged, next);
      std::string_view content = tagged.substr(line.begin, line.content_end - line.begin);
      if (std::optional<BlockKind> other = delimiter_kind(content)) {
        if (*other == *kind) {
          closed = true;
          // A block's lines share one terminator, so the closing line takes the opening line's:
          // a "\r" block followed by an original "\n" line must leave that "\n" in place.
          bool opened_with_cr =
              open.end - open.content_end == 1 && tagged[open.content_end] == '\r';
          next = opened_with_cr ? std::min(line.end, line.content_end + 1) : line.end;
        }
        break;
      }
      if (!is_comment_line(content)) break;
      next = line.end;
    }
    if (closed) {
      pos = next;
    } else {
      out.append(tagged.substr(open.begin, open.end - open.begin));
      pos = open.end;
    }
  }
  return out;
}

bool has_tag_delimiter(std::string_view text) {
  // Every delimiter title ends so; one substring search rules out nearly every file before the
  // line-by-line check (this runs over every source on every mount, warm ones included).
  if (text.find(" Annotation ===") == std::string_view::npos) return false;
  size_t pos = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  while (pos < text.size()) {
    Line line = line_at(text, pos);
    if (delimiter_kind(text.substr(line.begin, line.content_end - line.begin))) return true;
    pos = line.end;
  }
  return false;
}

}  // namespace anchorfs::render
