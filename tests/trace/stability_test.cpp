// Run-to-run stability against hand-worked values.
#include "trace/stability.h"

#include <gtest/gtest.h>

#include <cmath>

namespace anchorfs::trace {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance({"a", "b", "c"}, {"a", "c"}), 1u);
  EXPECT_EQ(edit_distance({"a", "b"}, {"b", "a"}), 2u);
  EXPECT_EQ(edit_distance({}, {"x", "y"}), 2u);
  EXPECT_EQ(edit_distance({"a", "b", "c"}, {"a", "x", "c"}), 1u);
}

TEST(Stability, ThreeRunsMatchTheHandWorkedValues) {
  const Stability st = stability({{"a", "b", "c"}, {"a", "c"}, {"a", "b", "c"}});
  EXPECT_EQ(st.runs, 3u);
  EXPECT_DOUBLE_EQ(st.visited_mean, 8.0 / 3.0);
  EXPECT_NEAR(st.visited_std, std::sqrt(2.0 / 9.0), 1e-12);
  EXPECT_NEAR(st.visited_variance, 2.0 / 27.0, 1e-12);  // only b varies: p = 2/3
  EXPECT_NEAR(st.jaccard_distance, 2.0 / 9.0, 1e-12);   // pairs: 1/3, 0, 1/3
  EXPECT_NEAR(st.edit_distance, 2.0 / 9.0, 1e-12);      // pairs: 1/3, 0, 1/3
}

TEST(Stability, IdenticalRunsAreFullyStable) {
  const Stability st = stability({{"a", "b"}, {"a", "b"}});
  EXPECT_EQ(st.visited_variance, 0);
  EXPECT_EQ(st.jaccard_distance, 0);
  EXPECT_EQ(st.edit_distance, 0);
  EXPECT_EQ(st.visited_std, 0);
}

TEST(Stability, OneRunHasNoDistances) {
  const Stability st = stability({{"a", "b"}});
  EXPECT_EQ(st.runs, 1u);
  EXPECT_EQ(st.jaccard_distance, 0);
  EXPECT_DOUBLE_EQ(st.visited_mean, 2);
}

}  // namespace
}  // namespace anchorfs::trace
