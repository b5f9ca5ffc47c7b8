// C files of plain directives only (register headers) are read without a parse: which files
// qualify, and that their facts equal the parsed ones, in both dialects.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "analysis/cfamily/directives_only.h"
#include "analysis/cfamily/extract.h"
#include "analysis/cfamily/grammar.h"
#include "analysis/parse_arena.h"
#include "analysis/parse_budget.h"

namespace anchorfs::languages_test {
namespace {

using analysis::cfamily::Dialect;
using analysis::cfamily::extract_facts;
using analysis::cfamily::extract_facts_by_parse;
using analysis::cfamily::plain_directive_facts;
using analysis::cfamily::plain_directive_items;
using analysis::cfamily::plain_tree_fits_budget;

// The shape of drivers/gpu/drm/amd/include/asic_reg/*: a guard, comments, object-like macros.
constexpr std::string_view kRegisterHeader =
    "/*\n * Copyright\n */\n"
    "#ifndef _dcn_SH_MASK_HEADER\n#define _dcn_SH_MASK_HEADER\n\n\n"
    "// addressBlock: dce_dc\n//VGA_MEM\n"
    "#define VGA_MEM__PAGE0__SHIFT                                 0x0\n"
    "#define VGA_MEM__PAGE1_MASK   0x000003FFL /* mask */\n"
    "#  define SPACED (1 << 3) | ~0UL\n"
    "#undef SPACED\n"
    "#ifdef CONFIG_X /* a comment\n   over lines */\n#define X 1\n#else // not X\n#define X 2\n"
    "#endif\n\n#endif /* _dcn_SH_MASK_HEADER */\n";

class CPlainDirectives : public ::testing::Test {
 protected:
  CPlainDirectives() : parser_(ts_parser_new()) {}
  ~CPlainDirectives() override { ts_parser_delete(parser_); }
  CPlainDirectives(const CPlainDirectives&) = delete;
  CPlainDirectives& operator=(const CPlainDirectives&) = delete;

  // A plain file's facts read both ways, and extract_facts's, are the parsed ones.
  void expect_same_facts(std::string_view bytes) {
    for (const Dialect dialect : {Dialect::C, Dialect::Cpp}) {
      EXPECT_EQ(plain_directive_facts(bytes, dialect), extract_facts_by_parse(bytes, dialect))
          << bytes;
      EXPECT_EQ(extract_facts(bytes, dialect), extract_facts_by_parse(bytes, dialect)) << bytes;
    }
  }

