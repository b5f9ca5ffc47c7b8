// Import resolution: ModuleIndex's relative and absolute specs, what ImportTable says each import
// statement binds and which names a star import brings in, and `from m import *` chains.
#include "analysis/python/imports.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/python/modules.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis {
namespace {

using python::ImportTable;
using python::ModuleIndex;

// A ModuleIndex over these repository-relative paths (no facts needed: names come from paths).
class Modules {
 public:
  Modules(std::string root, std::vector<std::string> paths)
      : root_(std::move(root)), paths_(std::move(paths)) {
    for (const std::string& p : paths_) files_.push_back({p, nullptr, kNoEntity});
    index_.emplace(python::ResolverInput{root_, files_});
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
  std::vector<python::ResolverFile> files_;
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

// An ImportTable over small files given as (path, source), extracted for real.
class Imports {
 public:
  explicit Imports(const std::vector<std::pair<std::string, std::string>>& sources) {
    for (const auto& [path, source] : sources) {
      paths_.push_back(path);
      facts_.push_back(test::extract_python(source));
    }
    for (size_t i = 0; i < paths_.size(); ++i) files_.push_back({paths_[i], &facts_[i], kNoEntity});
    const python::ResolverInput input{"/src/repo", files_};
    modules_.emplace(input);
    table_.emplace(input, *modules_);
  }
  uint32_t file(std::string_view path) const {
    for (uint32_t i = 0; i < paths_.size(); ++i) {
      if (paths_[i] == path) return i;
    }
    ADD_FAILURE() << "no file " << path;
    return 0;
  }
  // "module M, binds B, names of F" for each import statement of `path` binding `name` (a star
  // import when `name` is "*"), joined by "; "; "-" for each part a statement has none of.
  std::string targets(std::string_view path, std::string_view name) const {
    const uint32_t f = file(path);
    const python::FileFacts& facts = facts_[f];
    std::string out;
    for (const python::ResolvedImport& import : table_->of_file(f)) {
      const python::Stmt& st = facts.stmts[import.stmt];
      const bool star = st.kind == python::StmtKind::ImportStar;
      if (star ? name != "*" : facts.strings[st.str] != name) continue;
      EXPECT_EQ(table_->statement(f, import.stmt), &import);
      if (!out.empty()) out += "; ";
      out += "module " + module_name(import.module) + ", binds " + module_name(import.bound) +
             ", names of " + (import.from_file == python::kNone ? "-" : paths_[import.from_file]);
    }
    return out;
  }
  const ImportTable& table() const { return *table_; }

 private:
  std::string module_name(uint32_t m) const {
    return m == python::kNone ? "-" : modules_->modules()[m].name;
  }
  std::vector<std::string> paths_;
  std::vector<python::FileFacts> facts_;
  std::vector<python::ResolverFile> files_;
  std::optional<ModuleIndex> modules_;
  std::optional<ImportTable> table_;
};

TEST(ImportTable, ImportModuleBindsTheTopPackageUnlessAliased) {
  const Imports i({{"pkg/__init__.py", ""},
                   {"pkg/sub/__init__.py", ""},
                   {"pkg/sub/mod.py", ""},
                   {"main.py",
                    "import pkg.sub.mod\nimport pkg.sub.mod as alias\nimport os.path\n"
                    "import pkg.native\n"}});
  // The second `pkg` names a module the repository does not hold: it binds nothing, though its
  // package is known.
  EXPECT_EQ(i.targets("main.py", "pkg"),
            "module pkg.sub.mod, binds pkg, names of -; module -, binds -, names of -");
  EXPECT_EQ(i.targets("main.py", "alias"), "module pkg.sub.mod, binds pkg.sub.mod, names of -");
  EXPECT_EQ(i.targets("main.py", "os"), "module -, binds -, names of -");
}

TEST(ImportTable, FromImportBindsASubmoduleOrNamesOfTheModule) {
  const Imports i({{"pkg/__init__.py", "from . import sub\nfrom .sub import helper\n"},
                   {"pkg/sub.py", "def helper():\n    pass\n"},
                   {"ns/inner.py", ""},
                   {"main.py", "from pkg import sub as s\nfrom ns import inner, other\n"}});
  EXPECT_EQ(i.targets("pkg/__init__.py", "sub"),
            "module pkg, binds pkg.sub, names of pkg/__init__.py");
  EXPECT_EQ(i.targets("pkg/__init__.py", "helper"), "module pkg.sub, binds -, names of pkg/sub.py");
  EXPECT_EQ(i.targets("main.py", "s"), "module pkg, binds pkg.sub, names of pkg/__init__.py");
  // A namespace package has no file whose names could be imported.
  EXPECT_EQ(i.targets("main.py", "inner"), "module ns, binds ns.inner, names of -");
  EXPECT_EQ(i.targets("main.py", "other"), "module ns, binds -, names of -");
}

TEST(ImportTable, StarImportNamesTheFileAndOnlyImportsAreListed) {
  const Imports i({{"pkg/__init__.py", "x = 1\nfrom .impl import *\ndef f():\n    pass\n"},
                   {"pkg/impl.py", "from missing import *\n"}});
  EXPECT_EQ(i.targets("pkg/__init__.py", "*"), "module pkg.impl, binds -, names of pkg/impl.py");
  EXPECT_EQ(i.targets("pkg/impl.py", "*"), "module -, binds -, names of -");
  EXPECT_EQ(i.table().of_file(i.file("pkg/__init__.py")).size(), 1u);
  EXPECT_EQ(i.table().statement(i.file("pkg/__init__.py"), 0), nullptr);  // `x = 1`
}

TEST(ImportTable, StarExportsFollowAllOrElseThePublicNames) {
  const Imports i(
      {{"listed.py", "__all__ = ['_special', 'tool']\n"}, {"plain.py", "def tool():\n    pass\n"}});
  const ImportTable& t = i.table();
  EXPECT_TRUE(t.star_exports(i.file("listed.py"), "_special"));
  EXPECT_TRUE(t.star_exports(i.file("listed.py"), "tool"));
  EXPECT_FALSE(t.star_exports(i.file("listed.py"), "public"));
  EXPECT_TRUE(t.star_exports(i.file("plain.py"), "tool"));
  EXPECT_FALSE(t.star_exports(i.file("plain.py"), "_private"));
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
