// The plug-in interface of a language front end: everything language-specific behind one seam.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/fact_cache.h"
#include "analysis/graph.h"
#include "analysis/language_facts.h"

struct TSLanguage;

namespace anchorfs::analysis {

// One file of a front end's language as its resolver sees it.
struct ResolverFile {
  std::string_view path;                 // repository-relative
  const LanguageFacts* facts = nullptr;  // made by this front end's extract or deserialize_facts
  EntityIndex entity = kNoEntity;        // its File entity; definition d is entity + d
  // The digest of the bytes its facts were made from; null when the analysis has none (no
  // cache), which resolve_again takes as "nothing known about what changed".
  const ContentDigest* digest = nullptr;
  // Shares ownership of `facts` (null when the caller holds them otherwise): a front end's
  // ResolutionMemory may keep them to compare an edited file's new facts with its old ones.
  std::shared_ptr<const LanguageFacts> shared_facts = nullptr;
};

// What a front end builds once per analysis from every file of its language and hands to each
// of its resolution steps, so that they share it rather than each rebuilding it (Python: one
// module index and import table for the call graph and the dense relations).
class ResolutionState {
 public:
  virtual ~ResolutionState() = default;
};

// What a front end keeps of one resolution for the next resolution of the same tree after an
// edit (a live refresh), so that it can redo only what the edit can change.
class ResolutionMemory {
 public:
  virtual ~ResolutionMemory() = default;
};

// The facts a file of this front end had when its bytes had `digest` (the cache's record of
// them), or null when they cannot be found.
using OldFacts = std::function<std::shared_ptr<const LanguageFacts>(const ContentDigest& digest,
                                                                    std::string_view path)>;

struct ResolverInput {
  std::string_view root;  // absolute path of the repository (its basename may name a package)
  std::span<const ResolverFile> files;  // sorted by path
  // What this front end's prepare_resolution made from the same root and files; nullptr when it
  // makes nothing.
  ResolutionState* state = nullptr;
  // How many threads the resolution may keep busy at once (the caller's thread included).
  size_t threads = 1;
};

// What the caller asks of an analysis that a front end must honour.
struct FrontEndOptions {
  bool dense = true;  // extract and resolve the dense view's facts too
  // The repository-relative path of the file `extract` reads ("" where there is none): a
  // language whose grammar depends on the file name (TypeScript or TSX) chooses by it.
  std::string_view path = {};
};

// Per-thread working state of a front end (a parser, scratch buffers).
class ExtractorState {
 public:
  virtual ~ExtractorState() = default;
};

// How tag blocks are written in a language's files (render asks; it knows no language).
struct TagSyntax {
  std::string_view line_comment;         // starts a comment running to the end of the line
  bool nesting_shown_by_indent = false;  // a nested definition is indented under its parent
  // Every block is followed by an empty line, for languages where a comment directly above a
  // declaration is its documentation (Go: `go doc` would show the tag lines). Strip removes that
  // line with the block; the front end places blocks where an empty line is the formatter's own
  // choice (docs/tag-format.md, "Separated blocks").
  bool separate_blocks = false;
};

// A language front end. Implementations are stateless after construction: `extract` is called
// concurrently from several threads, each with its own ExtractorState; `prepare_resolution`,
// `resolve` and `resolve_dense` once per analysis, in that order, their shared state owned by
// the caller. Nothing outside analysis/<language>/ knows anything about a language but through
// this interface (docs/architecture.md, "Adding a language").
class LanguageFrontEnd {
 public:
  virtual ~LanguageFrontEnd() = default;

  // Stable and unique: names the language in the graph (FileInfo::language), statistics and
  // cache keys.
  virtual std::string_view name() const = 0;

  // The version of this front end's facts (their content and serialization). Cache entries are
  // keyed by it: change it whenever `extract` could give different facts for the same bytes.
  virtual std::string_view facts_version() const = 0;

  // Whether a regular file at this repository-relative path belongs to this language.
  virtual bool claims(std::string_view path) const = 0;

  // --- Per-file facts -------------------------------------------------------------------------
  virtual std::unique_ptr<ExtractorState> new_state() const = 0;

  // The tree-sitter grammar `extract` parses a file at this path with: tools measuring the
  // parse floor (analysis/tools/parse_floor.cpp) parse with it alone.
  virtual const TSLanguage* grammar(std::string_view path) const = 0;

