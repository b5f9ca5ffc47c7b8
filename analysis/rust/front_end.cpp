// The Rust front end: file selection, a parser per thread, the facts encoding, the resolver.
#include "analysis/rust/front_end.h"

#include <string>

#include "analysis/code/code_facts.h"
#include "analysis/code/syntax.h"
#include "analysis/rust/extract.h"
#include "analysis/rust/facts_layout.h"
#include "analysis/rust/grammar.h"
#include "analysis/rust/resolve.h"
#include "rust_facts_fingerprint.h"

namespace anchorfs::analysis::rust {

bool RustFrontEnd::claims(std::string_view path) const {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.size() > 3 && base.ends_with(".rs");
}

const TSLanguage* RustFrontEnd::grammar(std::string_view /*path*/) const {
  return tree_sitter_rust();
}

// The layout's magic plus a fingerprint of the sources that extract and encode the facts.
std::string_view RustFrontEnd::facts_version() const {
  static const std::string version =
      std::string(kFactsMagic) + "+" + std::string(kRustFactsFingerprint);
  return version;
}

// Cargo's test targets (tests/), and what conventionally holds only tests.
bool RustFrontEnd::is_test_path(std::string_view path) const {
  return path.starts_with("tests/") || path.find("/tests/") != std::string_view::npos ||
         path.ends_with("/tests.rs") || path == "tests.rs";
}

std::unique_ptr<ExtractorState> RustFrontEnd::new_state() const {
  return std::make_unique<code::ParserState>();
}

std::unique_ptr<LanguageFacts> RustFrontEnd::extract(ExtractorState& state, std::string_view bytes,
                                                     const FrontEndOptions& /*options*/) const {
  TSParser* parser = static_cast<code::ParserState&>(state).parser();
  return std::make_unique<code::CodeFacts>(extract_facts(parser, bytes));
}

std::string RustFrontEnd::serialize_facts(const LanguageFacts& facts) const {
  return code::serialize(static_cast<const code::CodeFacts&>(facts), kFactsMagic);
}

std::unique_ptr<LanguageFacts> RustFrontEnd::deserialize_facts(std::string_view bytes) const {
  return code::deserialize(bytes, kFactsMagic);
}

// Rust code is indented under what contains it (rustfmt), so lean blocks name definitions by their
// simple names, as Python's do.
TagSyntax RustFrontEnd::tag_syntax() const {
  return {.line_comment = "//", .nesting_shown_by_indent = true};
}

// The repository's top Cargo.toml. Manifests further down (workspace members, or crates side by
// side) are read too but cannot be named here: the seam asks before it knows the tree.
std::vector<std::string_view> RustFrontEnd::resolution_inputs(
    const FrontEndOptions& /*options*/) const {
  return {"Cargo.toml"};
}

void RustFrontEnd::resolve(const ResolverInput& input, std::vector<Edge>& edges) const {
  rust::resolve(input, edges);
}

}  // namespace anchorfs::analysis::rust
