// A preprocessor-level scan: comments, literals and line continuations, nothing of the grammar.
#include "analysis/cfamily/lexical.h"

#include <string.h>

#include <algorithm>
#include <array>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace anchorfs::analysis::cfamily {
namespace {

bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}

enum class State { Code, Block, Line, String, Char, Raw };

// Where a scan stands between two bytes.
struct ScanState {
  State state = State::Code;
  bool in_number = false;  // in a pp-number, where `'` separates digits (C++14, C23)
  std::string raw_end;     // `)delim"` closing the raw string being read
};

// The first offset from `i` on holding one of `Stops`, or the end: sixteen bytes compared at a
// time, since these scans run over every byte of every C source.
template <char... Stops>
size_t next_of(std::string_view b, size_t i) {
#if defined(__SSE2__)
  for (; i + 16 <= b.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + i));
    const __m128i hit = (_mm_cmpeq_epi8(v, _mm_set1_epi8(Stops)) | ...);
    if (const int mask = _mm_movemask_epi8(hit); mask != 0) {
      return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
  }
#endif
  while (i < b.size() && ((b[i] != Stops) && ...)) ++i;
  return i;
}

// In code, what lies before the next of these bytes (a line break, a comment's or literal's
// opening) changes no state but the pp-number one, which only a `'` reads.
size_t next_code_stop(std::string_view b, size_t i) { return next_of<'\n', '/', '"', '\''>(b, i); }

// Steps through the bytes as the preprocessor's first phases read them: comments, literals,
// line continuations.
class Scanner {
 public:
  Scanner(std::string_view bytes, bool raw_strings) : b_(bytes), raw_(raw_strings) {}

  // Every code byte to `on_code(offset)` (outside comments and literals), each line start to
  // `on_line(unsafe)`.
  template <typename OnLine, typename OnCode>
  void run(OnLine&& on_line, OnCode&& on_code) {
    ScanState s;
    for (size_t i = 0; i < b_.size(); ++i) i = step(i, s, on_line, on_code);
  }

  // The same calls as run(), except that the ordinary bytes of code (neither a line break nor
  // a comment's or literal's opening) are skipped a block at a time, not reported, where
  // `wants_code()` (asked at each such byte) is false. This scan runs over every
  // byte of every C source, the kernel's register headers (hundreds of MB of `#define` lines,
  // which looks_like_cpp skips) included.
  template <typename OnLine, typename OnCode, typename WantsCode>
  void run_fast(OnLine&& on_line, OnCode&& on_code, WantsCode&& wants_code) {
    const auto none = [](auto) {};
    ScanState s;
    // run()'s own steps over the current line, as far as a `'` needed them: only a `'` in code
    // reads the pp-number state skipped bytes would have set. A line starts outside any number,
    // and the replay goes forward only, so each line is stepped through at most twice.
    size_t replayed_to = 0;
    ScanState replay;
    for (size_t i = 0; i < b_.size(); ++i) {
      const char c = b_[i];
      if (s.state == State::Code && c != '\n' && c != '/' && c != '"' && c != '\'' &&
          !wants_code()) {
        i = next_code_stop(b_, i + 1) - 1;
        continue;
      }
      if (s.state == State::Code && c == '\'') {
        for (size_t r = replayed_to; r < i; ++r) r = step(r, replay, none, none);
        replayed_to = i;
        s.in_number = replay.in_number;
      }
      i = step(i, s, on_line, on_code);
      if (c == '\n') {
        replayed_to = i + 1;
        replay.state = s.state;
        replay.in_number = false;
        if (s.state == State::Raw) replay.raw_end = s.raw_end;
      }
    }
  }

 private:
  // Reads the byte at `i` (and what it opens or closes); returns the offset of the last byte
  // read, which the caller's loop steps past.
  template <typename OnLine, typename OnCode>
  size_t step(size_t i, ScanState& s, OnLine&& on_line, OnCode&& on_code) const {
    const char c = b_[i];
    if (c == '\n') {
      const bool continued = ends_with_backslash(i);
      if (s.state == State::Line && !continued) s.state = State::Code;
      // An unterminated ordinary literal ends at the line's end (the compiler rejects it).
      if ((s.state == State::String || s.state == State::Char) && !continued) s.state = State::Code;
      on_line(s.state != State::Code || continued);
      s.in_number = false;
      return i;
    }
    switch (s.state) {
      case State::Code:
        if (c == '/' && i + 1 < b_.size() && b_[i + 1] == '*') {
          s.state = State::Block;
          ++i;
        } else if (c == '/' && i + 1 < b_.size() && b_[i + 1] == '/') {
          s.state = State::Line;
          ++i;
        } else if (c == '"') {
          if (raw_ && i > 0 && b_[i - 1] == 'R' &&
              (i < 2 || !ident_char(b_[i - 2]) || b_[i - 2] == '8' || b_[i - 2] == 'L' ||
               b_[i - 2] == 'u' || b_[i - 2] == 'U')) {
            const size_t open = b_.find('(', i + 1);
            if (open == std::string_view::npos || open - i > 17) {
              s.state = State::String;
            } else {
              s.raw_end = ")" + std::string(b_.substr(i + 1, open - i - 1)) + "\"";
              s.state = State::Raw;
              i = open;
            }
          } else {
            s.state = State::String;
          }
        } else if (c == '\'' && !s.in_number) {
          s.state = State::Char;
        } else {
          if (!s.in_number && c >= '0' && c <= '9' && (i == 0 || !ident_char(b_[i - 1]))) {
            s.in_number = true;
          } else if (s.in_number && !ident_char(c) && c != '.' && c != '\'') {
            s.in_number = false;
          }
          on_code(i);
        }
        break;
      case State::Block:
        if (c == '*' && i + 1 < b_.size() && b_[i + 1] == '/') {
          s.state = State::Code;
          ++i;
        } else {
          i = next_of<'*', '\n'>(b_, i + 1) - 1;  // comments are much of a file's bytes
        }
        break;
      case State::Line:
        i = next_of<'\n'>(b_, i + 1) - 1;
        break;
      case State::String:
      case State::Char:
        if (c == '\\' && i + 1 < b_.size()) {
          if (b_[i + 1] != '\n') ++i;  // an escaped newline is a continuation: seen above
        } else if ((c == '"' && s.state == State::String) ||
                   (c == '\'' && s.state == State::Char)) {
          s.state = State::Code;
        }
        break;
      case State::Raw:
        if (c == ')' && b_.compare(i, s.raw_end.size(), s.raw_end) == 0) {
          i += s.raw_end.size() - 1;
          s.state = State::Code;
        }
        break;
    }
    return i;
  }

