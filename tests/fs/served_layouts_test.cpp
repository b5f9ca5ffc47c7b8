// ServedLayouts: the layouts opens were served, by path and version, newest first, bounded.
#include "fs/served_layouts.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace anchorfs::fs {
namespace {

std::shared_ptr<const FileLayout> layout(const std::string& tag) {
  render::TagPlan plan;
  plan.insertions = {{0, tag}};
  return std::make_shared<const FileLayout>(plan, 10);
}

TEST(ServedLayoutsTest, RemembersWhatWasServedPerVersionNewestFirst) {
  ServedLayouts served(3);
  const render::FileVersion v1{1, 2, 10, 3, 4};
  const render::FileVersion v2{1, 5, 10, 6, 7};
  const auto before = layout("# before\n");
  const auto after = layout("# after\n");
  served.record("a.py", v1, before);
  served.record("a.py", v1, after);
  served.record("a.py", v1, layout("# before\n"));  // the same bytes again: one record, newest
  served.record("a.py", v2, layout("# other version\n"));
  served.record("b.py", v1, std::make_shared<const FileLayout>(render::TagPlan{}, 10));  // untagged
  ASSERT_EQ(served.of("a.py", v1).size(), 2U);
  EXPECT_EQ(*served.of("a.py", v1)[0], *before);
  EXPECT_EQ(*served.of("a.py", v1)[1], *after);
  EXPECT_EQ(served.of("a.py", v2).size(), 1U);
  EXPECT_TRUE(served.of("b.py", v1).empty());
  EXPECT_EQ(served.all().size(), 3U);
  // Bounded: the oldest record goes first.
  served.record("c.py", v1, layout("# c\n"));
  EXPECT_EQ(served.all().size(), 3U);
  ASSERT_EQ(served.of("a.py", v1).size(), 1U);
  EXPECT_EQ(*served.of("a.py", v1)[0], *before);
}

}  // namespace
}  // namespace anchorfs::fs
