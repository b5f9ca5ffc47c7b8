// The Java front end: claims *.java files, extracts CodeFacts with tree-sitter, resolves them.
#pragma once

#include "analysis/code/front_end.h"

namespace anchorfs::analysis::java {

class JavaFrontEnd final : public code::CodeFrontEnd {
 public:
  JavaFrontEnd();
  std::string_view name() const override { return "java"; }
  bool claims(std::string_view path) const override;
  const TSLanguage* grammar(std::string_view path) const override;
  bool is_test_path(std::string_view path) const override;
  void resolve(const ResolverInput& input, std::vector<Edge>& edges) const override;

 protected:
  code::CodeFacts extract_code(std::string_view bytes,
                               const FrontEndOptions& options) const override;
};

}  // namespace anchorfs::analysis::java
