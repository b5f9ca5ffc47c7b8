// PEP 263 encoding declarations: which codec a source declares, and reading legacy-encoded source.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::python {

// The codec a PEP 263 declaration on line 1 or 2 names (line 2 only after a blank or comment
// line 1), lower-cased with '_' as '-'; nullopt when there is none.
std::optional<std::string> declared_encoding(std::string_view text);

// Whether Python reads `codec` as UTF-8 ("utf-8", "utf8", "u8", "utf-8-sig", ...).
bool is_utf8_codec(std::string_view codec);

// Source bytes of a legacy single-byte encoding re-encoded as UTF-8 for the parser, with the
// way back to original offsets (tag anchors must point into the original bytes).
class Utf8Source {
 public:
  // cp1252 / windows-1252 use their own table; every other codec is read as Latin-1, which keeps
  // each non-ASCII identifier whole (exact for the Latin-1 family).
  Utf8Source(std::string_view bytes, std::string_view codec);

  std::string_view text() const { return text_; }
  // The original offset of a UTF-8 offset that does not fall inside a re-encoded character.
  uint64_t original_offset(uint64_t utf8_offset) const;

 private:
  std::string text_;
  // For each re-encoded character: the UTF-8 offset just after it and the bytes added so far.
  std::vector<std::pair<uint64_t, uint64_t>> growth_;
};

}  // namespace anchorfs::analysis::python
