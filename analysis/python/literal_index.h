// The literal index of a subscript as the extractor records it ("2", "1:3", ":", "?:4"): parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace anchorfs::analysis::python {

struct LiteralIndex {
  bool valid = false;  // false: not a literal index
  bool slice = false;
  uint32_t index = 0;              // a plain index
  std::optional<uint32_t> lo, hi;  // a slice's decimal bounds (nullopt: empty)
  bool unknown_bound = false;      // a slice bound that is not a literal
};

namespace literal_index_detail {
inline std::optional<uint32_t> decimal(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  uint32_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint32_t>(c - '0');
  }
  return v;
}
}  // namespace literal_index_detail

// Not valid for anything the extractor would not have written.
inline LiteralIndex parse_literal_index(std::string_view s) {
  using literal_index_detail::decimal;
  LiteralIndex out;
  const size_t colon = s.find(':');
  if (colon == std::string_view::npos) {
    const auto v = decimal(s);
    if (!v) return {};
    out.index = *v;
    out.valid = true;
    return out;
  }
  out.slice = true;
  const std::string_view bounds[2] = {s.substr(0, colon), s.substr(colon + 1)};
  std::optional<uint32_t>* targets[2] = {&out.lo, &out.hi};
  for (int i = 0; i < 2; ++i) {
    if (bounds[i].empty()) continue;
    if (bounds[i] == "?") {
      out.unknown_bound = true;
    } else if (auto v = decimal(bounds[i])) {
      *targets[i] = v;
    } else {
      return {};
    }
  }
  out.valid = true;
  return out;
}

}  // namespace anchorfs::analysis::python
