// Dense relations on small repositories: one suite per relation kind, exact edges and labels.
#include <gtest/gtest.h>

#include "tests/analysis/dense_test_support.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

TEST(DenseConfig, SettingsObjectsConfigMappingsAndGetattr) {
  TempRepo repo;
  repo.write("proj/__init__.py", "");
  repo.write("proj/settings.py", "DEBUG = True\nTIMEOUT = 30\n");
  repo.write("proj/views.py",
             "from django.conf import settings as djs\n"
             "from proj import settings\n"
             "def view(app, config):\n"
             "    a = settings.DEBUG\n"
             "    b = djs.SECRET_KEY\n"
             "    c = getattr(settings, 'TIMEOUT', 5)\n"
             "    d = app.config['SERVER_NAME']\n"
             "    e = config.get('db_url')\n"
             "    f = settings.lower_case_is_not_a_setting\n"
             "    return a, b, c, d, e, f\n"
             "def local(settings):\n"
             "    return settings.DEBUG\n"
             "LEVEL = djs.LOG_LEVEL\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(
      labels_of(g, Relation::ConfigUsage),
      (std::vector<std::string>{"proj/views.py = LOG_LEVEL", "proj/views.py:view = SECRET_KEY",
                                "proj/views.py:view = SERVER_NAME", "proj/views.py:view = db_url",
                                "proj/views.py:view = proj/settings.py:DEBUG",
                                "proj/views.py:view = proj/settings.py:TIMEOUT"}));
}

TEST(DenseConfig, SettingsDefinedInRepositorySettingsModules) {
  TempRepo repo;
  repo.write("site/settings/__init__.py", "");
  repo.write("site/settings/base.py", "ALLOWED_HOSTS = []\nDEBUG = False\n");
  repo.write("site/settings/dev.py", "from .base import *\nDEBUG = True\n");
  repo.write("site/app.py",
             "from django.conf import settings\n"
             "def hosts():\n"
             "    return settings.ALLOWED_HOSTS, settings.DEBUG, settings.UNKNOWN\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(labels_of(g, Relation::ConfigUsage),
            (std::vector<std::string>{"site/app.py:hosts = UNKNOWN",
                                      "site/app.py:hosts = site/settings/base.py:ALLOWED_HOSTS",
                                      "site/app.py:hosts = site/settings/base.py:DEBUG",
                                      "site/app.py:hosts = site/settings/dev.py:DEBUG"}));
}

TEST(DenseEnv, ReadsWritesAndTestsOfLiteralNames) {
  TempRepo repo;
  repo.write("env.py",
             "import os\n"
             "import os as system\n"
             "from os import environ, getenv as ge\n"
             "HOME = os.environ.get('HOME')\n"
             "def f(name):\n"
             "    a = os.environ['USER']\n"
             "    b = system.getenv('PATH', '')\n"
             "    c = ge('SHELL')\n"
             "    if 'LANG' in environ:\n"
             "        pass\n"
             "    environ.setdefault('TZ', 'UTC')\n"
             "    os.environ['NEW'] = '1'\n"
             "    os.putenv('PUT', 'x')\n"
             "    d = os.environ[name]\n"
             "    e = os.environ.get(f'X{name}')\n"
             "    return a, b, c, d, e\n"
             "def shadow(os):\n"
             "    return os.environ['NOT_THE_OS_MODULE']\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(labels_of(g, Relation::EnvVar),
            (std::vector<std::string>{"env.py = HOME", "env.py:f = LANG", "env.py:f = NEW",
                                      "env.py:f = PATH", "env.py:f = PUT", "env.py:f = SHELL",
                                      "env.py:f = TZ", "env.py:f = USER"}));
}

