// The Java front end: claims *.java files, extracts CodeFacts with tree-sitter, resolves them.
#pragma once

#include "analysis/language.h"

namespace anchorfs::analysis::java {

class JavaFrontEnd final : public LanguageFrontEnd {
 public:
  std::string_view name() const override { return "java"; }
  std::string_view facts_version() const override;
  bool claims(std::string_view path) const override;
  std::unique_ptr<ExtractorState> new_state() const override;
  const TSLanguage* grammar(std::string_view path) const override;
  bool is_test_path(std::string_view path) const override;
  std::unique_ptr<LanguageFacts> extract(ExtractorState& state, std::string_view bytes,
                                         const FrontEndOptions& options) const override;
  std::string serialize_facts(const LanguageFacts& facts) const override;
  std::unique_ptr<LanguageFacts> deserialize_facts(std::string_view bytes) const override;
  TagSyntax tag_syntax() const override;
  void resolve(const ResolverInput& input, std::vector<Edge>& edges) const override;
};

}  // namespace anchorfs::analysis::java
