// Line tables, newline detection and the safe insertion points for tag blocks in Python source.
#include "analysis/python/text_layout.h"

#include <algorithm>

#include "analysis/utf8_bom.h"

namespace anchorfs::analysis::python {
namespace {

bool is_indent_byte(char c) {
  return c == ' ' || c == '\t' || c == '\f';
}

// End of the line starting at `start` including its terminator; npos-like `text.size()` plus
// `terminated == false` when the line runs to the end of the text.
uint64_t line_end(std::string_view text, uint64_t start, bool& terminated) {
  for (uint64_t i = start; i < text.size(); ++i) {
    if (text[i] == '\n') {
      terminated = true;
      return i + 1;
    }
    if (text[i] == '\r') {
      terminated = true;
      return (i + 1 < text.size() && text[i + 1] == '\n') ? i + 2 : i + 1;
    }
  }
  terminated = false;
  return text.size();
}

bool is_word_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || static_cast<unsigned char>(c) >= 0x80;
}

// PEP 263: ^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)
bool is_encoding_declaration(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && is_indent_byte(line[i])) ++i;
  if (i >= line.size() || line[i] != '#') return false;
  for (size_t at = line.find("coding", i); at != std::string_view::npos;
       at = line.find("coding", at + 1)) {
    size_t j = at + 6;
    if (j >= line.size() || (line[j] != ':' && line[j] != '=')) continue;
    ++j;
    while (j < line.size() && (line[j] == ' ' || line[j] == '\t')) ++j;
    if (j < line.size() && is_word_byte(line[j])) return true;
  }
  return false;
}

bool is_blank_or_comment_line(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && is_indent_byte(line[i])) ++i;
  return i == line.size() || line[i] == '#' || line[i] == '\r' || line[i] == '\n';
}

}  // namespace

LineTable::LineTable(std::string_view text) {
  if (text.find('\r') == std::string_view::npos) {
    // Only "\n" ends lines (nearly every file): memchr-speed scans instead of a byte loop,
    // for the count too (std::count was a byte loop: 3.8 instructions a byte, callgrind).
    size_t newlines = 0;
    for (size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1)) {
      ++newlines;
    }
    starts_.reserve(newlines + 1);
    starts_.push_back(0);
    for (size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1)) {
      starts_.push_back(i + 1);
    }
    if (starts_.size() > 1 && starts_.back() == text.size()) starts_.pop_back();
    return;
  }
  starts_.push_back(0);
  for (uint64_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      starts_.push_back(i + 1);
    } else if (text[i] == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      starts_.push_back(i + 1);
    }
  }
  if (starts_.size() > 1 && starts_.back() == text.size()) starts_.pop_back();
}

uint32_t LineTable::line_of(uint64_t offset) const {
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<uint32_t>(it - starts_.begin());
}

std::string first_newline(std::string_view text) {
  const size_t i = text.find_first_of("\r\n");
  if (i == std::string_view::npos || text[i] == '\n') return "\n";
  return (i + 1 < text.size() && text[i + 1] == '\n') ? "\r\n" : "\r";
}

uint64_t protected_prefix_end(std::string_view text) {
  const uint64_t start = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  bool terminated1 = false, terminated2 = false;
  const uint64_t end1 = line_end(text, start, terminated1);
  const uint64_t end2 = terminated1 ? line_end(text, end1, terminated2) : end1;
  if (terminated1 && is_encoding_declaration(text.substr(end1, end2 - end1))) return end2;
  const std::string_view line1 = text.substr(start, end1 - start);
  if (line1.starts_with("#!") || is_encoding_declaration(line1)) return end1;
  return start;
}

std::optional<uint64_t> file_anchor(std::string_view text) {
  const uint64_t start = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  uint64_t anchor = protected_prefix_end(text);
  if (anchor == start) {
    // Strip takes an empty line right after a block starting the text for a separator
    // (TagSyntax::separate_blocks), so such a block goes below the leading empty lines.
    while (anchor < text.size() && (text[anchor] == '\n' || text[anchor] == '\r')) ++anchor;
    return anchor;
  }
  // The protected lines must end with a terminator, and an encoding declaration on line 2 only
  // counts (and only stays untouched) after a blank, comment or shebang line 1.
  if (text[anchor - 1] != '\n' && text[anchor - 1] != '\r') return std::nullopt;
  bool terminated = false;
  const uint64_t end1 = line_end(text, start, terminated);
  if (anchor > end1 && !is_blank_or_comment_line(text.substr(start, end1 - start))) return std::nullopt;
  return anchor;
}

std::optional<LineAnchor> statement_anchor(std::string_view text, uint64_t statement_start,
                                           uint64_t protected_end) {
  if (statement_start > text.size()) return std::nullopt;
  uint64_t line_start = statement_start;
  while (line_start > 0 && text[line_start - 1] != '\n' && text[line_start - 1] != '\r') {
    --line_start;
  }
  if (line_start == 0 && text.starts_with(kUtf8Bom) && statement_start >= kUtf8Bom.size()) {
    line_start = kUtf8Bom.size();
  }
  if (line_start < protected_end) return std::nullopt;
  for (uint64_t i = line_start; i < statement_start; ++i) {
    if (!is_indent_byte(text[i])) return std::nullopt;
  }
  if (line_start > 0) {
    uint64_t before = line_start - 1;  // the previous line's terminator
    if (text[before] == '\n' && before > 0 && text[before - 1] == '\r') --before;
    if (before > 0 && text[before - 1] == '\\') return std::nullopt;
  }
  return LineAnchor{line_start, std::string(text.substr(line_start, statement_start - line_start))};
}

}  // namespace anchorfs::analysis::python
