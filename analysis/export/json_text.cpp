// JSON string escaping for the graph writers.
#include "analysis/export/json_text.h"

#include <cstddef>
#include <cstdint>

namespace anchorfs::graph_export {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not one (overlong forms,
// surrogates and code points above U+10FFFF are invalid too).
size_t utf8_sequence_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t lead = byte(i);
  size_t length = 0;
  uint32_t min_code = 0;
  uint32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, min_code = 0x80, code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, min_code = 0x800, code = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, min_code = 0x10000, code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (byte(i + k) & 0x3Fu);
  }
  if (code < min_code || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

void write_json_string(std::ostream& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.put('"');
  size_t i = 0;
  while (i < text.size()) {
    // A run of bytes written as they are, in one write (names and paths are mostly such runs).
    size_t plain = i;
    while (plain < text.size()) {
      const auto b = static_cast<uint8_t>(text[plain]);
      if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\') break;
      ++plain;
    }
    if (plain > i) {
      out.write(text.data() + i, static_cast<std::streamsize>(plain - i));
      i = plain;
      continue;
    }
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x80) {
      const size_t length = utf8_sequence_length(text, i);
      if (length == 0) {
        out << "\xEF\xBF\xBD";
        ++i;
      } else {
        out.write(text.data() + i, static_cast<std::streamsize>(length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"':
        out << "\\\"";
        break;
      case '\\':
        out << "\\\\";
        break;
      case '\n':
        out << "\\n";
        break;
      case '\r':
        out << "\\r";
        break;
      case '\t':
        out << "\\t";
        break;
      case '\b':
        out << "\\b";
        break;
      case '\f':
        out << "\\f";
        break;
      default:
        if (c < 0x20) {
          out << "\\u00" << kHex[c >> 4] << kHex[c & 0xF];
        } else {
          out.put(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.put('"');
}

}  // namespace anchorfs::graph_export
