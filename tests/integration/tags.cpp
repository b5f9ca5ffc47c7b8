// Parsing tag blocks out of rendered views (the format of DESIGN.md).
#include "tags.h"

#include <algorithm>

namespace anchorfs::itest {
namespace {

// The comment text of a line: indentation, "#", one space and the line terminator removed.
std::string comment_text(std::string line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  const size_t start = line.find_first_not_of(" \t\f");
  if (start == std::string::npos || line[start] != '#') return {};
  line.erase(0, start + 1);
  if (!line.empty() && line[0] == ' ') line.erase(0, 1);
  return line;
}

bool is_delimiter(const std::string& text) {
  return text.size() > 8 && text.rfind("=== ", 0) == 0 &&
         text.compare(text.size() - 4, 4, " ===") == 0;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

// Index of the entity line of the block, or npos.
size_t find_entity_line(const std::vector<std::string>& lines, const std::string& entity_line) {
  for (size_t i = 1; i < lines.size(); ++i) {
    if (comment_text(lines[i]) == entity_line && is_delimiter(comment_text(lines[i - 1]))) return i;
  }
  return std::string::npos;
}

}  // namespace

std::map<std::string, std::string> tag_fields(const std::string& view,
                                              const std::string& entity_line) {
  std::map<std::string, std::string> fields;
  const std::vector<std::string> lines = split_lines(view);
  const size_t at = find_entity_line(lines, entity_line);
  if (at == std::string::npos) return fields;
  fields["entity"] = entity_line;
  for (size_t i = at + 1; i < lines.size(); ++i) {
    const std::string text = comment_text(lines[i]);
    if (is_delimiter(text)) break;
    const size_t colon = text.find(": ");
    if (colon != std::string::npos) fields[text.substr(0, colon)] = text.substr(colon + 2);
  }
  return fields;
}

std::vector<std::string> field_values(const std::string& field) {
  std::vector<std::string> values;
  size_t start = 0;
  while (start <= field.size()) {
    size_t end = field.find(", ", start);
    if (end == std::string::npos) end = field.size();
    std::string value = field.substr(start, end - start);
    if (!value.empty() && value.find("(+") == std::string::npos) values.push_back(value);
    start = end + 2;
  }
  return values;
}

bool lists(const std::map<std::string, std::string>& fields, const std::string& name,
           const std::string& value) {
  const auto it = fields.find(name);
  if (it == fields.end()) return false;
  const std::vector<std::string> values = field_values(it->second);
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string tag_block(const std::string& view, const std::string& entity_line) {
  const std::vector<std::string> lines = split_lines(view);
  const size_t at = find_entity_line(lines, entity_line);
  if (at == std::string::npos) return {};
  std::string block = lines[at - 1];
  for (size_t i = at; i < lines.size(); ++i) {
    block += lines[i];
    if (i > at && is_delimiter(comment_text(lines[i]))) break;
  }
  return block;
}

}  // namespace anchorfs::itest