  // Whether the line ending at the '\n' at `nl` ends with a backslash (before an optional '\r').
  bool ends_with_backslash(size_t nl) const {
    size_t end = nl;
    if (end > 0 && b_[end - 1] == '\r') --end;
    return end > 0 && b_[end - 1] == '\\';
  }

  std::string_view b_;
  bool raw_;
};

}  // namespace

std::vector<bool> unsafe_line_starts(std::string_view bytes, bool raw_strings) {
  std::vector<bool> unsafe{false};  // line 0 starts the file
  Scanner(bytes, raw_strings)
      .run_fast([&](bool u) { unsafe.push_back(u); }, [](size_t) {}, [] { return false; });
  return unsafe;
}

namespace {

// Whether the code tokens `t`, `next`, `after`, `fourth` (empty past the end) start a construct
// only C++ has.
bool cpp_window(std::string_view t, std::string_view next, std::string_view after,
                std::string_view fourth) {
  const auto is_ident = [](std::string_view x) {
    return !x.empty() && ident_char(x[0]) && !(x[0] >= '0' && x[0] <= '9');
  };
  if (t == "namespace" && (next == "{" || (is_ident(next) && (after == "{" || after == "="))))
    return true;
  if (t == "template" && next == "<") return true;
  if (t == "class" && is_ident(next) &&
      (after == "{" || after == ";" || after == "final" ||
       (after == ":" && !fourth.empty() && fourth != ":"))) {
    return true;
  }
  return (t == "public" || t == "private" || t == "protected") && next == ":" && after != ":";
}

}  // namespace

bool looks_like_cpp(std::string_view bytes) {
  // Code tokens (directives left out) go through a window of the last four: each window is
  // judged once its fourth token is in, the last three at the end.
  std::string_view window[4];
  size_t count = 0;
  bool found = false;
  bool directive = false;
  bool line_start = true;
  size_t skip_until = 0;
  // Only code outside directives is read: directive lines are skipped a block at a time.
  Scanner(bytes, false)
      .run_fast(
          [&](bool unsafe) {
            line_start = true;
            if (!unsafe) directive = false;
          },
          [&](size_t i) {
            if (found || i < skip_until) return;
            const char c = bytes[i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') return;
            if (line_start && c == '#') directive = true;
            line_start = false;
            if (directive) return;
            size_t end = i + 1;
            if (ident_char(c)) {
              while (end < bytes.size() && ident_char(bytes[end])) ++end;
            }
            skip_until = end;
            window[count++ % 4] = bytes.substr(i, end - i);
            if (count >= 4) {
              found = cpp_window(window[count % 4], window[(count + 1) % 4],
                                 window[(count + 2) % 4], window[(count + 3) % 4]);
            }
          },
          // A directive's bytes, and all bytes once the answer is in, change nothing above.
          [&] { return !found && !directive; });
  if (found) return true;
  // The windows starting at the last three tokens (the last one starts none).
  for (size_t k = count >= 3 ? count - 3 : 0; k + 1 < count; ++k) {
    const auto at = [&](size_t n) { return n < count ? window[n % 4] : std::string_view(); };
    if (cpp_window(at(k), at(k + 1), at(k + 2), at(k + 3))) return true;
  }
  return bytes.find("extern \"C++\"") != std::string_view::npos;
}

std::optional<MacroHead> function_like_macro(std::string_view line) {
  size_t i = 0;
  const auto blanks = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  const auto identifier = [&] {
    const size_t start = i;
    if (i < line.size() && !(line[i] >= '0' && line[i] <= '9')) {
      while (i < line.size() && ident_char(line[i])) ++i;
    }
    return line.substr(start, i - start);
  };
  blanks();
  if (i >= line.size() || line[i] != '#') return std::nullopt;
  ++i;
  blanks();
  if (identifier() != "define" || i >= line.size() || (line[i] != ' ' && line[i] != '\t'))
    return std::nullopt;
  blanks();
  MacroHead head;
  head.name = identifier();
  // Only a `(` right after the name makes the macro function-like.
  if (head.name.empty() || i >= line.size() || line[i] != '(') return std::nullopt;
  ++i;
  blanks();
  if (i < line.size() && line[i] == ')') return head;
  for (;;) {
    blanks();
    if (line.substr(i, 3) == "...") {
      head.variadic = true;
      i += 3;
    } else {
      if (identifier().empty()) return std::nullopt;
      ++head.arity;
      blanks();
      if (line.substr(i, 3) == "...") {  // GNU `args...`
        head.variadic = true;
        i += 3;
      }
    }
    blanks();
    if (i < line.size() && line[i] == ')') return head;
    if (head.variadic || i >= line.size() || line[i] != ',') return std::nullopt;
    ++i;
  }
}

}  // namespace anchorfs::analysis::cfamily
