// The Go front end: file selection, the facts encoding.
#include "analysis/go/front_end.h"

#include <string>

#include "analysis/go/extract.h"
#include "analysis/go/grammar.h"
#include "analysis/go/resolve.h"
#include "go_facts_fingerprint.h"

namespace anchorfs::analysis::go {
namespace {

// Names the layout of the cached facts; the fingerprint below covers the extractor's sources.
constexpr std::string_view kFactsMagic = "go-facts-3";

bool under_vendor(std::string_view path) {
  return path.starts_with("vendor/") || path.find("/vendor/") != std::string_view::npos;
}

}  // namespace

// Methods sit outside their type's braces, so nesting does not show by indentation: lean
// blocks keep PARENT and CHILDREN, and names are qualified within the file.
GoFrontEnd::GoFrontEnd()
    : CodeFrontEnd(kFactsMagic, kGoFactsFingerprint, /*nesting_shown_by_indent=*/false,
                   /*separate_blocks=*/true) {}

// vendor/ holds copies of other modules: analysing them would double every package they hold,
// so they are served unchanged (Go itself resolves imports to them only in vendor mode).
bool GoFrontEnd::claims(std::string_view path) const {
  return path.size() > 3 && path.ends_with(".go") && !under_vendor(path);
}

const TSLanguage* GoFrontEnd::grammar(std::string_view /*path*/) const {
  return tree_sitter_go();
}

bool GoFrontEnd::is_test_path(std::string_view path) const {
  return path.ends_with("_test.go");
}

code::CodeFacts GoFrontEnd::extract_code(std::string_view bytes,
                                         const FrontEndOptions& /*options*/) const {
  return extract_facts(bytes);
}

std::vector<std::string_view> GoFrontEnd::resolution_inputs(
    const FrontEndOptions& /*options*/) const {
  return {kRootModuleFile};
}

void GoFrontEnd::resolve(const ResolverInput& input, std::vector<Edge>& edges) const {
  go::resolve(input, edges);
}

}  // namespace anchorfs::analysis::go