  // The grammar variant a file at this path is parsed with, when a front end has several (the
  // JavaScript front end: "js", "ts", "tsx"). It is part of the facts' cache key, so identical
  // bytes under two extensions never share facts extracted with another grammar.
  virtual std::string_view dialect(std::string_view /*path*/) const { return {}; }

  // Whether the file at this repository-relative path is test code (tags rank links into tests
  // after links into product code).
  virtual bool is_test_path(std::string_view /*path*/) const { return false; }

  // Facts of one file, parsing it exactly once. Must accept any bytes (invalid encodings,
  // partial syntax, absurd nesting) without crashing.
  virtual std::unique_ptr<LanguageFacts> extract(ExtractorState& state, std::string_view bytes,
                                                 const FrontEndOptions& options) const = 0;

  // A compact encoding of facts this front end made, and back. deserialize_facts returns
  // nullptr for anything that is not a well-formed encoding of this facts_version (garbage,
  // truncation, out-of-range references) and never crashes.
  virtual std::string serialize_facts(const LanguageFacts& facts) const = 0;
  virtual std::unique_ptr<LanguageFacts> deserialize_facts(std::string_view bytes) const = 0;

  // --- Tags -----------------------------------------------------------------------------------
  // Where blocks go is in the facts (DefinitionOutline anchors, LanguageFacts::file_anchor);
  // how their lines are written is this.
  virtual TagSyntax tag_syntax() const = 0;

  // --- Resolution -----------------------------------------------------------------------------
  // Files resolution reads itself, beyond the sources this front end claims (build or packaging
  // metadata): a repository-relative path, or a bare file name ("go.mod") for every file so
  // called in the tree (analysis/resolution_key.h). Their contents are part of the graph cache
  // key: a file missing here would let an edit to it go unnoticed.
  virtual std::vector<std::string_view> resolution_inputs(const FrontEndOptions& options) const {
    (void)options;
    return {};
  }

  // Runs once per analysis before `resolve` and `resolve_dense`, which get what it returns in
  // ResolverInput::state (input.state is nullptr here).
  virtual std::unique_ptr<ResolutionState> prepare_resolution(const ResolverInput& input) const {
    (void)input;
    return nullptr;
  }

  // Appends the resolved edges among this language's files (any order, duplicates allowed).
  virtual void resolve(const ResolverInput& input, std::vector<Edge>& edges) const = 0;

  // resolve(), told what the previous call kept in `memory` (null the first time) and keeping
  // there what the next call needs: a front end that can prove which files' edges an edit leaves
  // unchanged resolves only the others. The edges must be exactly resolve()'s (docs/resolver.md,
  // "Refresh"). The default keeps nothing and resolves everything.
  virtual void resolve_again(const ResolverInput& input, std::unique_ptr<ResolutionMemory>& memory,
                             std::vector<Edge>& edges) const {
    memory.reset();
    resolve(input, edges);
  }

  // The memory resolve_again kept, as bytes the cache keeps for a later process (a mount that
  // served a cached view has no memory: its first refresh starts from this record instead of
  // resolving the whole tree; analysis/kept_memory.h). Empty: nothing worth keeping.
  virtual std::string serialize_memory(const ResolutionMemory& memory) const {
    (void)memory;
    return {};
  }
  // That memory again, for resolving `input` (its state not made yet); files whose facts it
  // needs and `input` does not hold come from `old_facts`. nullptr when the bytes are not a
  // well-formed record this front end wrote, or the memory could not serve `input` anyway; never
  // crashes.
  virtual std::unique_ptr<ResolutionMemory> deserialize_memory(std::string_view bytes,
                                                               const ResolverInput& input,
                                                               const OldFacts& old_facts) const {
    (void)bytes;
    (void)input;
    (void)old_facts;
    return nullptr;
  }

  // Appends the dense view's edges and labels (configuration, environment, constants, I/O,
  // data, tests, registration) once `graph` holds every entity and the sorted topology edges.
  // Any order, duplicates allowed. Front ends without dense facts add nothing.
  virtual void resolve_dense(const ResolverInput& input, Graph& graph) const {
    (void)input;
    (void)graph;
  }
};

// Every front end anchorfs knows, in a fixed order (the first that claims a file wins).
const std::vector<std::unique_ptr<LanguageFrontEnd>>& front_ends();

// The front end whose name() is `name` (FileInfo::language), or nullptr.
const LanguageFrontEnd* front_end_named(std::string_view name);

}  // namespace anchorfs::analysis
