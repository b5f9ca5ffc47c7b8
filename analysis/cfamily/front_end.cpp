// The C and C++ front end: file selection, the dialect of each file, the facts encoding.
#include "analysis/cfamily/front_end.h"

#include <array>

#include "analysis/cfamily/extract.h"
#include "analysis/cfamily/grammar.h"
#include "analysis/cfamily/incremental.h"
#include "analysis/cfamily/includes.h"
#include "analysis/cfamily/lexical.h"
#include "analysis/cfamily/resolve.h"
#include "cfamily_facts_fingerprint.h"

namespace anchorfs::analysis::cfamily {
namespace {

// Names the layout of the cached facts; the fingerprint below covers the extractor's sources.
constexpr std::string_view kFactsMagic = "c-facts-3";

constexpr std::array<std::string_view, 11> kCppExtensions = {
    ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tcc", ".inl"};

std::string_view extension(std::string_view path) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash) ||
      dot == (slash == std::string_view::npos ? 0 : slash + 1)) {
    return {};
  }
  return path.substr(dot);
}

bool is_cpp_extension(std::string_view ext) {
  for (const std::string_view e : kCppExtensions) {
    if (ext == e) return true;
  }
  return false;
}

}  // namespace

// Out-of-line methods sit outside their class's braces, and C nests nothing by braces that a
// block needs: lean blocks keep PARENT and CHILDREN.
CFamilyFrontEnd::CFamilyFrontEnd()
    : CodeFrontEnd(kFactsMagic, kCFactsFingerprint, /*nesting_shown_by_indent=*/false) {}

bool CFamilyFrontEnd::claims(std::string_view path) const {
  const std::string_view ext = extension(path);
  return ext == ".c" || ext == ".h" || is_cpp_extension(ext);
}

// "c", "cpp", or "h": a header whose dialect its own text decides at extraction (lexical.h).
std::string_view CFamilyFrontEnd::dialect(std::string_view path) const {
  const std::string_view ext = extension(path);
  if (ext == ".h") return "h";
  return is_cpp_extension(ext) ? "cpp" : "c";
}

// A `.h` is measured with the C grammar here; extraction picks by the header's own text.
const TSLanguage* CFamilyFrontEnd::grammar(std::string_view path) const {
  return grammar_of(dialect(path) == "cpp" ? Dialect::Cpp : Dialect::C);
}

bool CFamilyFrontEnd::is_test_path(std::string_view path) const {
  // Each directory name with its leading slash, so that a match inside the path needs no string
  // built per call (this runs for every file of every graph index: each refresh's included).
  for (const std::string_view slash_dir : {"/test/", "/tests/", "/testing/", "/unittests/"}) {
    if (path.starts_with(slash_dir.substr(1)) || path.find(slash_dir) != std::string_view::npos) {
      return true;
    }
  }
  const size_t dot = path.rfind('.');
  const std::string_view stem = path.substr(0, dot);
  return stem.ends_with("_test") || stem.ends_with("_unittest");
}

code::CodeFacts CFamilyFrontEnd::extract_code(std::string_view bytes,
                                              const FrontEndOptions& options) const {
  const std::string_view d = dialect(options.path);
  const bool cpp = d == "cpp" || (d == "h" && looks_like_cpp(bytes));
  return extract_facts(bytes, cpp ? Dialect::Cpp : Dialect::C);
}

std::vector<std::string_view> CFamilyFrontEnd::resolution_inputs(
    const FrontEndOptions& /*options*/) const {
  return {kCompileCommands};
}

void CFamilyFrontEnd::resolve(const ResolverInput& input, std::vector<Edge>& edges) const {
  cfamily::resolve(input, edges);
}

void CFamilyFrontEnd::resolve_again(const ResolverInput& input,
                                    std::unique_ptr<ResolutionMemory>& memory,
                                    std::vector<Edge>& edges) const {
  cfamily::resolve_again(input, memory, edges);
}

}  // namespace anchorfs::analysis::cfamily
