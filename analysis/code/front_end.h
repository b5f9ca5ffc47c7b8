// What every brace-language front end shares: CodeFacts encoded under the
// front end's own magic, versioned by its source fingerprint, and `//` tag lines.
#pragma once

#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>

#include "analysis/code/code_facts.h"
#include "analysis/language.h"

namespace anchorfs::analysis::code {

class CodeFrontEnd : public LanguageFrontEnd {
 public:
  std::string_view facts_version() const final { return version_; }
  std::unique_ptr<ExtractorState> new_state() const final;
  std::unique_ptr<LanguageFacts> extract(ExtractorState& state, std::string_view bytes,
                                         const FrontEndOptions& options) const final;
  std::string serialize_facts(const LanguageFacts& facts) const final;
  std::unique_ptr<LanguageFacts> deserialize_facts(std::string_view bytes) const final;
  TagSyntax tag_syntax() const final;

 protected:
  // `magic` names the facts' layout (bump it on any change of meaning); `fingerprint` covers the
  // sources that extract and encode them (cmake/SourceFingerprint.cmake). Whether a nested
  // definition sits indented inside its parent's braces (Rust impl blocks: yes; Go methods,
  // declared outside their type: no) decides whether lean blocks may leave PARENT to the code.
  // `separate_blocks`: TagSyntax::separate_blocks.
  CodeFrontEnd(std::string_view magic, std::string_view fingerprint, bool nesting_shown_by_indent,
               bool separate_blocks = false);

  // One file's facts, parsing it once (code::ParsedTree); any bytes, never a crash.
  virtual CodeFacts extract_code(std::string_view bytes, const FrontEndOptions& options) const = 0;

 private:
  std::string_view magic_;
  std::string version_;
  bool nesting_shown_by_indent_;
  bool separate_blocks_;
};

}  // namespace anchorfs::analysis::code
