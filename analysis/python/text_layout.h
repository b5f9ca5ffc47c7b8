// Line structure of Python source bytes: line starts, the newline style, safe tag anchors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::python {

// Line starts of `text`, where "\r\n", "\r" and "\n" each end a line (as Python reads source).
class LineTable {
 public:
  explicit LineTable(std::string_view text);
  uint32_t line_of(uint64_t offset) const;  // 1-based
  uint32_t count() const { return static_cast<uint32_t>(starts_.size()); }

 private:
  std::vector<uint64_t> starts_;
};

// The first line terminator of `text`; "\n" when it has none.
std::string first_newline(std::string_view text);

// The end of the lines that must stay where they are: a shebang line 1 and a PEP 263 encoding
// declaration on line 1 or 2 (after a UTF-8 byte order mark, if any).
uint64_t protected_prefix_end(std::string_view text);

// Where a file tag block may go: after a UTF-8 byte order mark, a shebang line and a PEP 263
// encoding declaration (both must stay on lines 1-2). nullopt when that would need a line
// terminator the file lacks.
std::optional<uint64_t> file_anchor(std::string_view text);

struct LineAnchor {
  uint64_t offset = 0;
  std::string indent;
};

// The start of the line holding `statement_start` when a comment line can safely go there: only
// whitespace precedes the statement on its line and the previous line does not continue with a
// backslash, and it is not among the protected first lines. nullopt otherwise.
// `protected_end` is protected_prefix_end(text).
std::optional<LineAnchor> statement_anchor(std::string_view text, uint64_t statement_start,
                                           uint64_t protected_end);

}  // namespace anchorfs::analysis::python
