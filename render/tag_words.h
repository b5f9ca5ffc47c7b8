// Whether a text holds a word every tag delimiter title or lean header holds: one pass, for the
// survey's check of every source on every mount.
#pragma once

#include <cstddef>
#include <string_view>

namespace anchorfs::render {

// True when `text` contains " Annotation ===", " @function ", " @class " or " @file " (false
// rules out every delimiter line and lean header; true says only that a line must be checked).
bool holds_tag_word(std::string_view text);

// The offset of the first such word's '@' or "==" at or after `from` (a word that starts before
// `from` but holds it later counts), or npos: the line holding it is the one to check.
size_t next_tag_word(std::string_view text, size_t from);

}  // namespace anchorfs::render
