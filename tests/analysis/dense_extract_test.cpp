// Dense facts of single files (scopes, kinds, filtering, cache encoding) and entry-point parsing.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/language.h"
#include "analysis/python/entry_points.h"
#include "analysis/python/facts.h"

namespace anchorfs::analysis {
namespace {

// These tests read the Python front end's own facts.
using namespace python;  // NOLINT(google-build-using-namespace)

FileFacts extract(std::string_view source) {
  const LanguageFrontEnd& front_end = *front_end_named("python");
  auto state = front_end.new_state();
  return static_cast<const FileFacts&>(*front_end.extract(*state, source, {}));
}

// "scope-name kind path [key]" per dense fact.
std::vector<std::string> dense_of(const FileFacts& f) {
  static const char* kinds[] = {"read", "write", "call", "key", "decorator"};
  std::vector<std::string> out;
  for (const DenseFact& d : f.dense) {
    std::string line = d.scope == 0 ? "<module>" : f.strings[f.scopes[d.scope].name];
    line += std::string(" ") + kinds[static_cast<int>(d.kind)] + " " + f.strings[d.path];
    if (d.key != kNone) line += " [" + f.strings[d.key] + "]";
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(DenseFacts, KindsScopesAndFiltering) {
  const FileFacts f = extract(
      "import os\n"
      "from conf import settings\n"
      "LIMIT = 3\n"
      "state = None\n"
      "@app.route('/a', methods=['GET'])\n"
      "@plain\n"
      "def view(request, key=lambda: os.getenv('IN_DEFAULT')):\n"
      "    global state\n"
      "    state = LIMIT + len(request)\n"
      "    handler = lambda: os.environ['IN_LAMBDA']\n"
      "    value = settings.DEBUG.lower()\n"
      "    x = getattr(settings, 'TIMEOUT')\n"
      "    y = local.thing(1)\n"
      "    return f'{x:>{PAD_WIDTH}}' + str(y) + str(value)\n"
      "class Counter:\n"
      "    @classmethod\n"
      "    def bump(cls):\n"
      "        cls.n += 1\n"
      "        return Counter.n\n");
  EXPECT_EQ(dense_of(f), (std::vector<std::string>{
                             "<module> call os.getenv [IN_DEFAULT]",  // a default: outer scope
                             "bump decorator classmethod [classmethod]",
                             "bump read Counter.n",
                             "bump read cls.n",
                             "bump write cls.n",
                             "view call settings.DEBUG.lower",
                             "view decorator app.route [app.route(\"/a\")]",
                             "view decorator plain [plain]",
                             "view key os.environ [IN_LAMBDA]",  // a lambda: its function
                             "view read LIMIT",
                             "view read PAD_WIDTH",  // inside an f-string format spec
                             "view read settings.DEBUG",
                             "view read settings.TIMEOUT",  // getattr with a literal name
                             "view write state",
                         }));
}

TEST(DenseFacts, SyntaxErrorsGiveNoDenseFacts) {
  const FileFacts f = extract("import os\ndef f(:\n    return os.environ['X']\n");
  EXPECT_GT(f.error_regions, 0u);
  EXPECT_TRUE(f.dense.empty());
}

TEST(DenseFacts, ScopesLineUpAcrossNestingAndDecorators) {
  const FileFacts f = extract(
      "import os\n"
      "class A:\n"
      "    @staticmethod\n"
      "    @deco(lambda: os.getenv('IN_DECORATOR'))\n"
      "    def m():\n"
      "        def inner(x=lambda: 0):\n"
      "            return os.getenv('INNER')\n"
      "        return [os.getenv('COMP') for _ in range(3)]\n"
      "def after():\n"
      "    return os.getenv('AFTER')\n");
  std::vector<std::string> calls;
  for (const std::string& line : dense_of(f)) {
    if (line.find(" call ") != std::string::npos) calls.push_back(line);
  }
  EXPECT_EQ(calls, (std::vector<std::string>{
                       "A call os.getenv [IN_DECORATOR]", "after call os.getenv [AFTER]",
                       "inner call os.getenv [INNER]", "m call os.getenv [COMP]"}));
}

// The walk meets these uses before the `global` statement and the import that decide them: the
// collector settles them after the walk.
TEST(DenseFacts, WholeFileRulesApplyToUsesBeforeTheirDeclaration) {
  const FileFacts f = extract(
      "def reader():\n"
      "    return counter + other\n"
      "def loader():\n"
      "    return yaml.safe_load('cfg'), local.safe_load('no')\n"
      "def writer():\n"
      "    global counter\n"
      "    counter = 1\n"
      "    other = 2\n"
      "    import yaml\n");
  EXPECT_EQ(dense_of(f), (std::vector<std::string>{"loader call yaml.safe_load [cfg]",
                                                   "reader read counter", "writer write counter"}));
}

// Operands without calls are not walked for the flow facts; the dense view still reads them,
// each in the role it has: stored by `del` and augmented assignments, read elsewhere, ignored in
// keyword names and case patterns.
TEST(DenseFacts, SubtreesWithoutEffectsStillGiveFacts) {
  const FileFacts f = extract(
      "import os\n"
      "class Box:\n"
      "    pass\n"
      "def f(value):\n"
      "    global total\n"
      "    total += LIMIT\n"
      "    del Box.size, total\n"
      "    x = {'k': MAX_ITEMS if value else MIN_ITEMS}\n"
      "    match value:\n"
      "        case CASE_NAME:\n"
      "            pass\n"
      "    return 'HOME' in os.environ, x[0]\n"
      "def g():\n"
      "    class Local(Base, META_FLAG=make(FLAG_VALUE)):\n"
      "        pass\n");
  EXPECT_EQ(dense_of(f),
            (std::vector<std::string>{"f key os.environ [HOME]", "f read LIMIT", "f read MAX_ITEMS",
                                      "f read MIN_ITEMS", "f read total", "f write Box.size",
                                      "f write total", "g read FLAG_VALUE"}));
}

TEST(DenseFacts, SurviveTheCacheEncoding) {
  const FileFacts f =
      extract("import os\n@app.route('/x')\ndef f():\n    return os.environ['HOME'], LIMIT\n");
  ASSERT_FALSE(f.dense.empty());
  const auto back = deserialize_facts(serialize_facts(f));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, f);
  FileFacts broken = f;
  broken.dense[0].path = static_cast<uint32_t>(broken.strings.size());
  EXPECT_FALSE(deserialize_facts(serialize_facts(broken)).has_value());
}

TEST(EntryPoints, SetupCfg) {
  const auto entries = python::parse_setup_cfg(
      "[metadata]\nname = x\n"
      "[options.entry_points]\r\n"
      "console_scripts =\r\n"
      "    tool = pkg.cli:main\r\n"
      "    # a comment\r\n"
      "    other = pkg.cli:App.run [extra]\r\n"
      "    broken = not a target\r\n"
      "pkg.plugins = one = pkg.plugin\n"
      "[options]\nzip_safe = pkg.cli:main\n");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].group, "console_scripts");
  EXPECT_EQ(entries[0].name, "tool");
  EXPECT_EQ(entries[0].module, "pkg.cli");
  EXPECT_EQ(entries[0].attr, "main");
  EXPECT_EQ(entries[1].attr, "App.run");
  EXPECT_EQ(entries[2].group, "pkg.plugins");
  EXPECT_EQ(entries[2].module, "pkg.plugin");
  EXPECT_EQ(entries[2].attr, "");
}

TEST(EntryPoints, Pyproject) {
  const auto entries = python::parse_pyproject(
      "[project]\nname = \"x\"\nscripts = { inline = \"pkg:main\" }\n"
      "[project.scripts]\ntool = \"pkg.cli:main\" # trailing\n"
      "[project.gui-scripts]\ngui = 'pkg.gui:run'\n"
      "[project.entry-points.\"my.group\"]\n\"quoted name\" = \"pkg.ext:Ext\"\n"
      "[tool.poetry.scripts]\npoet = \"pkg.cli:main\"\n"
      "[tool.other]\nx = \"pkg.cli:main\"\n"
      "[[tool.array]]\ny = \"pkg.cli:main\"\n");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].group, "console_scripts");
  EXPECT_EQ(entries[0].name, "tool");
  EXPECT_EQ(entries[1].group, "gui_scripts");
  EXPECT_EQ(entries[1].module, "pkg.gui");
  EXPECT_EQ(entries[2].group, "my.group");
  EXPECT_EQ(entries[2].name, "quoted name");
  EXPECT_EQ(entries[2].attr, "Ext");
  EXPECT_EQ(entries[3].name, "poet");
}

TEST(EntryPoints, GarbageNeverCrashes) {
  for (std::string_view text :
       {std::string_view("["), std::string_view("[project.scripts]\nx = \""),
        std::string_view("[options.entry_points]\n  = :\n=\n"), std::string_view("\0\r\r\n", 4)}) {
    EXPECT_TRUE(python::parse_pyproject(text).empty());
    EXPECT_TRUE(python::parse_setup_cfg(text).empty());
  }
}

}  // namespace
}  // namespace anchorfs::analysis
