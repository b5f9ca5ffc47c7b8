// Import resolution: ModuleIndex's relative and absolute specs, and `from m import *` chains.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "analysis/python/modules.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis {
namespace {

using python::ModuleIndex;

// A ModuleIndex over these repository-relative paths (no facts needed: names come from paths).
class Modules {
 public:
  Modules(std::string root, std::vector<std::string> paths)
      : root_(std::move(root)), paths_(std::move(paths)) {
    for (const std::string& p : paths_) files_.push_back({p, nullptr, kNoEntity});
    index_.emplace(ResolverInput{root_, files_});
  }
  uint32_t file(std::string_view path) const {
    for (uint32_t i = 0; i < paths_.size(); ++i) {
      if (paths_[i] == path) return i;
    }
    ADD_FAILURE() << "no file " << path;
    return 0;
  }
  // The module name `spec` resolves to, written in `from`, or "<none>".
  std::string resolve(std::string_view from, std::string_view spec) const {
    const auto m = index_->resolve(file(from), spec);
    return m ? index_->modules()[*m].name : "<none>";
  }
  // The file a resolved spec lands on, or "<none>" (namespace packages have none).
  std::string resolve_file(std::string_view from, std::string_view spec) const {
    const auto m = index_->resolve(file(from), spec);
    if (!m || index_->modules()[*m].file == UINT32_MAX) return "<none>";
    return paths_[index_->modules()[*m].file];
  }
  const ModuleIndex& index() const { return *index_; }

 private:
  std::string root_;
  std::vector<std::string> paths_;
  std::vector<ResolverFile> files_;
  std::optional<ModuleIndex> index_;
};

TEST(ModuleIndex, RelativeImportsClimbOnePackagePerExtraDot) {
  const Modules m("/src/repo",
                  {"pkg/__init__.py", "pkg/core.py", "pkg/util/__init__.py", "pkg/util/text.py",
                   "pkg/util/deep/__init__.py", "pkg/util/deep/leaf.py"});
  EXPECT_EQ(m.resolve("pkg/util/text.py", "."), "pkg.util");
  EXPECT_EQ(m.resolve("pkg/util/text.py", ".text"), "pkg.util.text");
  EXPECT_EQ(m.resolve("pkg/util/text.py", ".."), "pkg");
  EXPECT_EQ(m.resolve("pkg/util/text.py", "..core"), "pkg.core");
  EXPECT_EQ(m.resolve("pkg/util/deep/leaf.py", "...core"), "pkg.core");
  EXPECT_EQ(m.resolve_file("pkg/util/deep/leaf.py", "..text"), "pkg/util/text.py");
  // In a package's __init__, "." is the package itself.
  EXPECT_EQ(m.resolve("pkg/util/__init__.py", "."), "pkg.util");
  EXPECT_EQ(m.resolve("pkg/util/__init__.py", ".text"), "pkg.util.text");
  EXPECT_EQ(m.resolve("pkg/util/__init__.py", "..core"), "pkg.core");
}

TEST(ModuleIndex, RelativeImportBeyondTheTopPackageResolvesToNothing) {
  const Modules m("/src/repo", {"pkg/__init__.py", "pkg/core.py"});
  EXPECT_EQ(m.resolve("pkg/core.py", "..."), "<none>");
  EXPECT_EQ(m.resolve("pkg/core.py", "...x"), "<none>");
  EXPECT_EQ(m.resolve("pkg/core.py", ".missing"), "<none>");
}

TEST(ModuleIndex, RootThatIsAPackageQualifiesEveryName) {
  const Modules m("/usr/lib/python3/dist-packages/django",
                  {"__init__.py", "conf/__init__.py", "conf/global_settings.py", "utils.py"});
  EXPECT_EQ(m.resolve("conf/global_settings.py", ".."), "django");
  EXPECT_EQ(m.resolve("conf/global_settings.py", "..utils"), "django.utils");
  EXPECT_EQ(m.resolve_file("utils.py", "django.conf.global_settings"), "conf/global_settings.py");
  // The repository-relative spelling works too (scripts run from the root).
  EXPECT_EQ(m.resolve_file("utils.py", "conf.global_settings"), "conf/global_settings.py");
}

TEST(ModuleIndex, ScriptDirectoryIsOnThePath) {
  // Paths sorted, as the resolver gets them.
  const Modules m("/src/repo", {"helper.py", "tools/helper.py", "tools/run.py"});
  // A bare name from tools/run.py finds the first file known by that name...
  EXPECT_EQ(m.resolve_file("tools/run.py", "helper"), "helper.py");
  // ...and finds a sibling when only the sibling exists.
  const Modules s("/src/repo", {"tools/only_here.py", "tools/run.py"});
  EXPECT_EQ(s.resolve_file("tools/run.py", "only_here"), "tools/only_here.py");
  EXPECT_EQ(s.resolve_file("tools/run.py", "absent"), "<none>");
}

TEST(ModuleIndex, ImportOfDottedNameBindsTheTopPackage) {
  const Modules m("/src/repo", {"pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/mod.py"});
  std::optional<uint32_t> top;
  const auto mod = m.index().resolve(m.file("pkg/sub/mod.py"), "pkg.sub.mod", &top);
  ASSERT_TRUE(mod && top);
  EXPECT_EQ(m.index().modules()[*mod].name, "pkg.sub.mod");
  EXPECT_EQ(m.index().modules()[*top].name, "pkg");
  const auto sub = m.index().submodule(*top, "sub");
  ASSERT_TRUE(sub);
  EXPECT_EQ(m.index().modules()[*sub].name, "pkg.sub");
}

TEST(ModuleIndex, NamespacePackageHasNoFile) {
  const Modules m("/src/repo", {"ns/mod.py"});
  EXPECT_EQ(m.resolve("ns/mod.py", "ns"), "ns");
  EXPECT_EQ(m.resolve_file("ns/mod.py", "ns"), "<none>");
}

using test::edges_of;
using test::TempRepo;

using Lines = std::vector<std::string>;

TEST(StarImports, PublicNamesWithoutAllAndChainsThroughReExports) {
  TempRepo repo;
  // Each module re-exports the next one's public names.
  const char* const chain[][2] = {
      {"pkg/__init__.py", "from .api import *\n"},
      {"pkg/api.py", "from .impl import *\n"},
      {"pkg/impl.py", "def run():\n    return 1\ndef _hidden():\n    return 2\n"},
      {"main.py", "from pkg import *\nrun()\n_hidden()\n"}};
  for (const auto& [path, text] : chain) repo.write(path, text);
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(edges_of(g, Relation::Imports),
            (Lines{"main.py -> pkg/__init__.py", "pkg/__init__.py -> pkg/api.py",
                   "pkg/api.py -> pkg/impl.py"}));
  EXPECT_EQ(edges_of(g, Relation::Calls), (Lines{"main.py -> pkg/impl.py:run"}));
}

// An explicit __all__ exports what it lists, private or not, and nothing else; a star-imported
// name resolves inside functions too.
TEST(StarImports, ExplicitAllDecidesWhatIsExported) {
  TempRepo repo;
  repo.write("lib.py",
             "__all__ = ['_special', 'tool']\n"
             "def _special():\n    return 1\ndef public():\n    return 2\n"
             "def tool():\n    return 3\n");
  repo.write("main.py",
             "from lib import *\n_special()\npublic()\n"
             "def helper():\n    return tool()\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(edges_of(g, Relation::Calls),
            (Lines{"main.py -> lib.py:_special", "main.py:helper -> lib.py:tool"}));
}

}  // namespace
}  // namespace anchorfs::analysis
