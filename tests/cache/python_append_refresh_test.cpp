// A Python refresh that resolves only functions appended to one file gives exactly a cold
// analysis's graph; edits the shortcut cannot prove resolve the whole tree and match it too.

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/python/incremental.h"
#include "analysis/source_tree.h"
#include "cache/lmdb_fact_cache.h"
#include "refresh_support.h"

namespace anchorfs::refresh::testing {
namespace {

// core.py has a chain of calls deep enough that the whole resolution takes several rounds, and
// calls a `later` it does not define; other.py imports it and calls `core.shared_name`, which
// core.py does not define either.
constexpr const char* kCore =
    "def leaf():\n    return 1\n\n\ndef middle():\n    return leaf()\n\n\n"
    "def top():\n    return middle()\n\n\nclass Box:\n    def get(self):\n"
    "        return top()\n\n\ndef run():\n    return later()\n";
constexpr const char* kOther =
    "from pkg import core\nfrom pkg.core import top, Box\n\n\ndef caller():\n"
    "    return top(), Box().get(), core.shared_name()\n";

class PythonAppendRefreshTest : public ScratchTree {
 protected:
  void SetUp() override {
    ScratchTree::SetUp();
    put(root_, "pkg/__init__.py", "");
    put(root_, "pkg/core.py", kCore);
    put(root_, "pkg/other.py", kOther);
    cache::CacheOptions cache_options;
    cache_options.repo_root = root_;
    cache_options.cache_dir = root_ + "-cache";
    cache_ = cache::LmdbFactCache::open(cache_options);
    core_ = kCore;
    refresh();  // the whole resolution the next refreshes start from
  }
  void TearDown() override {
    cache_.reset();
    std::filesystem::remove_all(root_ + "-cache");
  }

  analysis::Analysis analyse(bool cold) {
    analysis::AnalysisOptions options;
    options.threads = cold ? 1 : 2;
    options.dense = false;
    if (!cold) {
      options.cache = cache_.get();
      options.resolution_memo = &resolution_memo_;
      options.facts_memo = &facts_memo_;
    }
    return analysis::analyze(analysis::scan_tree(root_), options);
  }

  // Rewrites core.py, refreshes, and checks the graph against a cold analysis; returns which
  // path the Python resolution took.
  enum class Path { Reused, Appended, Resolved };
  Path refresh() {
    put(root_, "pkg/core.py", core_);
    const analysis::python::RefreshCounts before = analysis::python::refresh_counts();
    const analysis::Analysis live = analyse(false);
    const analysis::python::RefreshCounts after = analysis::python::refresh_counts();
    const analysis::Analysis cold = analyse(true);
    EXPECT_EQ(live.graph.edges, cold.graph.edges) << core_;
    EXPECT_EQ(live.graph.entities.size(), cold.graph.entities.size()) << core_;
    for (size_t i = 0; i < live.graph.entities.size() && i < cold.graph.entities.size(); ++i) {
      EXPECT_EQ(live.graph.entities[i].name, cold.graph.entities[i].name) << i;
    }
    calls_ = 0;
    for (const analysis::Edge& e : cold.graph.edges) {
      calls_ += e.relation == analysis::Relation::Calls ? 1 : 0;
    }
    if (after.appended > before.appended) return Path::Appended;
    if (after.reused > before.reused) return Path::Reused;
    EXPECT_GT(after.resolved, before.resolved);
    return Path::Resolved;
  }

  Path append(const std::string& source) {
    core_ += source;
    return refresh();
  }