TEST(DenseConstRef, ModuleConstantsThroughScopesAndImports) {
  TempRepo repo;
  repo.write("pkg/__init__.py", "");
  repo.write("pkg/limits.py", "MAX_SIZE = 10\nMODE = 'fast'\n");
  repo.write("pkg/reexport.py", "from pkg.limits import MAX_SIZE\n");
  repo.write("pkg/use.py",
             "import logging\n"
             "from pkg import limits\n"
             "from pkg.reexport import MAX_SIZE as MAXIMUM\n"
             "RETRIES = 3\n"
             "COUNTER = 0\n"
             "class Config:\n"
             "    LIMIT = RETRIES\n"
             "def f():\n"
             "    return RETRIES, MAXIMUM, limits.MODE, logging.DEBUG\n"
             "def shadowed():\n"
             "    RETRIES = 5\n"
             "    return RETRIES\n"
             "def bump():\n"
             "    global COUNTER\n"
             "    COUNTER += 1\n"
             "    return COUNTER\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(
      labels_of(g, Relation::ConstRef),
      (std::vector<std::string>{"pkg/use.py:f = RETRIES", "pkg/use.py:f = pkg/limits.py:MAX_SIZE",
                                "pkg/use.py:f = pkg/limits.py:MODE"}));
}

TEST(DenseIo, FilesProcessesNetworkAndDatabases) {
  TempRepo repo;
  repo.write("io_ops.py",
             "import subprocess as sp\n"
             "import os, shutil, socket, sqlite3\n"
             "import urllib.request\n"
             "import requests\n"
             "from pathlib import Path\n"
             "from subprocess import check_output\n"
             "def files(p):\n"
             "    open(p).read()\n"
             "    Path(p).read_text()\n"
             "    shutil.rmtree(p)\n"
             "def procs():\n"
             "    sp.run(['ls'])\n"
             "    os.system('ls')\n"
             "    check_output(['ls'])\n"
             "def net():\n"
             "    requests.get('http://x')\n"
             "    urllib.request.urlopen('http://x')\n"
             "    socket.socket()\n"
             "def db():\n"
             "    conn = sqlite3.connect(':memory:')\n"
             "    cursor = conn.cursor()\n"
             "    cursor.execute('select 1')\n"
             "def pure(items):\n"
             "    return sorted(items)\n");
  repo.write("mine.py",
             "def open(x):\n"
             "    return x\n"
             "def uses_own_open():\n"
             "    return open('not a file')\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(labels_of(g, Relation::IoDep),
            (std::vector<std::string>{
                "io_ops.py:files = file:open", "io_ops.py:files = file:read_text",
                "io_ops.py:files = file:shutil.rmtree", "io_ops.py:procs = subprocess:check_output",
                "io_ops.py:procs = subprocess:os.system", "io_ops.py:procs = subprocess:run",
                "io_ops.py:net = net:requests.get", "io_ops.py:net = net:socket.socket",
                "io_ops.py:net = net:urlopen", "io_ops.py:db = db:cursor.execute",
                "io_ops.py:db = db:sqlite3.connect"}));
}

TEST(DenseData, GlobalsAndClassAttributes) {
  TempRepo repo;
  repo.write("state.py",
             "_cache = None\n"
             "def load():\n"
             "    global _cache\n"
             "    _cache = {}\n"
             "def get():\n"
             "    return _cache\n"
             "def local():\n"
             "    _cache = 1\n"
             "    return _cache\n"
             "class Registry:\n"
             "    items = []\n"
             "    @classmethod\n"
             "    def reset(cls):\n"
             "        cls.items = []\n"
             "    @classmethod\n"
             "    def count(cls):\n"
             "        return len(cls.items)\n"
             "class Sub(Registry):\n"
             "    pass\n"
             "def fill():\n"
             "    Registry.items = [1]\n"
             "def peek():\n"
             "    return Sub.items\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(
      edges_of(g, Relation::DataDep),
      (std::vector<std::string>{
          "state.py:load -> state.py:get", "state.py:Registry.reset -> state.py:Registry.count",
          "state.py:Registry.reset -> state.py:peek", "state.py:fill -> state.py:Registry.count",
          "state.py:fill -> state.py:peek"}));
}

TEST(DenseData, SlotsWrittenByTooManyFunctionsGiveNoEdges) {
  TempRepo repo;
  std::string text = "hits = 0\n";
  for (int i = 0; i < 9; ++i) {
    text += "def w" + std::to_string(i) + "():\n    global hits\n    hits = " + std::to_string(i) +
            "\n";
  }
  text += "def r():\n    return hits\n";
  repo.write("many.py", text);
  EXPECT_TRUE(edges_of(repo.analyze().graph, Relation::DataDep).empty());
}

