// Every view mounted for real: served bytes equal `render --view V`, strip and AST round trips.
#include <gtest/gtest.h>

#include <string>

#include "checks.h"
#include "fixture.h"
#include "support.h"

namespace anchorfs::itest {
namespace {

class EveryView : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryView, MountMatchesRenderAndRoundTrips) {
  const std::string view = GetParam();
  TempDir dir("anchorfs-view");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  build_fixture_repo(repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--view", view});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  size_t changed = 0;
  for (const std::string& path : regular_files(repo)) {
    const std::string served = read_file(mnt + "/" + path);
    const std::string original = read_file(repo + "/" + path);
    const ProcessResult rendered = anchorfs({"render", repo, path, "--view", view});
    ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
    EXPECT_EQ(served, rendered.out) << path;
    const ProcessResult stripped = anchorfs({"strip"}, feeding(served));
    EXPECT_EQ(stripped.out, original) << path;
    if (served != original) ++changed;
  }
  if (view == "none") {
    EXPECT_EQ(changed, 0u) << "view none is a byte-identical passthrough";
  } else {
    EXPECT_GT(changed, 0u);
  }
  size_t compared = 0;
  EXPECT_EQ(ast_mismatches(repo, mnt, regular_files(repo), compared), "");
  EXPECT_GE(compared, 18u);
}

INSTANTIATE_TEST_SUITE_P(Views, EveryView,
                         ::testing::Values("none", "topo", "inv", "dense", "auto"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace anchorfs::itest
