// The C and C++ front end: one front end, two dialects (tree-sitter-c, tree-sitter-cpp).
#pragma once

#include "analysis/code/front_end.h"

namespace anchorfs::analysis::cfamily {

class CFamilyFrontEnd final : public code::CodeFrontEnd {
 public:
  CFamilyFrontEnd();
  std::string_view name() const override { return "c"; }
  bool claims(std::string_view path) const override;
  const TSLanguage* grammar(std::string_view path) const override;
  std::string_view dialect(std::string_view path) const override;
  bool is_test_path(std::string_view path) const override;
  std::vector<std::string_view> resolution_inputs(const FrontEndOptions& options) const override;
  void resolve(const ResolverInput& input, std::vector<Edge>& edges) const override;
  void resolve_again(const ResolverInput& input, std::unique_ptr<ResolutionMemory>& memory,
                     std::vector<Edge>& edges) const override;

 protected:
  code::CodeFacts extract_code(std::string_view bytes,
                               const FrontEndOptions& options) const override;
};

}  // namespace anchorfs::analysis::cfamily
