#pragma once

namespace lib {
enum class errc { broken = 1 };
struct code {
  int value;
};

template <class It, class Less>
bool sorted(It first, It last, Less less) {
  for (It at = first; at != last && at + 1 != last; ++at) {
    if (less(*(at + 1), *at)) return false;
  }
  return true;
}

template <class It>
It middle(It first, It last) {
  return first + (last - first) / 2;
}
}  // namespace lib

// The project's overloads of standard functions, for its own types; the standard library's own
// overloads (outside the tree) take the standard types.
namespace std {
inline lib::code make_error_code(lib::errc e) { return lib::code{static_cast<int>(e)}; }
inline lib::code doubled(lib::code c) { return lib::code{c.value * 2}; }
inline lib::code twice(lib::code c) { return doubled(c); }
}  // namespace std