  TSParser* parser_;
};

TEST_F(CPlainDirectives, RegisterHeadersQualifyAndKeepTheirParsedFacts) {
  // 7 comments, 12 directive lines.
  EXPECT_EQ(plain_directive_items(kRegisterHeader), 19u);
  expect_same_facts(kRegisterHeader);
  const auto facts = plain_directive_facts(kRegisterHeader, Dialect::C);
  EXPECT_TRUE(facts.parsed_cleanly);
  EXPECT_TRUE(facts.has_file_anchor);
  EXPECT_EQ(facts.file_anchor, 0u);
  EXPECT_EQ(facts.package, "c");
  EXPECT_EQ(facts.lines, 21u);
  // And it is not parsed: tree-sitter allocates nothing.
  {
    const analysis::ParseBudget watch(parser_, UINT64_MAX);
    (void)extract_facts(kRegisterHeader, Dialect::C);
    EXPECT_EQ(watch.peak_bytes(), 0u);
  }
  {
    const analysis::ParseBudget watch(parser_, UINT64_MAX);
    (void)extract_facts("#include \"regs.h\"\n", Dialect::C);
    EXPECT_GT(watch.peak_bytes(), 0u);
  }
  for (const std::string_view also_plain : {
           "", "\n\n", "#endif", "// only a comment", "/* x */\r\n#define A 1\r\n",
           "\n\n#ifdef A\n#endif", "#define A\n", "#define A /**/\n", "#ifndef A//x\n#endif\n",
           "\r\n\r\n\n#define A 1\r\n"}) {
    // "#endif" alone is unbalanced: not plain. The others are.
    EXPECT_EQ(plain_directive_items(also_plain).has_value(), also_plain != "#endif") << also_plain;
    expect_same_facts(also_plain);
  }
}

TEST_F(CPlainDirectives, AnythingTheExtractorReadsOrTheTwoReadersCouldDisagreeOnIsParsed) {
  for (const std::string_view not_plain : std::initializer_list<std::string_view>{
           "#define F(x) ((x) + 1)\n",                  // function-like: an entity
           "#include \"regs.h\"\n",                     // an import
           "#if defined(A)\n#endif\n",                  // a parsed condition
           "int x;\n",                                  // code
           "#define S \"a/*b\"\n",                      // a literal
           "#define C '\\''\n",                         // a literal, a backslash
           "#define L 1 \\\n  + 2\n",                   // a continuation
           "#define D 1 // note\n",                     // `//` inside a preproc_arg
           "#define V 4 / 2\n",                         // a lone '/'
           "#define E 1",                               // no line break after a define
           "#define T 1 /* c */ + 2\n",                 // a value after its comment
           "#ifdef A\n",                                // unbalanced
           "#ifdef A\n#else\n#else\n#endif\n",          // two #else
           "#pragma once\n",                            // another directive
           "#\n",                                       // the null directive
           std::string_view("#define N 1\n\0\n", 14),   // a NUL
           "/* unterminated\n",                         // an open comment
           "// a comment \\\n continued\n",             // a continued `//` comment
           "#define R 1\r2\n",                          // a lone carriage return
           "#define 9A 1\n",                            // not an identifier
           "\xEF\xBB\xBF#define A 1\n",                // a byte order mark: not ASCII
       }) {
    EXPECT_FALSE(plain_directive_items(not_plain).has_value()) << not_plain;
    for (const Dialect dialect : {Dialect::C, Dialect::Cpp}) {
      EXPECT_EQ(extract_facts(not_plain, dialect), extract_facts_by_parse(not_plain, dialect));
    }
  }
  std::string deep;
  for (int i = 0; i <= analysis::cfamily::kMaxPlainNesting; ++i) deep += "#ifdef A\n";
  for (int i = 0; i <= analysis::cfamily::kMaxPlainNesting; ++i) deep += "#endif\n";
  EXPECT_FALSE(plain_directive_items(deep).has_value());
}

TEST_F(CPlainDirectives, EveryValueByteIsJudgedWhereverItStands) {
  // Values are skipped sixteen bytes at a time: each byte at each offset of a 40-byte value.
  for (int c = 1; c < 256; ++c) {
    const bool plain = c == '\t' || (c >= 0x20 && c <= 0x7e && c != '"' && c != '\'' &&
                                      c != '\\' && c != '/');
    for (size_t at = 0; at < 40; ++at) {
      std::string value(40, 'a');
      value[at] = static_cast<char>(c);
      const std::string line = "#define A " + value + "\n";
      // A line break (or CR LF) last ends the value: a blank line follows.
      const bool ends_line = at == 39 && (c == '\n' || c == '\r');
      EXPECT_EQ(plain_directive_items(line).has_value(), plain || ends_line) << c << " at " << at;
    }
  }
}

TEST_F(CPlainDirectives, EveryNameByteIsJudgedWhereverItStands) {
  // Names are read sixteen bytes at a time too: a name is letters, digits (not first) and `_`.
  for (int c = 1; c < 256; ++c) {
    const bool word = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9');
    for (size_t at = 0; at < 40; ++at) {
      std::string name(40, 'a');
      name[at] = static_cast<char>(c);
      const bool digit_first = at == 0 && c >= '0' && c <= '9';
      // A blank first or last, or a line break last, only moves where the name lies.
      const bool blank = c == ' ' || c == '\t';
      const bool moved = (at == 0 && blank) || (at == 39 && (blank || c == '\n' || c == '\r'));
      EXPECT_EQ(plain_directive_items("#ifdef " + name + "\n#endif\n").has_value(),
                (word && !digit_first) || moved)
          << c << " at " << at;
    }
  }
}

TEST_F(CPlainDirectives, ATreeStaysWithinTheBoundPerItem) {
  // `#undef` lines are the densest items measured (302 bytes of tree each).
  std::string undefs;
  for (int i = 0; i < 20'000; ++i) undefs += "#undef A\n";
  ASSERT_EQ(plain_directive_items(undefs), 20'000u);
  // Measured as the budget counts it: the bytes of the parse's arena.
  const analysis::ParseArena arena;
  ts_parser_set_language(arena.parser(), analysis::cfamily::grammar_of(Dialect::C));
  const analysis::ParseBudget budget(arena.parser(), UINT64_MAX);
  EXPECT_NE(ts_parser_parse_string(arena.parser(), nullptr, undefs.data(),
                                   static_cast<uint32_t>(undefs.size())),
            nullptr);
  EXPECT_GT(budget.peak_bytes(), 20'000u * 100);
  EXPECT_LT(budget.peak_bytes(),
            20'000u * analysis::cfamily::kPlainTreeBytesPerItem / 2 +
                analysis::cfamily::kPlainTreeFixedBytes);
}

TEST_F(CPlainDirectives, ATreeThatMightOutgrowItsBudgetIsParsed) {
  // Items of four bytes each ("/**/") would need more tree than a large file's budget allows:
  // the parse decides (and cancels) as for any file.
  EXPECT_TRUE(plain_tree_fits_budget(20'000, 20'000 * 100));
  EXPECT_FALSE(plain_tree_fits_budget(4'000'000, 16'000'000));
}

}  // namespace
}  // namespace anchorfs::languages_test
