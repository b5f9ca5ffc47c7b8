// Spelling rules shared by dense extraction and resolution.
#include "analysis/python/dense_names.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace anchorfs::analysis::python {
std::string_view without_call(std::string_view part) {
  if (part.ends_with("()")) part.remove_suffix(2);
  return part;
}

namespace {

bool equals_lower(std::string_view part, std::string_view lower) {
  return part.size() == lower.size() &&
         std::equal(part.begin(), part.end(), lower.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

}  // namespace

bool is_constant_name(std::string_view name) {
  size_t i = 0;
  while (i < name.size() && name[i] == '_') ++i;
  if (name.size() - i < 2 || name[i] < 'A' || name[i] > 'Z') return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(i), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::vector<std::string_view> split_chain(std::string_view chain) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = chain.find('.', start);
    parts.push_back(chain.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string_view chain_root(std::string_view chain) {
  return chain.substr(0, chain.find_first_of(".("));
}

std::string_view chain_last(std::string_view chain) {
  const size_t dot = chain.rfind('.');
  return without_call(dot == std::string_view::npos ? chain : chain.substr(dot + 1));
}

bool is_file_method(std::string_view name) {
  return name == "read_text" || name == "write_text" || name == "read_bytes" ||
         name == "write_bytes";
}

bool is_config_part(std::string_view part) {
  part = without_call(part);
  return equals_lower(part, "config") || equals_lower(part, "settings") ||
         equals_lower(part, "conf") || equals_lower(part, "cfg");
}

bool chain_mentions_resource(std::string_view chain) {
  for (std::string_view part : split_chain(chain)) {
    part = without_call(part);
    if (is_config_part(part) || equals_lower(part, "environ") || equals_lower(part, "environb")) {
      return true;
    }
    std::string lower(part);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("cursor") != std::string::npos) return true;
  }
  return false;
}

}  // namespace anchorfs::analysis::python
