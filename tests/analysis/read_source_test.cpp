// read_source: the size, NUL-byte and longest-line limits that keep generated files out of parsing.
#include <gtest/gtest.h>

#include <string>

#include "analysis/source_files.h"
#include "temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

constexpr size_t kNoSizeLimit = 1 << 20;

SourceBytes read_with_line_limit(const std::string& content, size_t max_line_bytes) {
  TempRepo repo;
  repo.write("m.py", content);
  return read_source(repo.root(), "m.py", kNoSizeLimit, max_line_bytes);
}

TEST(ReadSource, ALineAtTheLimitIsRead) {
  const std::string line(10, 'x');
  for (const std::string& content : {line, line + "\n", "a\n" + line + "\nb\n", "a\r\n" + line}) {
    const SourceBytes r = read_with_line_limit(content, 10);
    EXPECT_TRUE(r.ok) << r.problem;
    EXPECT_EQ(r.bytes, content);
  }
}

TEST(ReadSource, ALineOverTheLimitIsRefusedWherever) {
  const std::string line(11, 'x');
  for (const std::string& content :
       {line, "a\n" + line, line + "\nb", "a\n" + line + "\nb\n", "short\n" + line + "\r\n"}) {
    const SourceBytes r = read_with_line_limit(content, 10);
    EXPECT_FALSE(r.ok) << content;
    EXPECT_EQ(r.problem, "a line of 11 bytes (generated or minified)") << content;
  }
}

TEST(ReadSource, ALoneCarriageReturnEndsALine) {
  const std::string half(6, 'x');
  EXPECT_TRUE(read_with_line_limit(half + "\r" + half + "\r" + half, 10).ok);
  EXPECT_FALSE(read_with_line_limit(half + "\n" + half + half + "\r" + half, 10).ok);
  const SourceBytes mixed = read_with_line_limit("ab\r" + std::string(12, 'y') + "\rcd\n", 10);
  EXPECT_EQ(mixed.problem, "a line of 12 bytes (generated or minified)");
}

TEST(ReadSource, EmptyFilesAndNulBytes) {
  EXPECT_TRUE(read_with_line_limit("", 10).ok);
  const SourceBytes binary = read_with_line_limit(std::string("x = 1\n\0\n", 8), 10);
  EXPECT_FALSE(binary.ok);
  EXPECT_EQ(binary.problem, "binary (contains NUL bytes)");
}

TEST(ReadSource, FilesOverTheSizeLimitAreRefused) {
  TempRepo repo;
  repo.write("big.py", std::string(100, '#'));
  EXPECT_TRUE(read_source(repo.root(), "big.py", 100).ok);
  const SourceBytes r = read_source(repo.root(), "big.py", 99);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.problem, "too large (100 bytes)");
}

}  // namespace
}  // namespace anchorfs::analysis::test
