// The JavaScript/TypeScript front end: file selection and grammar per extension, extraction into
// CodeFacts, their cache encoding, and the resolver.
#include "analysis/javascript/front_end.h"

#include <string>

#include "analysis/javascript/dialect.h"
#include "analysis/javascript/extract.h"
#include "analysis/javascript/project_config.h"
#include "analysis/javascript/resolve.h"
#include "javascript_facts_fingerprint.h"

namespace anchorfs::analysis::javascript {
namespace {

// The layout of the facts (code::serialize with this magic); bump on any change of meaning.
constexpr std::string_view kFactsMagic = "javascript-facts-3";

}  // namespace

// The magic, and a fingerprint of the sources that extract and encode the facts: an extractor
// changed without a version bump (any development build) never gets another's facts. Nesting is
// by braces, not indentation, so lean blocks keep PARENT/CHILDREN.
JavaScriptFrontEnd::JavaScriptFrontEnd()
    : CodeFrontEnd(kFactsMagic, kJavaScriptFactsFingerprint, /*nesting_shown_by_indent=*/false) {}

bool JavaScriptFrontEnd::claims(std::string_view path) const {
  return dialect_of(path).has_value();
}

const TSLanguage* JavaScriptFrontEnd::grammar(std::string_view path) const {
  return grammar_of(dialect_of(path).value_or(Dialect::JavaScript));
}

std::string_view JavaScriptFrontEnd::dialect(std::string_view path) const {
  return dialect_name(dialect_of(path).value_or(Dialect::JavaScript));
}

// Tests by the conventions of Jest, Mocha, Vitest and Jasmine: *.test.*, *.spec.*, and files
// under __tests__/ or a test/ or tests/ directory.
bool JavaScriptFrontEnd::is_test_path(std::string_view path) const {
  const std::string padded = "/" + std::string(path);
  if (padded.find("/__tests__/") != std::string::npos || padded.find("/test/") != std::string::npos ||
      padded.find("/tests/") != std::string::npos) {
    return true;
  }
  const size_t slash = padded.rfind('/');
  const std::string_view base = std::string_view(padded).substr(slash + 1);
  return base.find(".test.") != std::string_view::npos ||
         base.find(".spec.") != std::string_view::npos;
}

code::CodeFacts JavaScriptFrontEnd::extract_code(std::string_view bytes,
                                                 const FrontEndOptions& options) const {
  return extract_facts(bytes, dialect_of(options.path).value_or(Dialect::JavaScript));
}

std::vector<std::string_view> JavaScriptFrontEnd::resolution_inputs(
    const FrontEndOptions& /*options*/) const {
  return {std::begin(kConfigFiles), std::end(kConfigFiles)};
}

void JavaScriptFrontEnd::resolve(const ResolverInput& input, std::vector<Edge>& edges) const {
  std::vector<std::string_view> paths;
  paths.reserve(input.files.size());
  for (const ResolverFile& file : input.files) paths.push_back(file.path);
  javascript::resolve(input, read_project_config(input.root, paths), edges);
}

}  // namespace anchorfs::analysis::javascript
