// The Java front end: file selection, a parser per thread, the facts encoding, the resolver.
#include "analysis/java/front_end.h"

#include <string>

#include "analysis/code/code_facts.h"
#include "analysis/code/syntax.h"
#include "analysis/java/extract.h"
#include "analysis/java/grammar.h"
#include "analysis/java/resolve.h"
#include "java_facts_fingerprint.h"

namespace anchorfs::analysis::java {
namespace {

// Names the layout of serialize(); the fingerprint names the sources that fill it.
constexpr std::string_view kMagic = "java-facts-1";

}  // namespace

bool JavaFrontEnd::claims(std::string_view path) const {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.size() > 5 && base.ends_with(".java");
}

const TSLanguage* JavaFrontEnd::grammar(std::string_view /*path*/) const {
  return tree_sitter_java();
}

std::string_view JavaFrontEnd::facts_version() const {
  static const std::string version = std::string(kMagic) + "+" + std::string(kJavaFactsFingerprint);
  return version;
}

std::unique_ptr<ExtractorState> JavaFrontEnd::new_state() const {
  return std::make_unique<code::ParserState>();
}

// Maven and Gradle keep tests under src/test/; other layouts name test classes *Test / *Tests.
bool JavaFrontEnd::is_test_path(std::string_view path) const {
  if (path.starts_with("src/test/") || path.find("/src/test/") != std::string_view::npos) {
    return true;
  }
  return path.ends_with("Test.java") || path.ends_with("Tests.java");
}

std::unique_ptr<LanguageFacts> JavaFrontEnd::extract(ExtractorState& state, std::string_view bytes,
                                                     const FrontEndOptions& /*options*/) const {
  return std::make_unique<code::CodeFacts>(
      extract_facts(static_cast<code::ParserState&>(state).parser(), bytes));
}

std::string JavaFrontEnd::serialize_facts(const LanguageFacts& facts) const {
  return code::serialize(static_cast<const code::CodeFacts&>(facts), kMagic);
}

std::unique_ptr<LanguageFacts> JavaFrontEnd::deserialize_facts(std::string_view bytes) const {
  return code::deserialize(bytes, kMagic);
}

// Java nests by braces; indentation is only convention, so lean blocks keep PARENT/CHILDREN.
TagSyntax JavaFrontEnd::tag_syntax() const {
  return {.line_comment = "//", .nesting_shown_by_indent = false};
}

void JavaFrontEnd::resolve(const ResolverInput& input, std::vector<Edge>& edges) const {
  java::resolve(input, edges);
}

}  // namespace anchorfs::analysis::java
