// Reading tag blocks back out of a rendered view, for assertions on specific entities.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace anchorfs::itest {

// The fields ("CALLS" -> "a, b") of the tag block whose entity line is `entity_line` (e.g.
// "function: bookshelf/models.py:Item.__init__"); empty when there is no such block.
std::map<std::string, std::string> tag_fields(const std::string& view,
                                              const std::string& entity_line);

// The comma-separated values of a field, without a trailing "… (+K more)".
std::vector<std::string> field_values(const std::string& field);

// True when `field` lists `value` exactly.
bool lists(const std::map<std::string, std::string>& fields, const std::string& name,
           const std::string& value);

// The lines of the block naming `entity_line`, delimiters included, as they appear (with indent
// and line terminator); empty when there is no such block.
std::string tag_block(const std::string& view, const std::string& entity_line);

}  // namespace anchorfs::itest
