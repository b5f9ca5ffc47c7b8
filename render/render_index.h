// Rendering from an already built GraphIndex (lets stats render several views from one index).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "render/block.h"
#include "render/graph_index.h"
#include "render/tag_plan.h"
#include "render/view.h"

namespace anchorfs::render {

// `counters`, when given, receives what ranking and caps did (sums over files: deterministic).
std::vector<TagPlan> render_plans(const GraphIndex& index, const ViewChoice& choice,
                                  LinkCounters* counters = nullptr);

// The files a rendering task takes at least, of `files` to render.
size_t files_per_task(size_t files);

// The block policy of a resolved (non-auto) view.
BlockPolicy policy_for(const ViewChoice& choice);

// How `info`'s tag lines are spelled (indent left empty), or nothing for a file that gets no tags
// (not parsed cleanly, or no front end).
std::optional<LineLayout> line_layout(const analysis::FileInfo& info);

// One file's plan in parts: insertion offsets, the end of each insertion's text within `texts`
// (cumulative), and the texts back to back, as LaidOutPlan lays them out: one string for a file's
// blocks rather than one per insertion.
struct FileTags {
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> ends;
  std::string texts;
  void clear() {
    offsets.clear();
    ends.clear();
    texts.clear();
  }
};

// The plan of graph.files[file_info] into `tags` (cleared first; its capacity reused); with
// scratch.references set, also records every entity value written (offsets within tags.texts).
void render_file_tags(const GraphIndex& index, size_t file_info, const BlockPolicy& policy,
                      BlockScratch& scratch, FileTags& tags);

// The plan of graph.files[file_info]; with scratch.references set, also records every entity
// value written (offsets within the insertion's text being built).
TagPlan render_file(const GraphIndex& index, size_t file_info, const BlockPolicy& policy,
                    BlockScratch& scratch);

}  // namespace anchorfs::render
