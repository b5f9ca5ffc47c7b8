// The Rust front end: claims *.rs files, extracts CodeFacts with tree-sitter-rust, resolves the
// module tree, uses, impls and calls of a repository's crates.
#pragma once

#include "analysis/language.h"

namespace anchorfs::analysis::rust {

class RustFrontEnd final : public LanguageFrontEnd {
 public:
  std::string_view name() const override { return "rust"; }
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
  std::vector<std::string_view> resolution_inputs(const FrontEndOptions& options) const override;
  void resolve(const ResolverInput& input, std::vector<Edge>& edges) const override;
};

}  // namespace anchorfs::analysis::rust
