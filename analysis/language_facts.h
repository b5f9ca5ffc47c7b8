// Per-file facts as the language-neutral core sees them: a header and an outline of definitions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/graph.h"

namespace anchorfs::analysis {

// One class or function a file defines, as the core turns it into an Entity.
struct DefinitionOutline {
  EntityKind kind = EntityKind::Function;  // Class or Function
  uint32_t parent = 0;                     // 0: the file itself; else an earlier definition
  std::string_view name;                   // simple name ("<lambda1>" style names allowed)
  uint32_t line = 1;                       // 1-based line of the definition
  bool has_anchor = false;                 // a tag block may be placed at anchor_offset
  uint64_t anchor_offset = 0;              // start of a line of the original bytes
  std::string_view anchor_indent;          // that line's leading whitespace
};

// What a front end extracted from one file's bytes. Each front end derives its own facts from
// this (analysis/python/facts.h); the core reads only the members below and the outline, and
// hands the rest back to the front end that made them (serialization, resolution).
class LanguageFacts {
 public:
  LanguageFacts() = default;
  LanguageFacts(const LanguageFacts&) = default;
  LanguageFacts& operator=(const LanguageFacts&) = default;
  LanguageFacts(LanguageFacts&&) = default;
  LanguageFacts& operator=(LanguageFacts&&) = default;
  virtual ~LanguageFacts() = default;

  // Entities of the file in source order: 0 is the file itself, definition(d) for 0 < d <
  // entity_count() its classes and functions (a parent precedes its children).
  virtual uint32_t entity_count() const = 0;
  virtual DefinitionOutline definition(uint32_t d) const = 0;

  // The file may be tagged: it parsed within its budget and nesting limit. Syntax errors do not
  // clear it; they clear the anchors they rule out (analysis/error_regions.h).
  bool parsed_cleanly = false;
  uint32_t error_regions = 0;    // ERROR nodes and MISSING tokens in its tree
  bool has_file_anchor = false;  // a file tag block may be inserted at file_anchor
  uint64_t file_anchor = 0;
  std::string newline = "\n";  // the first line terminator ("\n" when there is none)
  bool ascii_tags = false;     // the declared source encoding may reject UTF-8 tag text
  uint32_t lines = 0;
  bool dense_extracted = false;  // the dense view's facts were extracted (FrontEndOptions::dense)

  friend bool operator==(const LanguageFacts&, const LanguageFacts&) = default;
};

}  // namespace anchorfs::analysis
