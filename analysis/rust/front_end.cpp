// The Rust front end: file selection, the facts encoding, the resolver.
#include "analysis/rust/front_end.h"

#include <string>

#include "analysis/rust/extract.h"
#include "analysis/rust/facts_layout.h"
#include "analysis/rust/grammar.h"
#include "analysis/rust/resolve.h"
#include "rust_facts_fingerprint.h"

namespace anchorfs::analysis::rust {

// Methods sit indented inside their impl block, so indentation shows nesting.
RustFrontEnd::RustFrontEnd()
    : CodeFrontEnd(kFactsMagic, kRustFactsFingerprint, /*nesting_shown_by_indent=*/true) {}

bool RustFrontEnd::claims(std::string_view path) const {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.size() > 3 && base.ends_with(".rs");
}

const TSLanguage* RustFrontEnd::grammar(std::string_view /*path*/) const {
  return tree_sitter_rust();
}

// Cargo's test targets (tests/), and what conventionally holds only tests.
bool RustFrontEnd::is_test_path(std::string_view path) const {
  return path.starts_with("tests/") || path.find("/tests/") != std::string_view::npos ||
         path.ends_with("/tests.rs") || path == "tests.rs";
}

code::CodeFacts RustFrontEnd::extract_code(std::string_view bytes,
                                           const FrontEndOptions& /*options*/) const {
  return extract_facts(bytes);
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
