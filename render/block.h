// Rendering one entity's tag block, in its file's comment syntax and the view's style, from the
// precomputed graph index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/graph_index.h"

namespace anchorfs::render {

enum class Style { Paper, Lean };

// Which fields a view shows, and how they are trimmed.
struct BlockPolicy {
  Style style = Style::Paper;
  bool forward_calls = true;            // CALLS
  bool forward_imports = true;          // IMPORTS
  bool dense = false;                   // CONFIG_USAGE ... REGISTERS
  bool file_children = false;           // CHILDREN on file blocks
  size_t max_links = 0;                 // 0: no cap
  std::optional<size_t> hub_threshold;  // CALLS to entities with call in-degree above are dropped
  // Entities whose blocks a tag budget left out (by entity index; null: none).
  const std::vector<bool>* dropped = nullptr;
};

// An entity named as a value in a block: `offset` is where its text starts in the `out` string
// append_block wrote to; render_file sets `insertion`, the index of that text in its plan.
struct RecordedReference {
  size_t offset = 0;
  analysis::EntityIndex entity = analysis::kNoEntity;
  uint32_t insertion = 0;
};

// How one file's tag lines are spelled: every line is `indent` `comment` ` ` text `newline`.
struct LineLayout {
  std::string_view comment;  // the language's line comment marker ("#")
  std::string_view indent;
  std::string_view newline;
  bool ascii = false;  // non-ASCII characters written as \uXXXX (the file's encoding may lack them)
  bool nesting_shown_by_indent = false;  // lean leaves out PARENT and CHILDREN
  bool separate_blocks = false;          // an empty line follows every block (TagSyntax)
};

// What ranking did to the fields it rendered (for `anchorfs stats`; sums, so deterministic).
struct LinkCounters {
  uint64_t links = 0;            // values of rendered fields before caps
  uint64_t shown = 0;            // values shown
  uint64_t capped_fields = 0;    // fields that ended with "(+K more)"
  uint64_t hub_shown = 0;        // shown values that are hubs in their field's direction
  uint64_t hub_shown_by_id = 0;  // the same, had capped fields kept the first ids (format v1)
  uint64_t test_shown = 0;       // shown values in test code
  uint64_t test_shown_by_id = 0;
  void add(const LinkCounters& other);
};

// A value of a field with the keys it is ranked by (docs/tag-format.md).
struct RankedLink {
  bool test = false;      // in test code
  bool hub = false;       // more than kHubDegree links in the field's direction
  uint32_t distance = 0;  // 0 same file, else directory steps + 1
  uint32_t tier = 0;      // bit width of that degree
  uint32_t rank = 0;      // position by id
  analysis::EntityIndex entity = analysis::kNoEntity;
};

// Reusable buffers; one per thread.
struct BlockScratch {
  std::vector<RankedLink> refs;
  std::vector<std::string_view> labels;
  std::vector<uint32_t> by_id;
  std::vector<uint32_t> next_in_file;
  std::vector<bool> grouped;
  std::vector<std::pair<analysis::EntityIndex, uint32_t>> by_file;
  std::vector<analysis::EntityIndex> written_paths;  // files a lean block wrote in full so far
  std::string fields;
  std::string value;
  LinkCounters counters;
  std::vector<RecordedReference> field_references;  // offsets within `fields`
  // When set, append_block appends every entity value it writes (for traces: which links a
  // reader of a byte range could see).
  std::vector<RecordedReference>* references = nullptr;
};

// Appends the block describing `e` to `out` when it would say more than what the code beside it
// shows (its name; its PARENT; in lean also CHILDREN and file IMPORTS); returns whether it did.
bool append_block(std::string& out, const GraphIndex& index, analysis::EntityIndex e,
                  const BlockPolicy& policy, const LineLayout& layout, BlockScratch& scratch);

}  // namespace anchorfs::render
