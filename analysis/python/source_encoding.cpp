// Finding a PEP 263 declaration and re-encoding legacy single-byte sources as UTF-8.
#include "analysis/python/source_encoding.h"

#include <algorithm>
#include <array>

#include "analysis/utf8_bom.h"

namespace anchorfs::analysis::python {
namespace {

// cp1252's code points for 0x80-0x9F (0 where the codec defines none: read as Latin-1).
constexpr std::array<uint16_t, 32> kCp1252High = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

std::string_view line_at(std::string_view text, size_t start, size_t& next) {
  size_t end = text.find_first_of("\r\n", start);
  if (end == std::string_view::npos) {
    next = text.size();
    return text.substr(start);
  }
  next = end + 1;
  if (text[end] == '\r' && next < text.size() && text[next] == '\n') ++next;
  return text.substr(start, end - start);
}

bool is_codec_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

// PEP 263: ^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)
std::optional<std::string> codec_of(std::string_view line) {
  size_t i = line.find_first_not_of(" \t\f");
  if (i == std::string_view::npos || line[i] != '#') return std::nullopt;
  for (size_t at = line.find("coding", i); at != std::string_view::npos;
       at = line.find("coding", at + 1)) {
    size_t j = at + 6;
    if (j >= line.size() || (line[j] != ':' && line[j] != '=')) continue;
    ++j;
    while (j < line.size() && (line[j] == ' ' || line[j] == '\t')) ++j;
    size_t end = j;
    while (end < line.size() && is_codec_byte(line[end])) ++end;
    if (end == j) continue;
    std::string codec(line.substr(j, end - j));
    for (char& c : codec) {
      if (c == '_') c = '-';
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return codec;
  }
  return std::nullopt;
}

bool is_blank_or_comment(std::string_view line) {
  size_t i = line.find_first_not_of(" \t\f");
  return i == std::string_view::npos || line[i] == '#';
}

void append_utf8(std::string& out, uint32_t code_point) {
  if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
  } else {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
  }
  out += static_cast<char>(0x80 | (code_point & 0x3F));
}

}  // namespace

std::optional<std::string> declared_encoding(std::string_view text) {
  size_t start = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  size_t next = 0;
  std::string_view line1 = line_at(text, start, next);
  if (auto codec = codec_of(line1)) return codec;
  if (next >= text.size() || !is_blank_or_comment(line1)) return std::nullopt;
  size_t after = 0;
  return codec_of(line_at(text, next, after));
}

bool is_utf8_codec(std::string_view codec) {
  // Python's codec lookup normalises '-' and '_' alike; `codec` arrives with '-'.
  for (std::string_view name : {"utf-8", "utf8", "u8", "utf", "utf-8-sig", "utf8-sig", "cp65001"}) {
    if (codec == name) return true;
  }
  return false;
}

Utf8Source::Utf8Source(std::string_view bytes, std::string_view codec) {
  const bool cp1252 = codec == "cp1252" || codec == "windows-1252";
  text_.reserve(bytes.size());
  uint64_t added = 0;
  for (char c : bytes) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      text_ += c;
      continue;
    }
    uint32_t code_point = byte;
    if (cp1252 && byte < 0xA0 && kCp1252High[byte - 0x80] != 0) code_point = kCp1252High[byte - 0x80];
    append_utf8(text_, code_point);
    added += code_point < 0x800 ? 1 : 2;
    growth_.emplace_back(text_.size(), added);
  }
}

uint64_t Utf8Source::original_offset(uint64_t utf8_offset) const {
  auto after = std::upper_bound(growth_.begin(), growth_.end(), utf8_offset,
                                [](uint64_t offset, const auto& g) { return offset < g.first; });
  return after == growth_.begin() ? utf8_offset : utf8_offset - std::prev(after)->second;
}

}  // namespace anchorfs::analysis::python
