// Line layout: the first terminator and the line count under one rule for every brace language.
#include "analysis/code/text_layout.h"

#include <algorithm>

namespace anchorfs::analysis::code {

std::string first_newline(std::string_view bytes) {
  const size_t at = bytes.find_first_of("\r\n");
  if (at == std::string_view::npos || bytes[at] == '\n') return "\n";
  return bytes.compare(at, 2, "\r\n") == 0 ? "\r\n" : "\r";
}

uint32_t line_count(std::string_view bytes) {
  const auto breaks = static_cast<uint32_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  return breaks + (!bytes.empty() && bytes.back() != '\n' ? 1 : 0);
}

void set_layout(LanguageFacts& facts, std::string_view bytes) {
  facts.newline = first_newline(bytes);
  facts.lines = line_count(bytes);
}

}  // namespace anchorfs::analysis::code
