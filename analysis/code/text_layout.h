// A file's line layout as every brace front end reports it: its first line terminator and its
// line count, with one rule for what a line break is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/language_facts.h"

namespace anchorfs::analysis::code {

// "\n", "\r\n" or "\r": the first line terminator, "\n" when there is none (tag lines are
// written with it).
std::string first_newline(std::string_view bytes);

// Lines as tree-sitter numbers them (definition lines come from its rows): a line break is "\n"
// (so "\r\n" counts once); a lone "\r" is not one; an unterminated last line counts.
uint32_t line_count(std::string_view bytes);

// Sets facts.newline and facts.lines from `bytes`.
void set_layout(LanguageFacts& facts, std::string_view bytes);

}  // namespace anchorfs::analysis::code
