// Escaping for comment-safe tag values.
#include "render/sanitize.h"

#include <cstdint>

namespace anchorfs::render {

namespace {

void append_hex(std::string& out, unsigned char byte) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out += "\\x";
  out += kDigits[byte >> 4];
  out += kDigits[byte & 0xF];
}

// Length of the valid UTF-8 sequence starting at raw[pos] (0 when invalid) and its code point.
size_t utf8_sequence(std::string_view raw, size_t pos, uint32_t& code_point) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(raw[i]); };
  unsigned char lead = byte(pos);
  size_t length = 0;
  uint32_t min = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code_point = lead & 0x1Fu, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code_point = lead & 0x0Fu, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code_point = lead & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (pos + length > raw.size()) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(pos + i) & 0x3Fu);
  }
  if (code_point < min || code_point > 0x10FFFF) return 0;
  if (code_point >= 0xD800 && code_point <= 0xDFFF) return 0;
  return length;
}

// Code points that some tool could take as a line break or that reorder the text on display.
bool is_disruptive(uint32_t code_point) {
  return (code_point >= 0x80 && code_point <= 0x9F) || code_point == 0x2028 ||
         code_point == 0x2029 || (code_point >= 0x202A && code_point <= 0x202E) ||
         (code_point >= 0x2066 && code_point <= 0x2069) || code_point == 0xFEFF;
}

}  // namespace

void append_escaped(std::string& out, std::string_view raw) {
  size_t pos = 0;
  while (pos < raw.size()) {
    auto c = static_cast<unsigned char>(raw[pos]);
    if (c == '\\') {
      out += "\\\\";
      ++pos;
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++pos;
    } else if (c < 0x80) {
      append_hex(out, c);
      ++pos;
    } else {
      uint32_t code_point = 0;
      size_t length = utf8_sequence(raw, pos, code_point);
      if (length == 0 || is_disruptive(code_point)) {
        for (size_t i = 0; i < (length == 0 ? 1 : length); ++i) {
          append_hex(out, static_cast<unsigned char>(raw[pos + i]));
        }
        pos += length == 0 ? 1 : length;
      } else {
        out.append(raw.substr(pos, length));
        pos += length;
      }
    }
  }
}

void append_ascii(std::string& out, std::string_view text) {
  static constexpr char kDigits[] = "0123456789abcdef";
  size_t pos = 0;
  while (pos < text.size()) {
    auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {
      out += text[pos++];
      continue;
    }
    uint32_t code_point = 0;
    size_t length = utf8_sequence(text, pos, code_point);
    if (length == 0) {
      append_hex(out, byte);
      ++pos;
      continue;
    }
    const int digits = code_point > 0xFFFF ? 8 : 4;
    out += digits == 8 ? "\\U" : "\\u";
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kDigits[(code_point >> shift) & 0xF];
    pos += length;
  }
}

std::string escaped(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  append_escaped(out, raw);
  return out;
}

std::string sanitized_indent(std::string_view indent) {
  std::string out;
  for (char c : indent) {
    if (c == ' ' || c == '\t' || c == '\f') out += c;
  }
  return out;
}

std::string_view sanitized_newline(std::string_view newline) {
  if (newline == "\r\n") return "\r\n";
  if (newline == "\r") return "\r";
  return "\n";
}

}  // namespace anchorfs::render
