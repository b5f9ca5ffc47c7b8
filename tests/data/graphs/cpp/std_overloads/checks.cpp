#include <system_error>

#include "codes.hpp"

namespace lib {
struct by_value {
  bool operator()(int a, int b) const { return a < b; }
};

// An overload for one type beside the generic template of codes.hpp.
bool sorted(const int* first, const int* last, by_value) { return first == last; }

int* middle(int* only) { return only; }

inline bool check(int* first, int* last) {
  // std::make_error_code(std::errc) is the standard library's; lib's overload is for lib::errc.
  const std::error_code failed = std::make_error_code(std::errc::invalid_argument);
  // Two sorted() of three arguments in sight: which one is told by the argument types only.
  const bool in_order = lib::sorted(first, last, by_value());
  // lib::middle() of two arguments is the header's, of one this file's.
  return in_order && !failed && lib::middle(first, last) != lib::middle(first);
}
}  // namespace lib