  std::unique_ptr<cache::LmdbFactCache> cache_;
  analysis::ResolutionMemo resolution_memo_;
  analysis::FactsMemo facts_memo_;
  std::string core_;
  size_t calls_ = 0;  // Calls edges of the last cold analysis
};

TEST_F(PythonAppendRefreshTest, AppendedFunctionsCallingEachOtherResolveAlone) {
  const size_t calls_before = calls_;
  EXPECT_EQ(append("\n\ndef fresh_helper():\n    return 1\n"), Path::Appended);
  EXPECT_EQ(append("\n\ndef fresh_user():\n    return fresh_helper()\n"), Path::Appended);
  EXPECT_EQ(calls_, calls_before + 1);
  // A nested function, a tuple of calls, a module-level call and an assignment, all in the unit.
  EXPECT_EQ(append("\n\ndef fresh_outer():\n    def inner():\n        return fresh_user()\n"
                   "    value = (inner(), [fresh_helper])\n    return value or inner()\n\n\n"
                   "fresh_alias = fresh_outer\nfresh_alias()\n"),
            Path::Appended);
  EXPECT_GT(calls_, calls_before + 3);
}

TEST_F(PythonAppendRefreshTest, ChangingTheBodyOfAnAppendedFunctionOrAddingACallResolvesAlone) {
  append("\n\ndef fresh_a():\n    return 1\n\n\ndef fresh_b():\n    return 2\n");
  const size_t calls_before = calls_;
  // Body changed: fresh_b now calls fresh_a (a call added within the appended unit).
  core_.replace(core_.rfind("return 2"), 8, "return fresh_a()");
  EXPECT_EQ(refresh(), Path::Appended);
  EXPECT_EQ(calls_, calls_before + 1);
  // Another body change back: the unit's call goes away again.
  core_.replace(core_.rfind("return fresh_a()"), 16, "return 3");
  EXPECT_EQ(refresh(), Path::Appended);
  EXPECT_EQ(calls_, calls_before);
  // The unit removed (a comment left, so that no stored graph answers): the file reads as at the
  // whole resolution, whose edges stand.
  core_ = std::string(kCore) + "# fresh functions removed\n";
  EXPECT_EQ(refresh(), Path::Reused);
}

// Module-level functions no code names may call the file's old names with arguments that hold
// no values (literals, their own parameters): their edges come from the last whole resolution's
// final state (docs/resolver.md, "Refresh").
TEST_F(PythonAppendRefreshTest, AppendedFunctionsCallingOldCodeWithEmptyArgumentsResolveAlone) {
  const size_t calls_before = calls_;
  // issue 29's realistic edit: a parameter, a call of an old function and of an old class.
  EXPECT_EQ(append("\n\ndef fresh_a(x):\n    return top(x, 2) + Box(x) * 3\n"), Path::Appended);
  EXPECT_EQ(calls_, calls_before + 2);
  // A call whose result is returned, a keyword argument, an attribute of a parameter called, a
  // builtin the resolver does not model, a name bound nowhere, beside a closed unit.
  EXPECT_EQ(append("\n\ndef fresh_b():\n    return middle(key=1)\n\n\n"
                   "def fresh_c(y, *, z):\n    y.method(z)\n    len(y)\n    nowhere(top(1))\n"
                   "    leaf()\n\n\ndef fresh_d(y):\n    return y\n\n\n"
                   "def fresh_e():\n    return fresh_d(1)\n"),
            Path::Appended);
  EXPECT_EQ(calls_, calls_before + 6);
  // The leaves' bodies changed: the edges follow.
  core_.replace(core_.rfind("return middle(key=1)"), 20, "return run()");
  EXPECT_EQ(refresh(), Path::Appended);
  EXPECT_EQ(calls_, calls_before + 6);
}

// What the unit cannot prove must resolve the whole tree (and the comparison with a cold
// analysis holds either way): each of these, taken alone, would give edges the last resolution
// plus the unit's lack.
TEST_F(PythonAppendRefreshTest, AppendsThatReachTheRestOfTheTreeResolveTheWholeTree) {
  // Passes a value to an old function (an argument flowing into the old part).
  EXPECT_EQ(append("\n\ndef fresh_a():\n    return top(fresh_a)\n"), Path::Resolved);
  EXPECT_EQ(append("\n\ndef fresh_f():\n    top(leaf())\n"), Path::Resolved);
  // Reads an attribute of an old value (a bound method would be made).
  EXPECT_EQ(append("\n\ndef fresh_g():\n    return Box().get()\n"), Path::Resolved);
  // Returns a call with a positional parameter (the parameter is forwarded: values made).
  EXPECT_EQ(append("\n\ndef fresh_h(x):\n    return top(x)\n"), Path::Resolved);
  // Calls a function whose name another appended function reads.
  EXPECT_EQ(append("\n\ndef fresh_i():\n    return top()\n\n\n"
                   "def fresh_j():\n    return fresh_i\n"),
            Path::Resolved);
  // Defines a name the file's old code reads (run() calls later()).
  EXPECT_EQ(append("\n\ndef later():\n    return 1\n"), Path::Resolved);
  // Defines a name another file spells.
  EXPECT_EQ(append("\n\ndef shared_name():\n    return 1\n"), Path::Resolved);
  // Calls a builtin the resolver models (a builtin value would be made).
  EXPECT_EQ(append("\n\ndef fresh_b():\n    return sorted(1)\n"), Path::Resolved);
  // A class (its bases are evaluated before every round, the unit only in its file's place).
  EXPECT_EQ(append("\n\nclass FreshBox(Box):\n    def get(self):\n        return 1\n"),
            Path::Resolved);
  // A variadic parameter (setup gives it a value).
  EXPECT_EQ(append("\n\ndef fresh_c(*x):\n    return x\n"), Path::Resolved);
  // An edit to the old part changes the file's prefix.
  core_.replace(core_.find("return leaf()"), 13, "return 5");
  EXPECT_EQ(refresh(), Path::Resolved);
}

// A leaf's call is described by the final state only where that state already held when its
// file's first round ended (where a cold run evaluates the appended statements first): a name
// changed later (here widened past the set cap by another file, so it ends empty) must resolve
// the whole tree, or the edge a cold run records in the first round would be missing.
TEST_F(PythonAppendRefreshTest, ALeafCallingANameThatChangesLaterResolvesTheWholeTree) {
  std::string late = "from pkg import core\n";
  for (int i = 0; i < 20; ++i) {
    late += fmt::format("\n\ndef late_{0}():\n    return 1\n\n\ncore.handler = late_{0}\n", i);
  }
  put(root_, "pkg/late.py", late);
  core_ += "\n\nhandler = leaf\n";
  refresh();
  EXPECT_EQ(append("\n\ndef fresh_a():\n    return handler()\n"), Path::Resolved);
  EXPECT_EQ(append("\n\ndef fresh_b():\n    return leaf()\n"), Path::Appended);
}

// A module name that only another file's attribute store makes does not exist yet where a cold
// run first evaluates the leaf (whose lookup then stays unresolved): refused, though the final
// state holds it (the store's change comes after the file's first round too, so the tick check
// refuses it as well as the `late` mark).
TEST_F(PythonAppendRefreshTest, ALeafCallingANameAnotherFileStoresLaterResolvesTheWholeTree) {
  put(root_, "pkg/late.py", "from pkg import core\n\ncore.made_late = core.leaf\n");
  refresh();
  EXPECT_EQ(append("\n\ndef fresh_a():\n    return made_late()\n"), Path::Resolved);
}

// Calling a class passes its instance to the `__init__` the MRO finds: where that `self` does not
// hold the instance yet (an inherited `__init__` no old code reached through this class), the
// call would change old variables (`self.setup()` would reach Sub.setup), so the tree is
// resolved again; once old code makes that call first, the leaf takes the shortcut.
TEST_F(PythonAppendRefreshTest, ALeafCallingAClassWhoseInitDoesNotHoldItsInstanceResolvesAll) {
  core_ +=
      "\n\nclass Base:\n    def __init__(self):\n        self.setup()\n\n"
      "    def setup(self):\n        return 1\n\n\nclass Sub(Base):\n"
      "    def setup(self):\n        return 2\n";
  refresh();
  EXPECT_EQ(append("\n\ndef fresh_a():\n    return Sub()\n"), Path::Resolved);
  core_ += "\n\nmade = Sub()\n";
  refresh();
  EXPECT_EQ(append("\n\ndef fresh_b():\n    return Sub()\n"), Path::Appended);
}

// A unit that keeps changing after the whole resolution went quiet would have made a cold run
// take more rounds: the shortcut refuses it.
TEST_F(PythonAppendRefreshTest, AUnitNeedingMoreRoundsThanTheTreeResolvesTheWholeTree) {
  std::string chain = "\n\ndef fresh_end():\n    return 1\n\n\n";
  for (int i = 20; i > 0; --i) chain += fmt::format("fresh_v{} = fresh_v{}\n", i, i - 1);
  chain += "fresh_v0 = fresh_end\n";
  EXPECT_EQ(append(chain), Path::Resolved);
  // From the whole resolution of that (which never went quiet), a short unit resolves alone.
  EXPECT_EQ(append("\n\ndef fresh_x():\n    return 1\n\n\ndef fresh_y():\n    return fresh_x()\n"),
            Path::Appended);
}

}  // namespace
}  // namespace anchorfs::refresh::testing
