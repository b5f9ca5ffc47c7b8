// A served file's tag references and definition spans in view offsets: what a traced read of a
// byte range could see (links) and covered (definitions).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "render/plan_map.h"
#include "render/tag_plan.h"

namespace anchorfs::fs {

// Thread-safety: immutable after construction.
struct FileTrace {
  struct Reference {
    uint64_t view_offset = 0;  // where the id's text starts in the served bytes
    std::string id;
  };
  struct Span {
    uint64_t begin = 0;  // view offsets, [begin, end)
    uint64_t end = 0;
    std::string_view kind;  // "file", "class", "function"
    std::string id;
  };
  struct Insertion {
    uint64_t original_offset = 0;
    uint64_t view_offset = 0;
    uint64_t length = 0;
  };

  std::vector<Reference> references;  // sorted by view_offset
  std::vector<Span> entities;
  std::vector<Insertion> insertions;  // sorted; lets a reader map view offsets to original ones

  // The references whose text starts within view bytes [begin, end), in order.
  std::span<const Reference> references_in(uint64_t begin, uint64_t end) const;
};

// `plan` is the file's served plan (empty when untagged); `map` must come from the same
// rendering (plan_maps_by_path with the view of plans_by_path).
FileTrace make_file_trace(const render::TagPlan& plan, const render::PlanMap& map,
                          uint64_t original_size);

std::string_view entity_kind_name(analysis::EntityKind kind);

}  // namespace anchorfs::fs
