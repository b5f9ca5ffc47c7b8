// The tagged file is the same program: python3's ast.dump of tagged and original are equal.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "graph_builder.h"
#include "render/tag_plan.h"
#include "render/view.h"
#include "render_helpers.h"

namespace anchorfs::render::testing {
namespace {

namespace fs = std::filesystem;

// Runs python3 on the two files; returns its combined output, which is "same\n" on equality.
std::string compare_with_python(const std::string& original, const std::string& tagged) {
  fs::path dir = fs::temp_directory_path() / ("anchorfs-render-ast-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto write = [&](const char* name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
  };
  write("original.py", original);
  write("tagged.py", tagged);
  write("check.py",
        "import ast, sys\n"
        "a = ast.dump(ast.parse(open(sys.argv[1], 'rb').read()))\n"
        "b = ast.dump(ast.parse(open(sys.argv[2], 'rb').read()))\n"
        "print('same' if a == b else 'different')\n");
  std::string command = std::string(ANCHORFS_PYTHON3) + " " + (dir / "check.py").string() + " " +
                        (dir / "original.py").string() + " " + (dir / "tagged.py").string() +
                        " 2>&1";
  std::string output;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[512];
    while (size_t got = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
    pclose(pipe);
  }
  fs::remove_all(dir);
  return output;
}

// A source and, per fixture entity, the text its anchor line starts with.
struct Snippet {
  std::string name;
  std::string source;
  std::string newline;
  std::string file, outer, inner, method, run, helper;
};

TEST(PythonAst, TaggedSnippetsParseToTheSameProgram) {
  std::vector<Snippet> snippets = {
      {"decorators",
       "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\"Doc.\"\"\"\nimport functools\n\n"
       "@functools.lru_cache(maxsize=None)\n@staticmethod\ndef helper(x):\n    return x\n\n"
       "class Outer(object):\n    \"\"\"Outer.\"\"\"\n    class Inner:\n        @property\n"
       "        def value(self):\n            return helper(1)\n\n    def run(self):\n"
       "        return self.Inner().value\n",
       "\n", "\"\"\"Doc", "class Outer", "class Inner", "@property", "    def run", "@functools"},
      {"crlf",
       "import os\r\n\r\nclass Base:\r\n    def run(self):\r\n        return helper(\r\n"
       "            1)\r\n\r\nclass Outer(Base):\r\n    class Inner(Base):\r\n"
       "        def go(self):\r\n            return 2\r\n\r\ndef helper(x):\r\n    return x",
       "\r\n", "import os", "class Outer", "class Inner", "def go", "    def run", "def helper"},
      {"tabs-bom",
       "\xEF\xBB\xBFimport os\nclass Outer:\n\tclass Inner:\n\t\tdef value(self):\n\t\t\treturn "
       "helper(\"caf\xC3\xA9\")\n\tdef run(self):\n\t\treturn 1\ndef helper(x):\n\treturn x\n",
       "\n", "import os", "class Outer", "\tclass Inner", "\t\tdef value", "\tdef run",
       "def helper"},
  };
  for (const Snippet& s : snippets) {
    GraphBuilder b;
    EntityIndex file = b.file("pkg/m\xC3\xA9.py", anchor_at(s.source, s.file), s.newline);
    EntityIndex outer = b.cls("Outer", anchor_at(s.source, s.outer));
    EntityIndex inner = b.cls("Outer.Inner", anchor_at(s.source, s.inner), outer);
    EntityIndex method = b.function("Outer.Inner.value", anchor_at(s.source, s.method), inner);
    EntityIndex run = b.function("Outer.run", anchor_at(s.source, s.run), outer);
    EntityIndex helper = b.function("helper", anchor_at(s.source, s.helper));
    b.calls(method, helper).calls(run, method).calls(file, helper);
    b.edge(inner, outer, Relation::Inherits);
    b.file("pkg/z\nz.py");
    EntityIndex odd = b.function("user", Anchor{0, ""});
    b.calls(odd, helper);
    analysis::Graph graph = b.build();
    for (View view : {View::Topo, View::Inv, View::Dense}) {
      std::vector<TagPlan> plans = render(graph, view, view == View::Dense ? 0 : 1);
      ASSERT_GE(plans[0].insertions.size(), 4u) << s.name;
      std::string tagged = render::apply(s.source, plans[0]);
      EXPECT_EQ(compare_with_python(s.source, tagged), "same\n")
          << s.name << " under " << view_name(view) << ":\n"
          << tagged;
      EXPECT_EQ(strip(tagged), s.source) << s.name;
    }
  }
}

TEST(PythonAst, CheckerNoticesADifferentProgram) {
  EXPECT_EQ(compare_with_python("x = 1\n", "x = 2\n"), "different\n");
}

}  // namespace
}  // namespace anchorfs::render::testing
