// Whether a file holds only plain directives and comments: one pass over its lines.
#include "analysis/cfamily/directives_only.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace anchorfs::analysis::cfamily {
namespace {

bool word_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// A value byte whose meaning tree-sitter-c's `preproc_arg` and the preprocessor agree on: a
// printable ASCII byte or a tab, but no quote (a literal could hide a comment's opening or a
// line break), no backslash (a continuation) and no `/` (the token stops at `/*` but reads
// across a line break after a lone `/`).
bool plain_value_byte(char c) {
  return c == '\t' ||
         (c >= 0x20 && c <= 0x7e && c != '"' && c != '\'' && c != '\\' && c != '/');
}

// The first offset from `i` on holding a byte that is not plain_value_byte, or the end: sixteen
// bytes at a time, since values are most of a register header's bytes (padded with blanks).
size_t plain_value_end(std::string_view b, size_t i) {
#if defined(__SSE2__)
  for (; i + 16 <= b.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + i));
    // Signed bytes: below 0x20 holds the control bytes and every byte from 0x80 on.
    const __m128i control = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                                             _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    const __m128i stop = _mm_or_si128(
        _mm_or_si128(control, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                  _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))),
                     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
                                  _mm_cmpeq_epi8(v, _mm_set1_epi8('/')))));
    if (const int mask = _mm_movemask_epi8(stop); mask != 0) {
      return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
  }
#endif
  while (i < b.size() && plain_value_byte(b[i])) ++i;
  return i;
}

// The first offset from `i` on holding a byte that is not word_char, or the end: register names
// run to sixty bytes and more.
size_t word_end(std::string_view b, size_t i) {
#if defined(__SSE2__)
  for (; i + 16 <= b.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + i));
    // Letters in either case at once: 0x20 set maps 'A'..'Z' onto 'a'..'z'. Signed compares:
    // bytes from 0x80 on are negative and fall outside every range.
    const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
    const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                         _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
    const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                        _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    const __m128i word =
        _mm_or_si128(_mm_or_si128(letter, digit), _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
    if (const int mask = _mm_movemask_epi8(word) ^ 0xFFFF; mask != 0) {
      return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
  }
#endif
  while (i < b.size() && word_char(b[i])) ++i;
  return i;
}

class PlainScan {
 public:
  explicit PlainScan(std::string_view bytes) : b_(bytes) {}

  std::optional<uint64_t> run() {
    // tree-sitter may take a NUL for the end of its input; the preprocessor does not.
    if (std::memchr(b_.data(), 0, b_.size()) != nullptr) return std::nullopt;
    while (i_ < b_.size()) {
      blanks();
      if (i_ >= b_.size()) break;
      const char c = b_[i_];
      bool ok = false;
      if (c == '#') {
        ok = directive();
      } else if (c == '/' || c == '\n' || c == '\r') {
        ok = rest_of_line(/*line_comment=*/true);
      }
      if (!ok) return std::nullopt;
    }
    if (depth_ != 0) return std::nullopt;
    return items_;
  }

 private:
  void blanks() {
    while (i_ < b_.size() && (b_[i_] == ' ' || b_[i_] == '\t')) ++i_;
  }

  bool at(std::string_view s) const { return b_.compare(i_, s.size(), s) == 0; }

  std::string_view word() {
    const size_t start = i_;
    i_ = word_end(b_, i_);
    return b_.substr(start, i_ - start);
  }

  // An identifier as both readers take it: ASCII, not starting with a digit, and ending where
  // the operand does (a blank, a comment or the line break follows).
  bool name() {
    if (i_ >= b_.size() || (b_[i_] >= '0' && b_[i_] <= '9')) return false;
    if (word().empty()) return false;
    return i_ >= b_.size() || b_[i_] == ' ' || b_[i_] == '\t' || b_[i_] == '\n' ||
           b_[i_] == '\r' || at("/*") || at("//");
  }

  // What may follow a line's operands: blanks and comments, then the line break or the end.
  // A block comment may run over lines (the directive goes on after it); a `//` comment
  // (where `line_comment` allows one) must hold no backslash, which would continue it.
  bool rest_of_line(bool line_comment) {
    for (;;) {
      blanks();
      if (i_ >= b_.size()) return true;
      if (b_[i_] == '\n') {
        ++i_;
        return true;
      }
      if (at("\r\n")) {
        i_ += 2;
        return true;
      }
      if (at("/*")) {
        const size_t close = b_.find("*/", i_ + 2);
        if (close == std::string_view::npos) return false;
        ++items_;
        i_ = close + 2;
        continue;
      }
      if (line_comment && at("//")) {
        const size_t end = b_.find('\n', i_);
        const size_t stop = end == std::string_view::npos ? b_.size() : end;
        if (std::memchr(b_.data() + i_, '\\', stop - i_) != nullptr) return false;
        ++items_;
        i_ = stop;
        continue;
      }
      return false;
    }
  }

  // `#define NAME value` (object-like) or `#undef NAME`: the value is plain bytes up to the
  // line break, or up to a block comment ending the line. The line must end with a line break:
  // tree-sitter-c's `preproc_def` and `preproc_call` take one.
  bool define_line() {
    if (i_ >= b_.size() || (b_[i_] != ' ' && b_[i_] != '\t')) return false;
    blanks();
    if (!name()) return false;
    i_ = plain_value_end(b_, i_);
    if (at("\r\n") || (i_ < b_.size() && b_[i_] == '\n')) return rest_of_line(false);
    if (!at("/*")) return false;
    const size_t close = b_.find("*/", i_ + 2);
    if (close == std::string_view::npos) return false;
    ++items_;
    i_ = close + 2;
    blanks();
    if (!at("\r\n") && !(i_ < b_.size() && b_[i_] == '\n')) return false;
    return rest_of_line(false);
  }

  bool directive() {
    ++i_;  // '#'
    blanks();
    const std::string_view w = word();
    ++items_;
    if (w == "define" || w == "undef") return define_line();
    if (w == "ifdef" || w == "ifndef") {
      if (i_ >= b_.size() || (b_[i_] != ' ' && b_[i_] != '\t')) return false;
      blanks();
      if (!name() || depth_ == kMaxPlainNesting) return false;
      else_seen_[depth_++] = false;
      return rest_of_line(true);
    }
    if (w == "else") {
      if (depth_ == 0 || else_seen_[depth_ - 1]) return false;
      else_seen_[depth_ - 1] = true;
      return rest_of_line(true);
    }
    if (w == "endif") {
      if (depth_ == 0) return false;
      --depth_;
      return rest_of_line(true);
    }
    return false;
  }

  std::string_view b_;
  size_t i_ = 0;
  uint64_t items_ = 0;
  int depth_ = 0;
  bool else_seen_[kMaxPlainNesting] = {};
};

}  // namespace

std::optional<uint64_t> plain_directive_items(std::string_view bytes) {
  return PlainScan(bytes).run();
}

}  // namespace anchorfs::analysis::cfamily
