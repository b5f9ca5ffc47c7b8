// Whole-analysis serialization for the graph cache: exact round trips, and damaged or foreign
// bytes rejected without crashing.
#include "analysis/graph_serialize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "analysis/byte_codec.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

void expect_same_analysis(const Analysis& a, const Analysis& b) {
  EXPECT_EQ(a.stats.source_files, b.stats.source_files);
  EXPECT_EQ(a.stats.lines, b.stats.lines);
  ASSERT_EQ(a.skipped.size(), b.skipped.size());
  for (size_t i = 0; i < a.skipped.size(); ++i) {
    EXPECT_EQ(a.skipped[i].path, b.skipped[i].path);
    EXPECT_EQ(a.skipped[i].reason, b.skipped[i].reason);
  }
  ASSERT_EQ(a.graph.entities.size(), b.graph.entities.size());
  for (size_t i = 0; i < a.graph.entities.size(); ++i) {
    const Entity& x = a.graph.entities[i];
    const Entity& y = b.graph.entities[i];
    EXPECT_EQ(x.kind, y.kind) << i;
    EXPECT_EQ(x.file, y.file) << i;
    EXPECT_EQ(x.parent, y.parent) << i;
    EXPECT_EQ(x.name, y.name) << i;
    EXPECT_EQ(x.line, y.line) << i;
    ASSERT_EQ(x.anchor.has_value(), y.anchor.has_value()) << i;
    if (x.anchor) {
      EXPECT_EQ(x.anchor->offset, y.anchor->offset) << i;
      EXPECT_EQ(x.anchor->indent, y.anchor->indent) << i;
    }
  }
  ASSERT_EQ(a.graph.files.size(), b.graph.files.size());
  for (size_t i = 0; i < a.graph.files.size(); ++i) {
    EXPECT_EQ(a.graph.files[i].entity, b.graph.files[i].entity) << i;
    EXPECT_EQ(a.graph.files[i].language, b.graph.files[i].language) << i;
    EXPECT_EQ(a.graph.files[i].newline, b.graph.files[i].newline) << i;
    EXPECT_EQ(a.graph.files[i].taggable, b.graph.files[i].taggable) << i;
    EXPECT_EQ(a.graph.files[i].error_regions, b.graph.files[i].error_regions) << i;
  }
  EXPECT_EQ(a.graph.edges, b.graph.edges);
  EXPECT_EQ(a.graph.labels, b.graph.labels);
}

// A small repository touching every part of an Analysis: nested scopes with anchors and
// indentation, CRLF and LF files, every skip reason, edges of several relations, dense labels.
Analysis sample_analysis() {
  TempRepo repo;
  repo.write("pkg/__init__.py", "from pkg.core import Base\n");
  repo.write("pkg/core.py",
             "import os\n\n\nclass Base:\n    def run(self):\n        return helper()\n\n\n"
             "def helper():\n    return os.environ.get('HOME')\n");
  repo.write("pkg/derived.py",
             "from pkg.core import Base, helper\r\n\r\n\r\nclass Derived(Base):\r\n"
             "    @staticmethod\r\n    def go():\r\n        def inner():\r\n"
             "            return helper()\r\n        return inner()\r\n");
  repo.write("pkg/broken.py", "def oops(:\n");  // tagged outside its error: none of it
  repo.write("pkg/deep.py", "x = " + std::string(300, '(') + std::string(300, ')') + "\n");
  repo.write("pkg/binary.py", std::string("x = 1\0", 6));
  repo.write("pkg/tagged.py", "# [anchorfs:begin]\nx = 1\n");
  AnalysisOptions options;
  options.threads = 2;
  options.keep_unchanged = [](const LanguageFrontEnd&, std::string_view bytes) {
    return bytes.find("[anchorfs:begin]") != std::string_view::npos;
  };
  return analyze(scan_tree(repo.root()), options);
}

