// The Go front end: claims *.go files, extracts code::CodeFacts with tree-sitter-go, resolves
// packages through go.mod.
#pragma once

#include "analysis/code/front_end.h"

namespace anchorfs::analysis::go {

class GoFrontEnd final : public code::CodeFrontEnd {
 public:
  GoFrontEnd();
  std::string_view name() const override { return "go"; }
  bool claims(std::string_view path) const override;
  const TSLanguage* grammar(std::string_view path) const override;
  bool is_test_path(std::string_view path) const override;
  std::vector<std::string_view> resolution_inputs(const FrontEndOptions& options) const override;
  void resolve(const ResolverInput& input, std::vector<Edge>& edges) const override;

 protected:
  code::CodeFacts extract_code(std::string_view bytes,
                               const FrontEndOptions& options) const override;
};

}  // namespace anchorfs::analysis::go
