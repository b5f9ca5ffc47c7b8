// Making ids and label values safe to print inside a one-line comment.
#pragma once

#include <string>
#include <string_view>

namespace anchorfs::render {

// Appends `raw` with every byte that could end or disturb a comment line escaped: control
// characters (C0, DEL, C1), invalid UTF-8, line/paragraph separators and bidi overrides become
// `\xNN` (per byte); a backslash becomes `\\`. Valid printable UTF-8 is kept as is.
void append_escaped(std::string& out, std::string_view raw);

std::string escaped(std::string_view raw);

// Appends `text` (already escaped) with every non-ASCII character written `\uXXXX` or
// `\UXXXXXXXX`, for files whose declared encoding may not represent UTF-8.
void append_ascii(std::string& out, std::string_view text);

// Only spaces, tabs and form feeds survive; anything else in an indent is dropped.
std::string sanitized_indent(std::string_view indent);

// "\n", "\r\n" or "\r"; anything else falls back to "\n".
std::string_view sanitized_newline(std::string_view newline);

}  // namespace anchorfs::render
