// The Python front end: claims *.py files, extracts facts with tree-sitter, resolves them.
#pragma once

#include "analysis/language.h"

namespace anchorfs::analysis::python {

class PythonFrontEnd final : public LanguageFrontEnd {
 public:
  std::string_view name() const override { return "python"; }
  std::string_view facts_version() const override;
  bool claims(std::string_view path) const override;
  std::unique_ptr<ExtractorState> new_state() const override;
  const TSLanguage* grammar(std::string_view path) const override;
  std::unique_ptr<LanguageFacts> extract(ExtractorState& state, std::string_view bytes,
                                         const FrontEndOptions& options) const override;
  std::string serialize_facts(const LanguageFacts& facts) const override;
  std::unique_ptr<LanguageFacts> deserialize_facts(std::string_view bytes) const override;
  std::vector<std::string_view> resolution_inputs(const FrontEndOptions& options) const override;
  TagSyntax tag_syntax() const override;
  bool is_test_path(std::string_view path) const override;
  // analysis::ResolverInput, spelled out: python::ResolverInput (facts.h) is another type.
  std::unique_ptr<ResolutionState> prepare_resolution(
      const analysis::ResolverInput& input) const override;
  void resolve(const analysis::ResolverInput& input, std::vector<Edge>& edges) const override;
  void resolve_again(const analysis::ResolverInput& input,
                     std::unique_ptr<ResolutionMemory>& memory,
                     std::vector<Edge>& edges) const override;
  std::string serialize_memory(const ResolutionMemory& memory) const override;
  std::unique_ptr<ResolutionMemory> deserialize_memory(
      std::string_view bytes, const analysis::ResolverInput& input,
      const analysis::OldFacts& old_facts) const override;
  void resolve_dense(const analysis::ResolverInput& input, Graph& graph) const override;
};

}  // namespace anchorfs::analysis::python