TEST(GraphSerialize, RoundTripKeepsEveryField) {
  const Analysis original = sample_analysis();
  ASSERT_GE(original.skipped.size(), 3u);  // nesting too deep, binary, already tagged
  ASSERT_TRUE(std::any_of(original.graph.files.begin(), original.graph.files.end(),
                          [](const FileInfo& f) { return f.error_regions > 0; }));
  ASSERT_FALSE(original.graph.labels.empty());
  ASSERT_GT(original.graph.edges.size(), 5u);
  ASSERT_TRUE(graph_is_consistent(original.graph));
  const std::string bytes = serialize_analysis(original);
  const auto loaded = deserialize_analysis(bytes);
  ASSERT_TRUE(loaded.has_value());
  expect_same_analysis(original, *loaded);
  EXPECT_EQ(serialize_analysis(*loaded), bytes);
}

// serialize_analysis reserves serialized_bytes_bound() and writes into it: the bound must hold
// for the widest values every field can take, not only for typical ones.
TEST(GraphSerialize, TheReservedBoundHoldsForTheWidestValues) {
  const Analysis sample = sample_analysis();
  EXPECT_LE(serialize_analysis(sample).size(), serialized_bytes_bound(sample));
  EXPECT_LE(serialize_analysis(Analysis{}).size(), serialized_bytes_bound(Analysis{}));
  Analysis wide;
  wide.stats.source_files = UINT64_MAX;
  wide.stats.lines = UINT64_MAX;
  wide.skipped.push_back({std::string(200, 'p'), std::string(300, 'r')});
  for (uint32_t i = 0; i < 50; ++i) {
    Entity e;
    e.kind = EntityKind::Function;
    e.file = UINT32_MAX - 1;
    e.parent = UINT32_MAX - 1;
    e.name = std::string(i * 7, 'n');
    e.line = UINT32_MAX;
    e.anchor = Anchor{UINT64_MAX, std::string(i, ' ')};
    wide.graph.entities.push_back(e);
    wide.graph.edges.push_back({UINT32_MAX - i, UINT32_MAX, Relation::Calls});
    wide.graph.labels.push_back({UINT32_MAX, Relation::EnvVar, std::string(i * 3, 'v')});
  }
  FileInfo file;
  file.entity = UINT32_MAX;
  file.language = "javascript";
  file.newline = "\r\n";
  file.taggable = true;
  file.error_regions = UINT32_MAX;
  file.ascii_tags = true;
  file.size = UINT64_MAX;
  wide.graph.files.push_back(file);
  EXPECT_LE(serialize_analysis(wide).size(), serialized_bytes_bound(wide));
}

TEST(GraphSerialize, EmptyAnalysisRoundTrips) {
  const auto loaded = deserialize_analysis(serialize_analysis(Analysis{}));
  ASSERT_TRUE(loaded.has_value());
  EXPECT_TRUE(loaded->graph.entities.empty());
  EXPECT_TRUE(loaded->skipped.empty());
}

TEST(GraphSerialize, EveryTruncationIsRejected) {
  const std::string bytes = serialize_analysis(sample_analysis());
  for (size_t n = 0; n < bytes.size(); ++n) {
    ASSERT_FALSE(deserialize_analysis(bytes.substr(0, n)).has_value()) << "prefix of " << n;
  }
  EXPECT_FALSE(deserialize_analysis(bytes + '\0').has_value()) << "trailing byte";
}

// Front ends' facts versions are in the resolution key (the entry's name), not in the entry.
TEST(GraphSerialize, OtherFormatVersionIsRejected) {
  const Analysis original = sample_analysis();
  std::string bytes = serialize_analysis(original);
  // Layout: magic (4 bytes), format version (one varint byte here).
  ASSERT_LT(kGraphFormatVersion, 0x7fu);
  std::string other_format = bytes;
  other_format[4] = static_cast<char>(kGraphFormatVersion + 1);
  EXPECT_FALSE(deserialize_analysis(other_format).has_value());
  std::string other_magic = bytes;
  other_magic[0] = 'X';
  EXPECT_FALSE(deserialize_analysis(other_magic).has_value());
}

