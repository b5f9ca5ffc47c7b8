// End to end: a small repository analysed and rendered under `dense` shows every dense field.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "render/tag_plan.h"
#include "render/view.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The tagged text of every analysed file under `view`, by path.
std::map<std::string, std::string> rendered(const TempRepo& repo, const Graph& graph,
                                            render::View view) {
  render::ViewOptions options;
  options.view = view;
  const render::ViewChoice choice = render::choose_view(graph, options);
  const std::vector<render::TagPlan> plans = render::render_plans(graph, choice);
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < graph.files.size(); ++i) {
    const std::string path = graph.id(graph.files[i].entity);
    const std::string original = read_file(repo.root() + "/" + path);
    out[path] = render::apply(original, plans[i]);
    EXPECT_EQ(render::strip(out[path]), original) << path;
  }
  return out;
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.starts_with(line + "\n");
}

class DenseRender : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write("app/__init__.py", "");
    repo_.write("app/settings.py", "DEBUG = True\n");
    repo_.write("app/registry.py",
                "def register(f):\n"
                "    return f\n");
    repo_.write("app/core.py",
                "import os\n"
                "import subprocess\n"
                "from app import settings\n"
                "from app.registry import register\n"
                "LIMIT = 3\n"
                "_seen = 0\n"
                "def run(cmd):\n"
                "    global _seen\n"
                "    _seen = LIMIT\n"
                "    if settings.DEBUG:\n"
                "        print(os.environ['HOME'])\n"
                "    return subprocess.run(cmd)\n"
                "def seen():\n"
                "    return _seen\n"
                "@register\n"
                "def plugin():\n"
                "    pass\n"
                "@app.route('/users')\n"
                "def users():\n"
                "    pass\n");
    repo_.write("tests/test_core.py",
                "from app.core import seen\n"
                "def test_seen():\n"
                "    assert seen() == 0\n");
    graph_ = repo_.analyze().graph;
  }
  TempRepo repo_;
  Graph graph_;
};

TEST_F(DenseRender, DenseShowsEveryRelationInItsField) {
  const auto files = rendered(repo_, graph_, render::View::Dense);
  const std::string& core = files.at("app/core.py");
  EXPECT_TRUE(has_line(core, "# CONFIG_USAGE: app/settings.py:DEBUG")) << core;
  EXPECT_TRUE(has_line(core, "# ENV_VAR: HOME")) << core;
  EXPECT_TRUE(has_line(core, "# CONST_REF: LIMIT")) << core;
  EXPECT_TRUE(has_line(core, "# IO_DEP: subprocess:run")) << core;
  EXPECT_TRUE(has_line(core, "# DATA_DEP: seen")) << core;  // on the writer
  EXPECT_TRUE(has_line(core, "# DATA_DEP: run")) << core;   // on the reader
  EXPECT_TRUE(has_line(core, "# TEST_REF: tests/test_core.py:test_seen")) << core;
  EXPECT_TRUE(has_line(core, "# TEST_REF: tests/test_core.py")) << core;  // file block
  EXPECT_TRUE(has_line(core, "# REGISTERED_BY: app/registry.py:register")) << core;
  EXPECT_TRUE(has_line(core, "# REGISTERED_BY: app.route(\"/users\")")) << core;
  EXPECT_TRUE(has_line(files.at("app/registry.py"), "# REGISTERS: app/core.py:plugin"));
  EXPECT_TRUE(has_line(files.at("tests/test_core.py"), "# TEST_REF: app/core.py:seen"));
  EXPECT_TRUE(has_line(files.at("tests/test_core.py"), "# TEST_REF: app/core.py"));
}

TEST_F(DenseRender, TopoAndInvShowNoDenseField) {
  for (render::View view : {render::View::Topo, render::View::Inv}) {
    for (const auto& [path, text] : rendered(repo_, graph_, view)) {
      for (const char* field : {"CONFIG_USAGE", "ENV_VAR", "CONST_REF", "IO_DEP", "DATA_DEP",
                                "TEST_REF", "REGISTERED_BY", "REGISTERS"}) {
        EXPECT_EQ(text.find(std::string("# ") + field + ":"), std::string::npos)
            << path << " " << field;
      }
    }
  }
}

}  // namespace
}  // namespace anchorfs::analysis::test
