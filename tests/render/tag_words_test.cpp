// holds_tag_word: the survey's one-pass search finds each delimiter word wherever it lies.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <string_view>

#include "render/tag_words.h"

namespace anchorfs::render::testing {
namespace {

constexpr std::array<std::string_view, 4> kWords = {" Annotation ===", " @function ", " @class ",
                                                    " @file "};

TEST(TagWords, EachWordAtEveryOffsetOfABlockAndItsEnds) {
  for (const std::string_view word : kWords) {
    for (size_t at = 0; at < 40; ++at) {
      std::string text(at, 'x');
      text += word;
      EXPECT_TRUE(holds_tag_word(text)) << word << " at " << at;
      text += std::string(at, '=');
      EXPECT_TRUE(holds_tag_word(text)) << word << " at " << at << " with a tail";
    }
  }
}

TEST(TagWords, NearMissesAreNoWord) {
  for (const std::string_view text :
       {"Annotation ===", " Annotation ==", " annotation ===", "x@function ", " @function",
        " @functions", " @clas ", "@file ", " @ file ", " == Annotation = ==", "a == b; c@d"}) {
    std::string padded = std::string(20, 'x') + std::string(text);
    EXPECT_FALSE(holds_tag_word(text)) << text;
    EXPECT_FALSE(holds_tag_word(padded)) << padded;
  }
}

// Texts built of the words' pieces: the answer is what searching for each word gives.
TEST(TagWords, AgreesWithASearchForEachWord) {
  const std::array<std::string_view, 11> pieces = {
      " ", "@", "=", "==", "Annotation", " Annotation ==", "function ", "class ", "file ", "x", "\n"};
  std::mt19937 rng(7);
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const size_t count = rng() % 24;
    for (size_t i = 0; i < count; ++i) text += pieces[rng() % pieces.size()];
    bool expected = false;
    for (const std::string_view word : kWords) expected = expected || text.find(word) != std::string::npos;
    ASSERT_EQ(holds_tag_word(text), expected) << text;
  }
}

// next_tag_word: each occurrence in turn, as its '@' or first "=" (a word starting just before
// `from` is none: it must start on the line searched).
TEST(TagWords, NextFindsEachOccurrenceInTurn) {
  const std::string text = "a @class b\n" + std::string(40, 'x') + " Annotation === @file c";
  const size_t first = next_tag_word(text, 0);
  EXPECT_EQ(first, text.find('@'));
  const size_t title = next_tag_word(text, first + 1);
  EXPECT_EQ(title, text.find("=="));
  EXPECT_EQ(next_tag_word(text, title + 1), text.rfind('@'));
  EXPECT_EQ(next_tag_word(text, text.rfind('@') + 1), std::string_view::npos);
  EXPECT_EQ(next_tag_word(" @file x", 1), 1u);
  EXPECT_EQ(next_tag_word("\n@file x", 1), std::string_view::npos);
}

}  // namespace
}  // namespace anchorfs::render::testing