TEST(DenseTests, TestFunctionsAndFilesToProductionCode) {
  TempRepo repo;
  repo.write("app/__init__.py", "");
  repo.write("app/core.py",
             "def add(a, b):\n    return a + b\n"
             "def helper():\n    return add(1, 2)\n");
  repo.write("app/other.py", "VALUE = 1\n");
  repo.write("tests/test_core.py",
             "import unittest\n"
             "from app.core import add\n"
             "import app.other\n"
             "def test_add():\n"
             "    def inner():\n"
             "        return add(2, 3)\n"
             "    return inner()\n"
             "def make():\n"
             "    return add(0, 0)\n"
             "class AddCase(unittest.TestCase):\n"
             "    def setUp(self):\n"
             "        add(1, 1)\n"
             "class Helper:\n"
             "    def run(self):\n"
             "        add(1, 1)\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(edges_of(g, Relation::TestRef),
            (std::vector<std::string>{"tests/test_core.py -> app/core.py",
                                      "tests/test_core.py -> app/other.py",
                                      "tests/test_core.py:test_add -> app/core.py:add",
                                      "tests/test_core.py:AddCase.setUp -> app/core.py:add"}));
}

TEST(DenseTests, TestPaths) {
  EXPECT_TRUE(python_is_test_path("test_x.py"));
  EXPECT_TRUE(python_is_test_path("pkg/x_test.py"));
  EXPECT_TRUE(python_is_test_path("pkg/tests.py"));
  EXPECT_TRUE(python_is_test_path("conftest.py"));
  EXPECT_TRUE(python_is_test_path("tests/helpers.py"));
  EXPECT_TRUE(python_is_test_path("src/pkg/tests/unit/helpers.py"));
  EXPECT_FALSE(python_is_test_path("pkg/test/client.py"));  // a test-support package
  EXPECT_FALSE(python_is_test_path("pkg/contest.py"));
  EXPECT_FALSE(python_is_test_path("pkg/testing.py"));
}

TEST(DenseRegisters, DecoratorsToRepositoryRegistrarsOrLabels) {
  TempRepo repo;
  repo.write("lib.py",
             "class Library:\n"
             "    def filter(self, f):\n"
             "        return f\n"
             "def register_plugin(f):\n"
             "    return f\n");
  repo.write("plugins.py",
             "import pytest\n"
             "from flask import Flask\n"
             "from lib import Library, register_plugin\n"
             "register = Library()\n"
             "app = Flask(__name__)\n"
             "@register_plugin\n"
             "def one():\n"
             "    pass\n"
             "@register.filter\n"
             "def upper(s):\n"
             "    return s\n"
             "@app.route('/users/<int:id>', methods=['GET'])\n"
             "def users(id):\n"
             "    pass\n"
             "@app.get('/items')\n"
             "def items():\n"
             "    pass\n"
             "@pytest.fixture\n"
             "def fixture():\n"
             "    pass\n"
             "class Model:\n"
             "    @property\n"
             "    def handler(self):\n"
             "        return 1\n"
             "    @handler.setter\n"
             "    def handler(self, value):\n"
             "        pass\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(edges_of(g, Relation::Registers),
            (std::vector<std::string>{"lib.py:Library.filter -> plugins.py:upper",
                                      "lib.py:register_plugin -> plugins.py:one"}));
  EXPECT_EQ(labels_of(g, Relation::Registers),
            (std::vector<std::string>{"plugins.py:users = app.route(\"/users/<int:id>\")",
                                      "plugins.py:items = app.get(\"/items\")"}));
}

