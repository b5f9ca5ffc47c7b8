// Go build constraints as platform sets: file-name suffixes, //go:build expressions, decided tags.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/go/modules.h"
#include "analysis/go/platforms.h"

namespace anchorfs::analysis::go {
namespace {

bool together(std::string_view a, std::string_view ca, std::string_view b, std::string_view cb) {
  return (platforms_of(a, ca) & platforms_of(b, cb)) != 0;
}

TEST(GoPlatforms, FileNameSuffixesNameOsArchOrBoth) {
  EXPECT_FALSE(together("sys/open_linux.go", "", "sys/open_windows.go", ""));
  EXPECT_TRUE(together("sys/open_linux.go", "", "sys/page_amd64.go", ""));
  EXPECT_FALSE(together("sys/zsys_linux_arm64.go", "", "sys/zsys_linux_amd64.go", ""));
  EXPECT_TRUE(together("sys/x_android_test.go", "", "sys/y_linux.go", ""));  // android is linux
  // The first part is the file's own name, never a constraint.
  EXPECT_TRUE(together("sys/linux.go", "", "sys/open_windows.go", ""));
  EXPECT_EQ(platforms_of("a/zos_only_zos.go", ""), 0u);  // a port outside the dist list
}

TEST(GoPlatforms, BuildExpressionsAreEvaluatedWithUnknownTagsEitherWay) {
  EXPECT_FALSE(together("a.go", "linux && !cgo", "b_windows.go", ""));
  EXPECT_TRUE(together("a.go", "linux && !cgo", "b.go", "cgo"));  // cgo may be false or true
  EXPECT_TRUE(together("a.go", "unix", "b_darwin.go", ""));
  EXPECT_FALSE(together("a.go", "!unix", "b_darwin.go", ""));
  EXPECT_FALSE(together("a.go", "amd64 && (linux || darwin)", "b.go", "arm64 || windows"));
  EXPECT_TRUE(together("a.go", "(linux || darwin) && !(386 || arm)", "b_darwin_arm64.go", ""));
  // Malformed expressions constrain nothing.
  EXPECT_EQ(platforms_of("a.go", "linux &&"), platforms_of("a.go", ""));
  EXPECT_EQ(platforms_of("a.go", "(((linux"), platforms_of("a.go", ""));
}

bool built_with(std::string_view a, std::string_view ca, std::string_view b, std::string_view cb) {
  const std::vector<std::string> tags = decided_tags({ca, cb});
  return built_together(builds_of(a, ca, tags), builds_of(b, cb, tags));
}

TEST(GoPlatforms, TagsNamingNoPlatformAreDecidedAsTheGoToolDoes) {
  EXPECT_FALSE(built_with("a.go", "nomsgpack", "b.go", "!nomsgpack"));
  EXPECT_FALSE(built_with("a.go", "cgo && linux", "b.go", "!cgo || !linux"));
  EXPECT_FALSE(built_with("a.go", "go_json", "b_windows.go", "!go_json && !windows"));
  EXPECT_TRUE(built_with("a.go", "go_json || jsoniter", "b.go", "!go_json"));
  EXPECT_TRUE(built_with("a.go", "nomsgpack", "b.go", ""));
  EXPECT_FALSE(built_with("a_linux.go", "nomsgpack", "b_darwin.go", "nomsgpack"));
  // Beyond kMaxDecidedTags the least used tags stay either way: never a wrong exclusion.
  std::vector<std::string_view> many = {"t1", "t2", "t3", "t4", "t5", "t6", "t7", "!t7"};
  const std::vector<std::string> tags = decided_tags(many);
  EXPECT_EQ(tags.size(), kMaxDecidedTags);
  EXPECT_EQ(tags.front(), "t7");  // used twice
  EXPECT_TRUE(built_together(builds_of("a.go", "t6", tags), builds_of("b.go", "!t6", tags)));
  EXPECT_FALSE(built_together(builds_of("a.go", "t7", tags), builds_of("b.go", "!t7", tags)));
}

TEST(GoModules, ModulePathIsReadWithCommentsAndQuotes) {
  EXPECT_EQ(module_path("// header\nmodule example.com/m // trailing\n\ngo 1.19\n"), "example.com/m");
  EXPECT_EQ(module_path("module \"example.com/q\"\r\n"), "example.com/q");
  EXPECT_EQ(module_path("go 1.19\nmodulex y\n"), "");
  EXPECT_EQ(module_path(""), "");
}

}  // namespace
}  // namespace anchorfs::analysis::go
