// FileTrace: plan-map offsets (insertion text, original bytes) turned into view offsets.
#include "fs/file_trace.h"

#include <algorithm>

namespace anchorfs::fs {

std::string_view entity_kind_name(analysis::EntityKind kind) {
  switch (kind) {
    case analysis::EntityKind::File:
      return "file";
    case analysis::EntityKind::Class:
      return "class";
    case analysis::EntityKind::Function:
      return "function";
  }
  return "?";
}

std::span<const FileTrace::Reference> FileTrace::references_in(uint64_t begin, uint64_t end) const {
  auto by_offset = [](const Reference& ref, uint64_t offset) { return ref.view_offset < offset; };
  auto first = std::lower_bound(references.begin(), references.end(), begin, by_offset);
  auto last = std::lower_bound(first, references.end(), end, by_offset);
  return {first, last};
}

FileTrace make_file_trace(const render::TagPlan& plan, const render::PlanMap& map,
                          uint64_t original_size) {
  FileTrace trace;
  uint64_t added = 0;
  for (const render::Insertion& insertion : plan.insertions) {
    trace.insertions.push_back({insertion.offset, insertion.offset + added, insertion.text.size()});
    added += insertion.text.size();
  }
  for (const render::TagReference& ref : map.references) {
    if (ref.insertion >= trace.insertions.size()) continue;
    trace.references.push_back({trace.insertions[ref.insertion].view_offset + ref.offset, ref.id});
  }
  std::sort(trace.references.begin(), trace.references.end(),
            [](const auto& a, const auto& b) { return a.view_offset < b.view_offset; });
  // A definition's view span starts with its own tag block, which sits at its anchor: the text
  // inserted at an original offset belongs to what follows it, except at the end of the file.
  std::vector<uint64_t> added_before{0};
  for (const FileTrace::Insertion& insertion : trace.insertions) {
    added_before.push_back(added_before.back() + insertion.length);
  }
  auto view_offset = [&](uint64_t original) {
    auto by_offset = [](const FileTrace::Insertion& insertion, uint64_t offset) {
      return insertion.original_offset < offset;
    };
    auto first_at_or_after = original >= original_size
                                 ? trace.insertions.end()
                                 : std::lower_bound(trace.insertions.begin(),
                                                    trace.insertions.end(), original, by_offset);
    return original +
           added_before[static_cast<size_t>(first_at_or_after - trace.insertions.begin())];
  };
  for (const render::EntitySpan& span : map.entities) {
    trace.entities.push_back({view_offset(std::min(span.begin, original_size)),
                              view_offset(std::min(span.end, original_size)),
                              entity_kind_name(span.kind), span.id});
  }
  return trace;
}

}  // namespace anchorfs::fs