TEST(DenseRegisters, EntryPointsFromSetupCfgAndPyproject) {
  TempRepo repo;
  repo.write("tool/__init__.py", "");
  repo.write("tool/cli.py",
             "def main():\n    pass\n"
             "class App:\n    def run(self):\n        pass\n");
  repo.write("tool/plugin.py", "X = 1\n");
  repo.write("setup.cfg",
             "[metadata]\nname = tool\n\n"
             "[options.entry_points]\n"
             "console_scripts =\n"
             "    tool = tool.cli:main\n"
             "    tool-app = tool.cli:App.run [extra]\n"
             "tool.plugins = builtin = tool.plugin\n"
             "\n[other]\nx = tool.cli:main\n");
  repo.write("pyproject.toml",
             "[project]\nname = \"tool\"\n\n"
             "[project.scripts]\n"
             "tool2 = \"tool.cli:main\"  # comment\n"
             "missing = \"tool.nowhere:main\"\n\n"
             "[project.entry-points.\"tool.hooks\"]\n"
             "'hook' = 'tool.cli:App'\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(labels_of(g, Relation::Registers),
            (std::vector<std::string>{
                "tool/cli.py:main = entry_point:tool", "tool/cli.py:main = entry_point:tool2",
                "tool/cli.py:App = entry_point:hook", "tool/cli.py:App.run = entry_point:tool-app",
                "tool/plugin.py = entry_point:builtin"}));
}

// Names reached through star imports mean what they mean in the call graph (one ImportTable):
// `from .consts import *` does not bind HIDDEN in pkg when __all__ leaves it out, just as
// `from .impl import *` does not bind _hidden, so neither is reached through `pkg.`.
TEST(DenseImports, StarImportsBindWhatTheCallGraphSeesBound) {
  TempRepo repo;
  repo.write("pkg/__init__.py", "from .consts import *\nfrom .impl import *\n");
  repo.write("pkg/consts.py", "__all__ = ['LIMIT']\nLIMIT = 3\nHIDDEN = 4\n");
  repo.write("pkg/impl.py", "def run():\n    return 1\ndef _hidden():\n    return 2\n");
  repo.write("main.py",
             "import pkg\n"
             "def f():\n    return pkg.LIMIT, pkg.HIDDEN\n"
             "def g():\n    return pkg.run(), pkg._hidden()\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(labels_of(g, Relation::ConstRef),
            (std::vector<std::string>{"main.py:f = pkg/consts.py:LIMIT"}));
  EXPECT_EQ(edges_of(g, Relation::Calls),
            (std::vector<std::string>{"main.py:g -> pkg/impl.py:run"}));
}

TEST(DenseDeterminism, SameLabelsAndEdgesForAnyThreadCountAndFromTheCache) {
  TempRepo repo;
  for (int i = 0; i < 12; ++i) {
    const std::string n = std::to_string(i);
    repo.write("m" + n + ".py", "import os\nLIMIT = " + n +
                                    "\n"
                                    "def f():\n    return os.getenv('V" +
                                    n + "'), LIMIT, open('x')\n");
  }
  repo.write("tests/test_all.py", "from m1 import f\ndef test_f():\n    f()\n");
  const Graph one = repo.analyze(1).graph;
  const Graph two = repo.analyze(2).graph;
  EXPECT_EQ(one.labels, two.labels);
  EXPECT_EQ(one.edges, two.edges);
  MemoryCache cache;
  repo.analyze(2, &cache);
  const Graph cached = repo.analyze(2, &cache).graph;
  EXPECT_EQ(one.labels, cached.labels);
  EXPECT_EQ(one.edges, cached.edges);
  EXPECT_EQ(one.labels.size(), 12u * 3u);
}

TEST(DenseOption, OffSkipsDenseFactsAndCachedFactsWithoutThemAreReextracted) {
  TempRepo repo;
  repo.write("m.py", "import os\ndef f():\n    return os.getenv('HOME')\n");
  MemoryCache cache;
  AnalysisOptions options;
  options.threads = 1;
  options.cache = &cache;
  options.dense = false;
  const Analysis without = analyze(scan_tree(repo.root()), options);
  EXPECT_TRUE(without.graph.labels.empty());
  options.dense = true;
  const Analysis with = analyze(scan_tree(repo.root()), options);
  EXPECT_EQ(with.stats.from_cache, 0u);
  EXPECT_EQ(labels_of(with.graph, Relation::EnvVar), (std::vector<std::string>{"m.py:f = HOME"}));
  options.dense = false;
  const Analysis again = analyze(scan_tree(repo.root()), options);
  EXPECT_EQ(again.stats.from_cache, 1u);
  EXPECT_TRUE(again.graph.labels.empty());
  EXPECT_EQ(again.graph.edges, without.graph.edges);
}

}  // namespace
}  // namespace anchorfs::analysis::test
