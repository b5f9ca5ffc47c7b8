// A preprocessor-level scan: comments, literals and line continuations, nothing of the grammar.
#include "analysis/cfamily/lexical.h"

#include <string>

namespace anchorfs::analysis::cfamily {
namespace {

bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}

enum class State { Code, Block, Line, String, Char, Raw };

// Steps through the bytes, reporting each token start outside comments and literals to
// `on_token(offset)` and each line start to `on_line(unsafe)`.
class Scanner {
 public:
  Scanner(std::string_view bytes, bool raw_strings) : b_(bytes), raw_(raw_strings) {}

  template <typename OnLine, typename OnCode>
  void run(OnLine&& on_line, OnCode&& on_code) {
    State state = State::Code;
    bool in_number = false;
    std::string raw_end;  // `)delim"` closing the raw string being read
    for (size_t i = 0; i < b_.size(); ++i) {
      const char c = b_[i];
      if (c == '\n') {
        const bool continued = ends_with_backslash(i);
        if (state == State::Line && !continued) state = State::Code;
        // An unterminated ordinary literal ends at the line's end (the compiler rejects it).
        if ((state == State::String || state == State::Char) && !continued) state = State::Code;
        on_line(state != State::Code || continued);
        in_number = false;
        continue;
      }
      switch (state) {
        case State::Code:
          if (c == '/' && i + 1 < b_.size() && b_[i + 1] == '*') {
            state = State::Block;
            ++i;
          } else if (c == '/' && i + 1 < b_.size() && b_[i + 1] == '/') {
            state = State::Line;
            ++i;
          } else if (c == '"') {
            if (raw_ && i > 0 && b_[i - 1] == 'R' &&
                (i < 2 || !ident_char(b_[i - 2]) || b_[i - 2] == '8' || b_[i - 2] == 'L' ||
                 b_[i - 2] == 'u' || b_[i - 2] == 'U')) {
              const size_t open = b_.find('(', i + 1);
              if (open == std::string_view::npos || open - i > 17) {
                state = State::String;
              } else {
                raw_end = ")" + std::string(b_.substr(i + 1, open - i - 1)) + "\"";
                state = State::Raw;
                i = open;
              }
            } else {
              state = State::String;
            }
          } else if (c == '\'' && !in_number) {
            state = State::Char;
          } else {
            if (!in_number && c >= '0' && c <= '9' && (i == 0 || !ident_char(b_[i - 1]))) {
              in_number = true;
            } else if (in_number && !ident_char(c) && c != '.' && c != '\'') {
              in_number = false;
            }
            on_code(i);
          }
          break;
        case State::Block:
          if (c == '*' && i + 1 < b_.size() && b_[i + 1] == '/') {
            state = State::Code;
            ++i;
          } else {
            i = before_next(i, '*', '\n');  // comments are much of a file's bytes
          }
          break;
        case State::Line:
          i = before_next(i, '\n', '\n');
          break;
        case State::String:
        case State::Char:
          if (c == '\\' && i + 1 < b_.size()) {
            if (b_[i + 1] != '\n') ++i;  // an escaped newline is a continuation: seen above
          } else if ((c == '"' && state == State::String) || (c == '\'' && state == State::Char)) {
            state = State::Code;
          }
          break;
        case State::Raw:
          if (c == ')' && b_.compare(i, raw_end.size(), raw_end) == 0) {
            i += raw_end.size() - 1;
            state = State::Code;
          }
          break;
      }
    }
  }

 private:
  // The offset just before the next `a` or `b` after `i` (the loop's step lands on it), or the
  // last offset when there is none.
  size_t before_next(size_t i, char a, char b) const {
    size_t j = i + 1;
    while (j < b_.size() && b_[j] != a && b_[j] != b) ++j;
    return j - 1;
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
  Scanner(bytes, raw_strings).run([&](bool u) { unsafe.push_back(u); }, [](size_t) {});
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
  Scanner(bytes, false)
      .run(
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
          });
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