// Any byte garbled: never a crash, and whatever loads is a graph the renderer can index safely
// (damage to names or offsets is the store checksum's to catch, not the decoder's).
TEST(GraphSerialize, GarbledBytesNeverCrashAndNeverLoadInconsistentGraphs) {
  const std::string bytes = serialize_analysis(sample_analysis());
  constexpr size_t kHeaderBytes = 5;  // magic and format version
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (const int flip : {0x01, 0x80, 0xff}) {
      std::string garbled = bytes;
      garbled[i] = static_cast<char>(static_cast<unsigned char>(garbled[i]) ^ flip);
      const auto loaded = deserialize_analysis(garbled);
      if (i < kHeaderBytes) {
        EXPECT_FALSE(loaded.has_value()) << "header byte " << i;
      }
      if (loaded) {
        ASSERT_TRUE(graph_is_consistent(loaded->graph)) << "byte " << i;
      }
    }
  }
}

TEST(GraphSerialize, InconsistentGraphsAreRejected) {
  const Analysis original = sample_analysis();
  auto reload_with = [&](auto&& damage) {
    Analysis copy = original;
    damage(copy.graph);
    return deserialize_analysis(serialize_analysis(copy)).has_value();
  };
  EXPECT_TRUE(reload_with([](Graph&) {}));
  EXPECT_FALSE(reload_with([](Graph& g) { g.edges.back().to = 1u << 30; }));
  EXPECT_FALSE(reload_with([](Graph& g) { std::swap(g.edges.front(), g.edges.back()); }));
  EXPECT_FALSE(reload_with([](Graph& g) { g.edges.push_back(g.edges.back()); }));
  EXPECT_FALSE(reload_with([](Graph& g) { g.labels.front().entity = 1u << 30; }));
  size_t scope = original.graph.entities.size() - 1;
  while (original.graph.entities[scope].kind == EntityKind::File) --scope;
  ASSERT_NE(original.graph.entities[scope].file, 0u);
  EXPECT_FALSE(reload_with([&](Graph& g) { g.entities[scope].parent = kNoEntity; }));
  EXPECT_FALSE(reload_with([&](Graph& g) { g.entities[scope].file = 0; }));
  EXPECT_FALSE(
      reload_with([&](Graph& g) { g.entities[scope].parent = static_cast<EntityIndex>(scope); }));
  EXPECT_FALSE(reload_with([](Graph& g) { g.files.pop_back(); }));
  EXPECT_FALSE(reload_with([](Graph& g) { g.files.back().entity = 1; }));
  EXPECT_FALSE(reload_with([](Graph& g) { g.entities.front().kind = EntityKind::Class; }));
}

TEST(ByteCodec, ReaderFailsInsteadOfReadingPastTheEnd) {
  ByteWriter w;
  w.u64(300);
  w.str("abc");
  w.ref(UINT32_MAX);
  w.ref(7);
  const std::string bytes = w.take();
  ByteReader r(bytes);
  EXPECT_EQ(r.u64(), 300u);
  EXPECT_EQ(r.str(), "abc");
  EXPECT_EQ(r.ref(), UINT32_MAX);
  EXPECT_EQ(r.ref(), 7u);
  EXPECT_TRUE(r.ok() && r.at_end());
  EXPECT_EQ(r.u64(), 0u);
  EXPECT_FALSE(r.ok());

  ByteReader huge_count(std::string_view("\xff\xff\xff\x0f", 4));
  EXPECT_EQ(huge_count.count(), 0u);  // more items than bytes left
  EXPECT_FALSE(huge_count.ok());
  ByteReader not_bool(std::string_view("\x02", 1));
  not_bool.boolean();
  EXPECT_FALSE(not_bool.ok());
}

}  // namespace
}  // namespace anchorfs::analysis::test
