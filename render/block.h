// Rendering one entity's tag block, in its file's comment syntax, from the precomputed graph index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/graph_index.h"

namespace anchorfs::render {

// Which fields a view shows, and how they are trimmed.
struct BlockPolicy {
  bool forward_calls = true;            // CALLS
  bool forward_imports = true;          // IMPORTS
  bool dense = false;                   // CONFIG_USAGE ... REGISTERS
  bool file_children = false;           // CHILDREN on file blocks
  size_t max_links = 0;                 // 0: no cap
  std::optional<size_t> hub_threshold;  // CALLS to entities with call in-degree above are dropped
};

// An entity named as a value in a block: `offset` is where its text starts in the `out` string
// append_block wrote to; render_file sets `insertion`, the index of that text in its plan.
struct RecordedReference {
  size_t offset = 0;
  analysis::EntityIndex entity = analysis::kNoEntity;
  uint32_t insertion = 0;
};

// Reusable buffers; one per thread.
struct BlockScratch {
  std::vector<analysis::EntityIndex> refs;
  std::vector<std::string_view> labels;
  std::string fields;
  std::string value;
  std::vector<RecordedReference> field_references;  // offsets within `fields`
  // When set, append_block appends every entity value it writes (for traces: which links a
  // reader of a byte range could see).
  std::vector<RecordedReference>* references = nullptr;
};

// How one file's tag lines are spelled: every line is `indent` `comment` ` ` text `newline`.
struct LineLayout {
  std::string_view comment;  // the language's line comment marker ("#")
  std::string_view indent;
  std::string_view newline;
  bool ascii = false;  // non-ASCII characters written as \uXXXX (the file's encoding may lack them)
};

// Appends the block describing `e` to `out` when it would say more than the entity's name and
// PARENT; returns whether it did.
bool append_block(std::string& out, const GraphIndex& index, analysis::EntityIndex e,
                  const BlockPolicy& policy, const LineLayout& layout, BlockScratch& scratch);

}  // namespace anchorfs::render
