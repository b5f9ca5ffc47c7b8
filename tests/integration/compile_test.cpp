// A real compile through the mount: anchorfs's own C++ sources and zlib's example libraries
// (gzlog, zran: C sources the Debian package zlib1g-dev ships) build from the tagged view into
// objects defining the same symbols (`nm`) as built from the checkout.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support.h"

namespace anchorfs::itest {
namespace {

constexpr const char* kZlibExamples = "/usr/share/doc/zlib1g-dev/examples";

// Translation units compiled both ways: (compiler, path in the repository).
const std::vector<std::pair<std::string, std::string>> kUnits = {
    {"c++", "analysis/cfamily/lexical.cpp"},  {"c++", "analysis/cfamily/includes.cpp"},
    {"c++", "analysis/cfamily/extract.cpp"},  {"c++", "analysis/code/anchors.cpp"},
    {"c++", "analysis/code/text_layout.cpp"}, {"cc", "zlib/gzlog.c"},
    {"cc", "zlib/zran.c"},
};

// Defined symbols of an object as "name type" lines (addresses move with the line numbers
// `assert` and `__LINE__` see; the symbols must not).
std::string symbols(const std::string& object) {
  const ProcessResult nm = run({"nm", "--defined-only", "--format=posix", object});
  EXPECT_EQ(nm.exit_code, 0) << nm.err;
  std::string out;
  size_t begin = 0;
  while (begin < nm.out.size()) {
    size_t end = nm.out.find('\n', begin);
    if (end == std::string::npos) end = nm.out.size();
    const std::string line = nm.out.substr(begin, end - begin);
    const size_t first = line.find(' ');
    const size_t second = first == std::string::npos ? first : line.find(' ', first + 1);
    out += line.substr(0, second) + "\n";
    begin = end + 1;
  }
  return out;
}

std::string compile(const std::string& compiler, const std::string& root, const std::string& unit,
                    const std::string& object) {
  std::vector<std::string> argv = {compiler, "-O1", "-c", "-I" + root, root + "/" + unit, "-o", object};
  if (compiler == "c++") {
    argv.insert(argv.begin() + 1, {"-std=c++20", "-isystem", ANCHORFS_TREE_SITTER_INCLUDE});
  }
  const ProcessResult result = run(argv);
  EXPECT_EQ(result.exit_code, 0) << unit << ":\n" << result.err;
  return symbols(object);
}

TEST(CompileThroughMount, TaggedSourcesBuildTheSameSymbols) {
  TempDir dir{"anchorfs-compile"};
  const std::string repo = dir / "repo";
  const std::string mnt = dir / "mnt";
  make_dirs(repo + "/zlib");
  make_dirs(mnt);
  copy_tree(std::string(ANCHORFS_SOURCE_DIR) + "/analysis", repo + "/analysis");
  for (const char* name : {"gzlog.c", "gzlog.h", "zran.c", "zran.h"}) {
    write_file(repo + "/zlib/" + name, read_file(std::string(kZlibExamples) + "/" + name));
  }
  Mount mount(repo, mnt, {"--view", "topo", "--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  for (const auto& [compiler, unit] : kUnits) {
    SCOPED_TRACE(unit);
    // The view really is tagged, so the compile reads tag lines.
    EXPECT_NE(read_file(mnt + "/" + unit), read_file(repo + "/" + unit));
    const std::string from_checkout = compile(compiler, repo, unit, dir / "checkout.o");
    const std::string through_mount = compile(compiler, mnt, unit, dir / "mount.o");
    EXPECT_FALSE(from_checkout.empty());
    EXPECT_EQ(through_mount, from_checkout);
  }
}

}  // namespace
}  // namespace anchorfs::itest
