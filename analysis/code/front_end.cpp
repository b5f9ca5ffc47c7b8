// CodeFrontEnd: the parts of a brace-language front end that do not depend on the language.
#include "analysis/code/front_end.h"

namespace anchorfs::analysis::code {

CodeFrontEnd::CodeFrontEnd(std::string_view magic, std::string_view fingerprint,
                           bool nesting_shown_by_indent, bool separate_blocks)
    : magic_(magic),
      version_(std::string(magic) + "+" + std::string(fingerprint)),
      nesting_shown_by_indent_(nesting_shown_by_indent),
      separate_blocks_(separate_blocks) {}

std::unique_ptr<ExtractorState> CodeFrontEnd::new_state() const {
  // Nothing per thread: each file's parse makes its parser in the thread's ParseArena.
  return std::make_unique<ExtractorState>();
}

std::unique_ptr<LanguageFacts> CodeFrontEnd::extract(ExtractorState& /*state*/,
                                                     std::string_view bytes,
                                                     const FrontEndOptions& options) const {
  auto facts = std::make_unique<CodeFacts>(extract_code(bytes, options));
  // These languages have no dense facts yet: what was extracted serves every view, and cached
  // facts are not extracted again for a dense analysis.
  facts->dense_extracted = true;
  return facts;
}

std::string CodeFrontEnd::serialize_facts(const LanguageFacts& facts) const {
  return serialize(static_cast<const CodeFacts&>(facts), magic_);
}

std::unique_ptr<LanguageFacts> CodeFrontEnd::deserialize_facts(std::string_view bytes) const {
  return deserialize(bytes, magic_);
}

TagSyntax CodeFrontEnd::tag_syntax() const {
  return {.line_comment = "//",
          .nesting_shown_by_indent = nesting_shown_by_indent_,
          .separate_blocks = separate_blocks_};
}

}  // namespace anchorfs::analysis::code
