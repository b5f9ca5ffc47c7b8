// FileTrace: plan-map offsets turned into served offsets.
#include "fs/file_trace.h"

#include <gtest/gtest.h>

namespace anchorfs::fs {
namespace {

TEST(FileTrace, ReferencesAndSpansInServedOffsets) {
  // original: 20 bytes; "AAAAA" before byte 0, "BBB" before byte 10.
  render::TagPlan plan;
  plan.insertions = {{0, "AAAAA"}, {10, "BBB"}};
  render::PlanMap map;
  map.references = {{1, 1, "m.py:g"}, {0, 2, "m.py:f"}};
  map.entities = {{0, render::EntitySpan::kToEnd, analysis::EntityKind::File, "m.py"},
                  {0, 10, analysis::EntityKind::Function, "m.py:f"},
                  {10, render::EntitySpan::kToEnd, analysis::EntityKind::Function, "m.py:g"}};
  const FileTrace trace = make_file_trace(plan, map, 20);

  ASSERT_EQ(trace.insertions.size(), 2u);
  EXPECT_EQ(trace.insertions[1].original_offset, 10u);
  EXPECT_EQ(trace.insertions[1].view_offset, 15u);
  EXPECT_EQ(trace.insertions[1].length, 3u);
  ASSERT_EQ(trace.references.size(), 2u);  // sorted by served offset
  EXPECT_EQ(trace.references[0].view_offset, 2u);
  EXPECT_EQ(trace.references[1].view_offset, 16u);
  // A definition's span starts with its own tag block; the file's covers all 28 served bytes.
  ASSERT_EQ(trace.entities.size(), 3u);
  EXPECT_EQ(trace.entities[0].kind, "file");
  EXPECT_EQ(std::make_pair(trace.entities[0].begin, trace.entities[0].end),
            std::make_pair(uint64_t{0}, uint64_t{28}));
  EXPECT_EQ(std::make_pair(trace.entities[1].begin, trace.entities[1].end),
            std::make_pair(uint64_t{0}, uint64_t{15}));
  EXPECT_EQ(std::make_pair(trace.entities[2].begin, trace.entities[2].end),
            std::make_pair(uint64_t{15}, uint64_t{28}));

  EXPECT_TRUE(trace.references_in(3, 16).empty());
  ASSERT_EQ(trace.references_in(0, 28).size(), 2u);
  ASSERT_EQ(trace.references_in(16, 17).size(), 1u);
  EXPECT_EQ(trace.references_in(16, 17)[0].id, "m.py:g");
}

TEST(FileTrace, AnUntaggedFileKeepsOriginalOffsets) {
  render::PlanMap map;
  map.entities = {{4, 9, analysis::EntityKind::Class, "m.py:C"}};
  const FileTrace trace = make_file_trace(render::TagPlan{}, map, 12);
  EXPECT_TRUE(trace.insertions.empty());
  ASSERT_EQ(trace.entities.size(), 1u);
  EXPECT_EQ(trace.entities[0].kind, "class");
  EXPECT_EQ(std::make_pair(trace.entities[0].begin, trace.entities[0].end),
            std::make_pair(uint64_t{4}, uint64_t{9}));
}

}  // namespace
}  // namespace anchorfs::fs
