// A mount that served its view from the cache refreshes from the resolution memory the analysis
// that rendered it kept there (analysis/kept_memory.h), exactly as a cold analysis would.
#include "analysis/kept_memory.h"

#include <string>

#include "analysis/python/incremental.h"
#include "analysis/python/refresh_memory.h"
#include "analysis/source_tree.h"
#include "cached_python_tree.h"
#include "refresh/snapshot_builder.h"

namespace anchorfs::refresh::testing {
namespace {

using analysis::python::refresh_counts;

// core.py: a chain of calls and a class; b.py calls into it.
constexpr const char* kCore =
    "def leaf():\n    return 1\n\n\ndef middle():\n    return leaf()\n\n\n"
    "class Box:\n    def get(self):\n        return middle()\n";
// issue 29's realistic edit: a function with a parameter calling old code (a leaf).
constexpr const char* kLeaf = "\n\ndef fresh(x):\n    return middle(x, 2) + Box(x)\n";

class KeptMemoryTest : public CachedPythonTree {
 protected:
  void SetUp() override {
    CachedPythonTree::SetUp();
    put(root_, "pkg/core.py", kCore);
    put(root_, "pkg/b.py", "from pkg.core import Box\n\n\ndef user():\n    return Box().get()\n");
  }

  // What a mount of the tree as it is now serves, made without a cache.
  std::string cold_bytes(const std::string& path) {
    BuildOptions options = options_;
    options.cache = nullptr;
    options.threads = 1;
    return served_bytes(*SnapshotBuilder(options).build().snapshot, path);
  }

  // A mount that analyses the tree, keeps its records and goes away.
  void first_mount() {
    SnapshotBuilder first(options_);
    first.build();
    first.keep_records();
  }
};

TEST_F(KeptMemoryTest, TheFirstRefreshOfAMountServedFromRecordsStartsFromTheKeptMemory) {
  first_mount();
  SnapshotBuilder second(options_);
  EXPECT_TRUE(second.build().stats.graph_from_cache);  // the view came from its record

  put(root_, "pkg/core.py", std::string(kCore) + kLeaf);
  const analysis::python::RefreshCounts before = refresh_counts();
  const Built refreshed = second.build();
  const analysis::python::RefreshCounts after = refresh_counts();
  EXPECT_EQ(after.appended, before.appended + 1);  // not a whole resolution
  EXPECT_EQ(after.resolved, before.resolved);
  // The view's graph record lets it render only the plans that can change (core.py's, and b.py's,
  // which lists Box, now called once more), not all four.
  EXPECT_EQ(refreshed.rendered_files, 2u);
  EXPECT_EQ(refreshed.analysed_files, 4u);
  for (const char* path : {"pkg/core.py", "pkg/b.py", "pkg/a.py", "pkg/__init__.py"}) {
    EXPECT_EQ(served_bytes(*refreshed.snapshot, path), cold_bytes(path)) << path;
  }
  EXPECT_NE(served_bytes(*refreshed.snapshot, "pkg/core.py").find("CALLS: Box, middle"),
            std::string::npos)
      << served_bytes(*refreshed.snapshot, "pkg/core.py");
}

// The memory a refresh kept (after the shortcut: the base of the first mount, the edited file's
// facts of then) serves a third mount of the edited tree just as well.
TEST_F(KeptMemoryTest, AMemoryKeptAfterARefreshServesTheNextMount) {
  first_mount();
  {
    SnapshotBuilder second(options_);
    second.build();
    put(root_, "pkg/core.py", std::string(kCore) + kLeaf);
    second.build();
    second.keep_records();
  }
  SnapshotBuilder third(options_);
  EXPECT_TRUE(third.build().stats.graph_from_cache);
  put(root_, "pkg/core.py", std::string(kCore) + kLeaf + "\n\ndef other(y):\n    leaf(y)\n");
  const analysis::python::RefreshCounts before = refresh_counts();
  const Built refreshed = third.build();
  EXPECT_EQ(refresh_counts().appended, before.appended + 1);
  EXPECT_EQ(refresh_counts().resolved, before.resolved);
  EXPECT_EQ(refresh_counts().reused, before.reused);
  EXPECT_EQ(served_bytes(*refreshed.snapshot, "pkg/core.py"), cold_bytes("pkg/core.py"));
}

// An edit the memory cannot serve (the old part of a file) resolves the whole tree, and serves a
// cold analysis's bytes.
TEST_F(KeptMemoryTest, EditsBeyondTheMemoryResolveTheWholeTree) {
  first_mount();
  SnapshotBuilder second(options_);
  second.build();
  put(root_, "pkg/core.py",
      std::string(kCore).replace(std::string(kCore).find("leaf()"), 6, "Box()"));
  const analysis::python::RefreshCounts before = refresh_counts();
  const Built refreshed = second.build();
  EXPECT_EQ(refresh_counts().resolved, before.resolved + 1);
  EXPECT_EQ(served_bytes(*refreshed.snapshot, "pkg/core.py"), cold_bytes("pkg/core.py"));
}

// The record is read back only when it is whole and fits the files: every truncation and every
// flipped byte of a real record gives no memory or one whose references fit (never a crash).
TEST_F(KeptMemoryTest, AGarbledRecordIsRefusedWithoutHarm) {
  analysis::python::RefreshMemory memory;
  memory.root = root_;
  auto facts = std::make_shared<analysis::python::FileFacts>();
  facts->scopes.resize(3);
  memory.files.push_back({"pkg/core.py", facts, analysis::ContentDigest{1, 2}});
  memory.edges.push_back({{0, 1}, {0, 2}, analysis::Relation::Calls});
  auto base = std::make_shared<analysis::python::ResolutionBase>();
  base->files.resize(1);
  base->files[0].names.push_back({.name = "leaf", .callees = {{0, 2}}});
  memory.base = base;
  const std::string bytes = analysis::python::serialize_memory(memory);
  ASSERT_FALSE(bytes.empty());

  const analysis::ContentDigest digest{1, 2};
  const analysis::ResolverFile file{.path = "pkg/core.py",
                                    .facts = facts.get(),
                                    .entity = 0,
                                    .digest = &digest,
                                    .shared_facts = facts};
  const analysis::ResolverInput input{root_, {&file, 1}, nullptr};
  const analysis::OldFacts none = [](const analysis::ContentDigest&, std::string_view) {
    return std::shared_ptr<const analysis::LanguageFacts>();
  };
  const auto whole = analysis::python::deserialize_memory(bytes, input, none);
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(whole->edges.size(), 1u);
  EXPECT_EQ(whole->files[0].facts, facts);  // the same digest: the input's facts
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(analysis::python::deserialize_memory(bytes.substr(0, n), input, none), nullptr) << n;
    std::string flipped = bytes;
    flipped[n] = static_cast<char>(flipped[n] ^ 0x5a);
    if (const auto read = analysis::python::deserialize_memory(flipped, input, none)) {
      for (const analysis::python::LocalEdge& e : read->edges) {
        EXPECT_LT(e.to.local, 3u) << n;
      }
    }
  }
  // Another digest and no old facts to be found: no memory.
  const analysis::ContentDigest other{3, 4};
  const analysis::ResolverFile edited{.path = "pkg/core.py",
                                      .facts = facts.get(),
                                      .entity = 0,
                                      .digest = &other,
                                      .shared_facts = facts};
  EXPECT_EQ(analysis::python::deserialize_memory(bytes, {root_, {&edited, 1}, nullptr}, none),
            nullptr);
}

}  // namespace
}  // namespace anchorfs::refresh::testing
