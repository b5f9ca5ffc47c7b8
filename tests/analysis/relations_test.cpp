// Resolution: containment, imports, inheritance and calls on small repositories.
#include <gtest/gtest.h>

#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

TEST(Contains, FileClassMethodNested) {
  TempRepo repo;
  repo.write("a.py", "class C:\n    def m(self):\n        def inner():\n            pass\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(edges_of(g, Relation::Contains),
            (std::vector<std::string>{"a.py -> a.py:C", "a.py:C -> a.py:C.m",
                                      "a.py:C.m -> a.py:C.m.inner"}));
}

TEST(Imports, AbsoluteRelativeAliasedAndPackageInit) {
  TempRepo repo;
  repo.write("pkg/__init__.py", "from .core import Engine\n");
  repo.write("pkg/core.py", "class Engine:\n    pass\n");
  repo.write("pkg/util/__init__.py", "");
  repo.write("pkg/util/text.py", "def shout(s):\n    return s\n");
  repo.write("pkg/util/more.py",
             "from . import text\nfrom ..core import Engine\nfrom .. import core as c\n");
  repo.write("app.py",
             "import pkg.util.text\nimport pkg.core as pc\nfrom pkg import Engine\n"
             "from pkg.util import text as t\nimport os\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(
      edges_of(g, Relation::Imports),
      (std::vector<std::string>{"app.py -> pkg/core.py", "app.py -> pkg/util/text.py",
                                "pkg/__init__.py -> pkg/core.py", "pkg/util/more.py -> pkg/core.py",
                                "pkg/util/more.py -> pkg/util/text.py"}));
}

TEST(Imports, StarImportRespectsAll) {
  TempRepo repo;
  repo.write("lib.py",
             "__all__ = ['public']\n"
             "def public():\n    return 1\n"
             "def other():\n    return 2\n");
  repo.write("main.py",
             "from lib import *\n"
             "public()\n"
             "other()\n");
  const Graph g = repo.analyze().graph;
  EXPECT_TRUE(has_edge(g, Relation::Imports, "main.py", "lib.py"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "main.py", "lib.py:public"));
  EXPECT_FALSE(has_edge(g, Relation::Calls, "main.py", "lib.py:other"));
}

TEST(Inherits, BasesThroughScopeAndImports) {
  TempRepo repo;
  repo.write("base.py", "class Base:\n    pass\nclass Mixin:\n    pass\n");
  repo.write("derived.py",
             "import base\nfrom base import Mixin as M\n"
             "class A(base.Base, M):\n    pass\n"
             "class B(A):\n    pass\n"
             "class C(object, Unknown):\n    pass\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(
      edges_of(g, Relation::Inherits),
      (std::vector<std::string>{"derived.py:A -> base.py:Base", "derived.py:A -> base.py:Mixin",
                                "derived.py:B -> derived.py:A"}));
}

TEST(Calls, DirectModuleQualifiedAndImported) {
  TempRepo repo;
  repo.write("util.py", "def helper():\n    return 1\n");
  repo.write("main.py",
             "import util\nfrom util import helper as h\n"
             "def local():\n    return 2\n"
             "def run():\n    local()\n    util.helper()\n    h()\n"
             "run()\n"
             "undefined_name()\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(edges_of(g, Relation::Calls),
            (std::vector<std::string>{"main.py -> main.py:run", "main.py:run -> main.py:local",
                                      "main.py:run -> util.py:helper"}));
}

TEST(Calls, ConstructorsMethodsAndSuper) {
  TempRepo repo;
  repo.write("shapes.py",
             "class Shape:\n"
             "    def __init__(self, name):\n"
             "        self.name = name\n"
             "    def describe(self):\n"
             "        return self.area()\n"
             "    def area(self):\n"
             "        return 0\n"
             "    @classmethod\n"
             "    def make(cls):\n"
             "        return cls('x')\n"
             "class Square(Shape):\n"
             "    def area(self):\n"
             "        return super().area() + 1\n"
             "class Unit(Square):\n"
             "    pass\n"
             "def build():\n"
             "    u = Unit('u')\n"
             "    u.describe()\n"
             "    Shape.area(u)\n"
             "    return Square.make()\n");
  const Graph g = repo.analyze().graph;
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:build", "shapes.py:Shape.__init__"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:build", "shapes.py:Shape.describe"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:build", "shapes.py:Shape.area"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:build", "shapes.py:Shape.make"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:Shape.describe", "shapes.py:Shape.area"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:Shape.describe", "shapes.py:Square.area"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:Square.area", "shapes.py:Shape.area"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "shapes.py:Shape.make", "shapes.py:Shape.__init__"));
  EXPECT_FALSE(has_edge(g, Relation::Calls, "shapes.py:build", "shapes.py:Square.area"));
}

TEST(Calls, PointsToThroughAssignmentsReturnsParametersAndContainers) {
  TempRepo repo;
  repo.write("flow.py",
             "def a():\n    return 1\n"
             "def b():\n    return 2\n"
             "def pick():\n    return a\n"
             "def apply(fn, *rest, **named):\n"
             "    fn()\n"
             "    for r in rest:\n        r()\n"
             "    named['k']()\n"
             "handlers = {'x': b}\n"
             "f = pick()\n"
             "f()\n"
             "apply(a, b, k=a)\n"
             "x, y = b, a\n"
             "y()\n"
             "for h in handlers.values():\n    h()\n"
             "g = lambda: b()\n"
             "g()\n"
             "getattr(flow, 'a')()\n");
  const Graph g = repo.analyze().graph;
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py", "flow.py:pick"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py", "flow.py:a"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py", "flow.py:b"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py", "flow.py:apply"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py", "flow.py:<lambda1>"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py:<lambda1>", "flow.py:b"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py:apply", "flow.py:a"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "flow.py:apply", "flow.py:b"));
}

TEST(Calls, DecoratorsAreCallsAndWrappersStaySpecific) {
  TempRepo repo;
  repo.write("deco.py",
             "import functools\n"
             "def logged(func):\n"
             "    @functools.wraps(func)\n"
             "    def wrapper(*args):\n"
             "        return func(*args)\n"
             "    return wrapper\n"
             "@logged\n"
             "def one():\n    return 1\n"
             "@logged\n"
             "def two():\n    return 2\n"
             "def main():\n    one()\n");
  const Graph g = repo.analyze().graph;
  EXPECT_TRUE(has_edge(g, Relation::Calls, "deco.py", "deco.py:logged"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "deco.py:main", "deco.py:logged.wrapper"));
  EXPECT_TRUE(has_edge(g, Relation::Calls, "deco.py:logged.wrapper", "deco.py:one"));
  EXPECT_FALSE(has_edge(g, Relation::Calls, "deco.py:main", "deco.py:two"));
}

TEST(Calls, BuiltinsAndExternalsAreNeverEntities) {
  TempRepo repo;
  repo.write("m.py", "import os\nprint(len([1]))\nos.path.join('a')\n");
  const Graph g = repo.analyze().graph;
  EXPECT_TRUE(edges_of(g, Relation::Calls).empty());
}

}  // namespace
}  // namespace anchorfs::analysis::test
