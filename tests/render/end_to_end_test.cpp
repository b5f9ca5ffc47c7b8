// Analysis + render on small repositories: declared encodings, styles, budgets, edit stability.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "render/tag_plan.h"
#include "render/view.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::render::testing {
namespace {

using analysis::Graph;
using analysis::test::TempRepo;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The tagged text of every analysed file, by path.
std::map<std::string, std::string> tagged_files(const TempRepo& repo, const Graph& graph,
                                                const ViewOptions& options) {
  const std::vector<TagPlan> plans = render_plans(graph, choose_view(graph, options));
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < graph.files.size(); ++i) {
    const std::string path = graph.id(graph.files[i].entity);
    out[path] = render::apply(read_file(repo.root() + "/" + path), plans[i]);
  }
  return out;
}

// Runs python3 on `script` with the given file arguments; returns its combined output.
std::string run_python(const std::string& script, const std::vector<std::string>& args) {
  const std::string dir = std::filesystem::temp_directory_path() /
                          ("anchorfs-e2e-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/check.py", std::ios::binary) << script;
  std::string command = std::string(ANCHORFS_PYTHON3) + " " + dir + "/check.py";
  for (const std::string& arg : args) command += " '" + arg + "'";
  command += " 2>&1";
  std::string output;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[512];
    while (size_t got = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
    pclose(pipe);
  }
  std::filesystem::remove_all(dir);
  return output;
}

// Writes each tagged text into a directory of its own and imports every module from there.
std::string import_all(const std::map<std::string, std::string>& files) {
  TempRepo out;
  std::string names;
  for (const auto& [path, text] : files) {
    out.write(path, text);
    names += (names.empty() ? "" : ",") + path.substr(0, path.size() - 3);
  }
  return run_python(
      "import importlib, sys\n"
      "sys.path.insert(0, sys.argv[1])\n"
      "for name in sys.argv[2].split(','):\n"
      "    importlib.import_module(name)\n"
      "print('imported')\n",
      {out.root(), names});
}

TEST(DeclaredEncoding, TagTextStaysRepresentableAndLatin1NamesStayWhole) {
  TempRepo repo;
  // asc.py may only hold ASCII; lat.py is Latin-1 (0xE9 is 'e' with an acute accent).
  repo.write("asc.py",
             "# -*- coding: ascii -*-\n"
             "def target():\n"
             "    return 1\n");
  repo.write("lat.py",
             "# -*- coding: latin-1 -*-\n"
             "from asc import target\n"
             "def caf\xE9():\n"
             "    return target()\n"
             "def user():\n"
             "    return caf\xE9()\n");
  repo.write("win.py",
             "# coding=cp1252\n"
             "from lat import user\n"
             "def \x9Aum():\n"
             "    return user()\n");
  const Graph graph = repo.analyze().graph;
  ViewOptions options;
  options.view = View::Topo;
  const auto tagged = tagged_files(repo, graph, options);
  // The whole name, decoded as Python decodes it.
  EXPECT_NE(tagged.at("asc.py").find("# CALLED_BY: lat.py:caf\\u00e9\n"), std::string::npos)
      << tagged.at("asc.py");
  EXPECT_NE(tagged.at("lat.py").find("# CALLS: caf\\u00e9\n"), std::string::npos)
      << tagged.at("lat.py");
  EXPECT_NE(tagged.at("win.py").find("function: win.py:\\u0161um\n"), std::string::npos)
      << tagged.at("win.py");
  for (char c : tagged.at("asc.py")) ASSERT_LT(static_cast<unsigned char>(c), 0x80);
  for (const auto& [path, text] : tagged) {
    EXPECT_EQ(strip(text), read_file(repo.root() + "/" + path)) << path;
  }
  // Every tagged module still imports (and so compiles in its declared encoding).
  EXPECT_EQ(import_all(tagged), "imported\n");
}

}  // namespace
}  // namespace anchorfs::render::testing
