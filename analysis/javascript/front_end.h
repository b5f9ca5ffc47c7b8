// The JavaScript/TypeScript front end: one language for .js .jsx .mjs .cjs .ts .tsx .mts .cts, so
// that a TypeScript file importing a JavaScript file (and the reverse) resolves in one pass.
#pragma once

#include "analysis/code/front_end.h"

namespace anchorfs::analysis::javascript {

class JavaScriptFrontEnd final : public code::CodeFrontEnd {
 public:
  JavaScriptFrontEnd();
  std::string_view name() const override { return "javascript"; }
  bool claims(std::string_view path) const override;
  const TSLanguage* grammar(std::string_view path) const override;
  std::string_view dialect(std::string_view path) const override;
  bool is_test_path(std::string_view path) const override;
  std::vector<std::string_view> resolution_inputs(const FrontEndOptions& options) const override;
  void resolve(const ResolverInput& input, std::vector<Edge>& edges) const override;

 protected:
  code::CodeFacts extract_code(std::string_view bytes,
                               const FrontEndOptions& options) const override;
};

}  // namespace anchorfs::analysis::javascript
