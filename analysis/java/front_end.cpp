// The Java front end: file selection, the facts encoding, the resolver.
#include "analysis/java/front_end.h"

#include <string>

#include "analysis/java/extract.h"
#include "analysis/java/grammar.h"
#include "analysis/java/resolve.h"
#include "java_facts_fingerprint.h"

namespace anchorfs::analysis::java {
namespace {

// Names the layout of serialize(); the fingerprint names the sources that fill it.
constexpr std::string_view kMagic = "java-facts-3";

}  // namespace

// Java nests by braces; indentation is only convention, so lean blocks keep PARENT/CHILDREN.
JavaFrontEnd::JavaFrontEnd()
    : CodeFrontEnd(kMagic, kJavaFactsFingerprint, /*nesting_shown_by_indent=*/false) {}

bool JavaFrontEnd::claims(std::string_view path) const {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.size() > 5 && base.ends_with(".java");
}

const TSLanguage* JavaFrontEnd::grammar(std::string_view /*path*/) const {
  return tree_sitter_java();
}

// Maven and Gradle keep tests under src/test/; other layouts name test classes *Test / *Tests.
bool JavaFrontEnd::is_test_path(std::string_view path) const {
  if (path.starts_with("src/test/") || path.find("/src/test/") != std::string_view::npos) {
    return true;
  }
  return path.ends_with("Test.java") || path.ends_with("Tests.java");
}

code::CodeFacts JavaFrontEnd::extract_code(std::string_view bytes,
                                           const FrontEndOptions& /*options*/) const {
  return extract_facts(bytes);
}

void JavaFrontEnd::resolve(const ResolverInput& input, std::vector<Edge>& edges) const {
  java::resolve(input, edges);
}

}  // namespace anchorfs::analysis::java
