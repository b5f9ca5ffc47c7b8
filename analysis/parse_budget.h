// Bounds the memory tree-sitter may allocate while parsing one file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

struct TSParser;

namespace anchorfs::analysis {

// The syntax-tree bytes a source of `source_bytes` may take while it is parsed: ample for real
// code (the densest files of sympy and django peak at ~110 bytes of tree per source byte), and
// never more than kMaxParseBytes, so that one token-dense generated file (a 10 MB list of
// `k(), k(), ...` peaks at 1.4 GB) cannot take the machine's memory whatever its line lengths.
inline constexpr uint64_t kParseBytesPerSourceByte = 160;
inline constexpr uint64_t kMinParseBytes = uint64_t{32} << 20;
inline constexpr uint64_t kMaxParseBytes = uint64_t{384} << 20;
uint64_t parse_budget_bytes(uint64_t source_bytes);

// While alive, what tree-sitter allocates on this thread is counted, and `parser`'s parse is
// cancelled (ts_parser_parse returns null; the caller must ts_parser_reset) once it holds more
// than `budget` bytes. One per parse; not shared between threads.
class ParseBudget {
 public:
  ParseBudget(TSParser* parser, uint64_t budget);
  ~ParseBudget();
  ParseBudget(const ParseBudget&) = delete;
  ParseBudget& operator=(const ParseBudget&) = delete;

  bool exceeded() const { return cancel_ != 0; }
  // The most bytes tree-sitter held on this thread beyond what it held when this was armed.
  uint64_t peak_bytes() const;

 private:
  TSParser* parser_;
  int64_t base_ = 0;
  size_t cancel_ = 0;  // tree-sitter's cancellation flag, raised by the counting allocator
};

// No real source nests brackets 50,000 deep: bytes with more than kMaxOpenBrackets brackets open
// at once (strings and comments counted too) are not parsed, and the file is served like one that
// does not parse. The bound was made for Debian's libtree-sitter 0.20.7, which corrupted its heap
// freeing such a tree (about 65,000 open brackets); the 0.25.1 runtime built now frees 400,000
// without harm, and the bound stays as a cheap limit on error recovery over such bytes.
inline constexpr int64_t kMaxOpenBrackets = 50000;
bool nests_too_deep_to_parse(std::string_view bytes);

}  // namespace anchorfs::analysis
