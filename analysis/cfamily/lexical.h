// What the C preprocessor sees before any grammar does: which line starts may take a tag line,
// and whether a header's own text shows it is C++.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::cfamily {

// By 0-based line: true when a `//` line inserted at the start of that line could change what
// the compiler sees — the line continues a comment, string, character or raw string literal, or
// the line before ends with a backslash (a directive, a macro body or a `//` comment continues
// onto it). A comment anywhere else is whitespace to the preprocessor.
std::vector<bool> unsafe_line_starts(std::string_view bytes, bool raw_strings);

// Whether a header's tokens (outside comments, literals and directives) show C++: `namespace N {`,
// `template <`, `class N {` / `class N :` / `class N;`, an access specifier `public:`, or
// `extern "C++"`. The kernel's `asm("" ::: "memory")` and `new` as a variable name are C.
bool looks_like_cpp(std::string_view bytes);

// A function-like macro's head as the preprocessor reads a `#define NAME(a, b, ...)` line: its
// name, its parameter count and whether it takes more (`...`, `args...`); nullopt for any other
// line (an object-like `#define NAME (x)` included).
struct MacroHead {
  std::string_view name;
  uint32_t arity = 0;
  bool variadic = false;
};
std::optional<MacroHead> function_like_macro(std::string_view line);

}  // namespace anchorfs::analysis::cfamily
