// The resolved whole-repository graph: entities (files, classes, functions) and typed relations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis {

using EntityIndex = uint32_t;
inline constexpr EntityIndex kNoEntity = UINT32_MAX;

enum class EntityKind : uint8_t { File, Class, Function };

// Edge kinds. Each edge reads "from RELATION to": a file Imports a file, a caller Calls a callee,
// a derived class Inherits a base, a parent Contains a child. The dense kinds link an entity to
// the entity it depends on; when the target is not a repository entity it is a Label instead.
enum class Relation : uint8_t {
  Contains,
  Imports,
  Calls,
  Inherits,
  ConfigUsage,
  EnvVar,
  ConstRef,
  IoDep,
  DataDep,
  TestRef,
  Registers,
};

// The relation's name in exports and statistics ("calls", "config_usage", ...).
std::string_view relation_name(Relation relation);

// Where a tag block describing an entity may be inserted: the start of a line of the original
// bytes (above the first decorator for decorated definitions), with the entity's indentation.
struct Anchor {
  uint64_t offset = 0;
  std::string indent;
};

struct Entity {
  EntityKind kind = EntityKind::File;
  EntityIndex file = kNoEntity;    // the File entity this belongs to (itself for a File)
  EntityIndex parent = kNoEntity;  // innermost containing entity; kNoEntity for a File
  std::string name;                // File: repository-relative path; else the dotted qualified name
  uint32_t line = 1;               // 1-based line of the definition
  std::optional<Anchor> anchor;    // empty when no block can be placed safely
};

struct Edge {
  EntityIndex from = kNoEntity;
  EntityIndex to = kNoEntity;
  Relation relation = Relation::Calls;
  friend bool operator==(const Edge&, const Edge&) = default;
};

// A dense fact whose object is a name rather than an entity (an environment variable, an I/O
// kind, a configuration key defined outside the repository).
struct Label {
  EntityIndex entity = kNoEntity;
  Relation relation = Relation::EnvVar;
  std::string value;
  friend bool operator==(const Label&, const Label&) = default;
};

// Per analysed file: how its text is laid out, as the renderer needs to know it.
struct FileInfo {
  EntityIndex entity = kNoEntity;  // its File entity
  std::string language;            // front end name, e.g. "python"
  std::string newline = "\n";      // the file's line terminator ("\n", "\r\n" or "\r")
  bool taggable = false;           // parsed cleanly; false means serve it unchanged
  uint32_t error_regions = 0;      // syntax errors it is tagged around (LanguageFacts)
  bool ascii_tags = false;         // its declared encoding may reject UTF-8: tag text is ASCII
  uint64_t size = 0;               // its bytes, as scanned (the base of a tag budget)
};

struct Graph {
  std::vector<Entity> entities;  // a file's entities follow it, in source order; files by path
  std::vector<FileInfo> files;   // by path
  std::vector<Edge> edges;       // sorted by (relation, from, to), no duplicates
  std::vector<Label> labels;     // sorted by (entity, relation, value), no duplicates

  // The stable id of DESIGN.md: "path" for a file, "path:Qualified.name" otherwise.
  std::string id(EntityIndex e) const;
};

// Puts `edges` in Graph::edges' order, (relation, from, to), and drops duplicates.
void sort_edges(std::vector<Edge>& edges);
// The same with `scratch` as the sort's second buffer (its contents dropped): it holds the other
// buffer afterwards, for the caller to hand in again.
void sort_edges(std::vector<Edge>& edges, std::vector<Edge>& scratch);

}  // namespace anchorfs::analysis
