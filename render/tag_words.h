// Whether a text holds a word every tag delimiter title or lean header holds: one pass, for the
// survey's check of every source on every mount.
#pragma once

#include <string_view>

namespace anchorfs::render {

// True when `text` contains " Annotation ===", " @function ", " @class " or " @file " (false
// rules out every delimiter line and lean header; true says only that a line must be checked).
bool holds_tag_word(std::string_view text);

}  // namespace anchorfs::render
