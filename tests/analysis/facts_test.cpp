// Per-file facts: serialization round trip and robustness against garbage.
#include "analysis/python/facts.h"

#include <gtest/gtest.h>

#include <random>

#include "temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

// These tests read the Python front end's own facts.
using namespace python;  // NOLINT(google-build-using-namespace)

const char* kSource =
    "import os.path as p\n"
    "from .sub import (a, b as c)\n"
    "from m import *\n"
    "__all__ = ['f', 'C']\n"
    "@decorate(1, key=lambda x: x)\n"
    "def f(x, /, y=2, *args, z, **kw):\n"
    "    global g\n"
    "    for i, (j, *k) in enumerate(x):\n"
    "        yield i\n"
    "    with open(y) as h, q() as (r, s):\n"
    "        return {k: v for k, v in kw.items()}\n"
    "class C(Base, metaclass=Meta):\n"
    "    def m(self):\n"
    "        try:\n"
    "            super().m()\n"
    "        except (E, F) as e:\n"
    "            raise Other from e\n";

TEST(Facts, ExtractionSeesScopesImportsAndAll) {
  const FileFacts f = extract_python(kSource);
  EXPECT_TRUE(f.parsed_cleanly);
  EXPECT_TRUE(f.has_all);
  ASSERT_EQ(f.all_names.size(), 2u);
  EXPECT_EQ(f.strings[f.all_names[0]], "f");
  // module, <lambda1>, f, C, C.m
  ASSERT_EQ(f.scopes.size(), 5u);
  EXPECT_EQ(f.strings[f.scopes[1].name], "f");
  EXPECT_EQ(f.strings[f.scopes[2].name], "<lambda1>");
  EXPECT_EQ(f.scopes[2].parent, 0u);
  EXPECT_NE(f.scopes[1].flags & kGenerator, 0);
  EXPECT_EQ(f.scopes[1].params_count, 5u);
  EXPECT_EQ(f.params[f.scopes[1].params_begin + 2].kind, ParamKind::VarPositional);
  EXPECT_EQ(f.params[f.scopes[1].params_begin + 3].kind, ParamKind::KeywordOnly);
  EXPECT_EQ(f.params[f.scopes[1].params_begin + 4].kind, ParamKind::VarKeyword);
  EXPECT_EQ(f.scopes[3].bases_count, 1u);
  size_t imports = 0;
  for (const Stmt& s : f.stmts) {
    if (s.kind == StmtKind::ImportModule || s.kind == StmtKind::ImportFrom ||
        s.kind == StmtKind::ImportStar) {
      ++imports;
    }
  }
  EXPECT_EQ(imports, 4u);
  EXPECT_TRUE(facts_are_consistent(f));
}

TEST(Facts, SerializationRoundTrip) {
  const FileFacts f = extract_python(kSource);
  const std::string bytes = serialize_facts(f);
  const auto back = deserialize_facts(bytes);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, f);
  EXPECT_EQ(serialize_facts(*back), bytes);
}

TEST(Facts, RejectsOtherVersionsAndTruncation) {
  const std::string bytes = serialize_facts(extract_python(kSource));
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(deserialize_facts(std::string_view(bytes).substr(0, n)).has_value()) << n;
  }
  std::string other = bytes;
  other[4] = static_cast<char>(kFactsVersion + 1);
  EXPECT_FALSE(deserialize_facts(other).has_value());
  EXPECT_FALSE(deserialize_facts(bytes + "x").has_value());
}

TEST(Facts, GarbageNeverCrashes) {
  const std::string bytes = serialize_facts(extract_python(kSource));
  std::mt19937 rng(42);
  size_t accepted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string mutated = bytes;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < flips; ++i) {
      mutated[rng() % mutated.size()] = static_cast<char>(rng());
    }
    if (const auto facts = deserialize_facts(mutated)) {
      EXPECT_TRUE(facts_are_consistent(*facts));
      ++accepted;
    }
  }
  std::string noise(4096, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  EXPECT_FALSE(deserialize_facts(noise).has_value());
  EXPECT_LT(accepted, 3000u);
}

TEST(Facts, HostileSourcesExtractWithoutCrashing) {
  std::string deep = "x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\n";
  const FileFacts deep_facts = extract_python(deep);
  EXPECT_FALSE(deep_facts.parsed_cleanly);  // beyond the nesting limit: served unchanged
  EXPECT_TRUE(facts_are_consistent(deep_facts));

  std::string blocks;
  for (int i = 0; i < 2000; ++i) blocks += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  blocks += std::string(2000, ' ') + "pass\n";
  EXPECT_TRUE(facts_are_consistent(extract_python(blocks)));

  const std::string long_line = "x = [" + std::string(2 << 20, '1') + "]\n";
  EXPECT_TRUE(extract_python(long_line).parsed_cleanly);

  const std::string invalid_utf8 = "s = '\xff\xfe\xc3'\ndef f():\n\treturn s\x0c\n";
  EXPECT_TRUE(facts_are_consistent(extract_python(invalid_utf8)));

  const std::string lone_cr = "def f():\r    return 1\r\rclass A:\r    pass\r";
  const FileFacts cr = extract_python(lone_cr);
  EXPECT_EQ(cr.newline, "\r");
  EXPECT_TRUE(facts_are_consistent(cr));
}

}  // namespace
}  // namespace anchorfs::analysis::test
