// The Rust front end: claims *.rs files, extracts CodeFacts with tree-sitter-rust, resolves the
// module tree, uses, impls and calls of a repository's crates.
#pragma once

#include "analysis/code/front_end.h"

namespace anchorfs::analysis::rust {

class RustFrontEnd final : public code::CodeFrontEnd {
 public:
  RustFrontEnd();
  std::string_view name() const override { return "rust"; }
  bool claims(std::string_view path) const override;
  const TSLanguage* grammar(std::string_view path) const override;
  bool is_test_path(std::string_view path) const override;
  std::vector<std::string_view> resolution_inputs(const FrontEndOptions& options) const override;
  void resolve(const ResolverInput& input, std::vector<Edge>& edges) const override;

 protected:
  code::CodeFacts extract_code(std::string_view bytes,
                               const FrontEndOptions& options) const override;
};

}  // namespace anchorfs::analysis::rust
