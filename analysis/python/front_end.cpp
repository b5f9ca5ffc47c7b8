// The Python front end: file selection, the extraction entry, the resolver.
#include "analysis/python/front_end.h"

#include <tree_sitter/api.h>

#include <string>

#include "analysis/python/dense_parts.h"
#include "analysis/python/dense_resolve.h"
#include "analysis/python/entry_points.h"
#include "analysis/python/extract.h"
#include "analysis/python/facts.h"
#include "analysis/python/grammar.h"
#include "analysis/python/incremental.h"
#include "analysis/python/refresh_memory.h"
#include "analysis/python/resolution.h"
#include "analysis/python/resolve.h"
#include "analysis/python/source_encoding.h"
#include "python_facts_fingerprint.h"

namespace anchorfs::analysis::python {

// Stub files (.pyi) are not analysed: they duplicate the module names of the sources they
// describe and hold no calls, so they would only add ambiguity; they are served unchanged.
bool PythonFrontEnd::claims(std::string_view path) const {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.size() > 3 && base.ends_with(".py");
}

const TSLanguage* PythonFrontEnd::grammar(std::string_view /*path*/) const {
  return tree_sitter_python();
}

// The format version, and a fingerprint of the sources that extract and encode the facts: an
// extractor changed without a version bump (any development build) never gets another's facts.
std::string_view PythonFrontEnd::facts_version() const {
  static const std::string version =
      std::to_string(kFactsVersion) + "+" + std::string(kPythonFactsFingerprint);
  return version;
}

std::unique_ptr<ExtractorState> PythonFrontEnd::new_state() const {
  // Nothing per thread: each file's parse makes its parser in the thread's ParseArena.
  return std::make_unique<ExtractorState>();
}

// The parser reads UTF-8. A file declaring another encoding is parsed re-encoded (so a Latin-1
// identifier such as `caf\xE9` stays whole), its anchors mapped back to the original bytes, and
// its tag text is kept to ASCII, which every codec Python accepts for source can represent.
std::unique_ptr<LanguageFacts> PythonFrontEnd::extract(ExtractorState& /*state*/,
                                                       std::string_view bytes,
                                                       const FrontEndOptions& options) const {
  const std::optional<std::string> codec = declared_encoding(bytes);
  if (!codec || is_utf8_codec(*codec)) {
    return std::make_unique<FileFacts>(extract_facts(bytes, options.dense));
  }
  const Utf8Source source(bytes, *codec);
  auto facts = std::make_unique<FileFacts>(extract_facts(source.text(), options.dense));
  facts->ascii_tags = true;
  facts->file_anchor = source.original_offset(facts->file_anchor);
  for (Scope& scope : facts->scopes) {
    scope.anchor_offset = source.original_offset(scope.anchor_offset);
  }
  return facts;
}

TagSyntax PythonFrontEnd::tag_syntax() const {
  return {.line_comment = "#", .nesting_shown_by_indent = true};
}

bool PythonFrontEnd::is_test_path(std::string_view path) const {
  return python::is_test_path(path);
}

std::string PythonFrontEnd::serialize_facts(const LanguageFacts& facts) const {
  return python::serialize_facts(static_cast<const FileFacts&>(facts));
}

std::unique_ptr<LanguageFacts> PythonFrontEnd::deserialize_facts(std::string_view bytes) const {
  auto facts = python::deserialize_facts(bytes);
  if (!facts) return nullptr;
  return std::make_unique<FileFacts>(std::move(*facts));
}

std::vector<std::string_view> PythonFrontEnd::resolution_inputs(
    const FrontEndOptions& options) const {
  if (!options.dense) return {};
  return {std::begin(kEntryPointFiles), std::end(kEntryPointFiles)};
}

std::unique_ptr<analysis::ResolutionState> PythonFrontEnd::prepare_resolution(
    const analysis::ResolverInput& input) const {
  return std::make_unique<Resolution>(input);
}

void PythonFrontEnd::resolve(const analysis::ResolverInput& input, std::vector<Edge>& edges) const {
  const auto& resolution = static_cast<const Resolution&>(*input.state);
  python::resolve(resolution.input(), resolution.imports(), edges, nullptr, input.threads);
}

void PythonFrontEnd::resolve_again(const analysis::ResolverInput& input,
                                   std::unique_ptr<ResolutionMemory>& memory,
                                   std::vector<Edge>& edges) const {
  python::resolve_again(input, memory, edges);
}

std::string PythonFrontEnd::serialize_memory(const ResolutionMemory& memory) const {
  const auto* kept = dynamic_cast<const RefreshMemory*>(&memory);
  return kept == nullptr ? std::string() : python::serialize_memory(*kept);
}

std::unique_ptr<ResolutionMemory> PythonFrontEnd::deserialize_memory(
    std::string_view bytes, const analysis::ResolverInput& input,
    const analysis::OldFacts& old_facts) const {
  return python::deserialize_memory(bytes, input, old_facts);
}

void PythonFrontEnd::resolve_dense(const analysis::ResolverInput& input, Graph& graph) const {
  const auto& resolution = static_cast<const Resolution&>(*input.state);
  add_dense_relations(resolution.input(), resolution.imports(), graph);
}

}  // namespace anchorfs::analysis::python
