// The plug-in interface of a language front end: which files it claims, per-file facts, resolution.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/facts.h"
#include "analysis/graph.h"

namespace anchorfs::analysis {

// One file of a front end's language as the resolver sees it.
struct ResolverFile {
  std::string_view path;  // repository-relative
  const FileFacts* facts = nullptr;
  EntityIndex entity = kNoEntity;  // its File entity; scope s > 0 is entity + s
};

struct ResolverInput {
  std::string_view root;  // absolute path of the repository (its basename may name a package)
  std::span<const ResolverFile> files;  // sorted by path
};

// Per-thread working state of a front end (a parser, scratch buffers).
class ExtractorState {
 public:
  virtual ~ExtractorState() = default;
  bool dense = true;  // extract the dense view's facts too (FileFacts::dense_extracted)
};

// How tag blocks are written in a language's files (render asks; it knows no language).
struct TagSyntax {
  std::string_view line_comment;         // starts a comment running to the end of the line
  bool nesting_shown_by_indent = false;  // a nested definition is indented under its parent
};

// A language front end. Implementations are stateless after construction: `extract` is called
// concurrently from several threads, each with its own ExtractorState; `resolve` once per
// analysis.
class LanguageFrontEnd {
 public:
  virtual ~LanguageFrontEnd() = default;

  virtual std::string_view name() const = 0;

  // The version of this front end's facts (their content and serialization). Cache entries are
  // keyed by it: change it whenever `extract` could give different facts for the same bytes.
  virtual std::string_view facts_version() const = 0;

  // Whether a regular file at this repository-relative path belongs to this language.
  virtual bool claims(std::string_view path) const = 0;

  virtual std::unique_ptr<ExtractorState> new_state() const = 0;

  // Tag placement comes with the facts (Entity::anchor); this is the rest of the tag layout.
  virtual TagSyntax tag_syntax() const = 0;

  // Facts of one file, parsing it exactly once. Must accept any bytes (invalid encodings,
  // partial syntax, absurd nesting) without crashing.
  virtual FileFacts extract(ExtractorState& state, std::string_view bytes) const = 0;

  // Appends the resolved edges among this language's files (any order, duplicates allowed).
  virtual void resolve(const ResolverInput& input, std::vector<Edge>& edges) const = 0;

  // Appends the dense view's edges and labels (configuration, environment, constants, I/O,
  // data, tests, registration) once `graph` holds every entity and the sorted topology edges.
  // Any order, duplicates allowed. Front ends without dense facts add nothing.
  virtual void resolve_dense(const ResolverInput& /*input*/, Graph& /*graph*/) const {}
};

// Every front end anchorfs knows, in a fixed order (the first that claims a file wins).
const std::vector<std::unique_ptr<LanguageFrontEnd>>& front_ends();

// The front end whose name() is `name` (FileInfo::language), or nullptr.
const LanguageFrontEnd* front_end_named(std::string_view name);

}  // namespace anchorfs::analysis
