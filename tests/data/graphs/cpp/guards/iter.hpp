#pragma once

namespace seq {

class iter {
 public:
  explicit iter(int base) : at_(base) {}
  iter operator--(int) {
    iter r(*this);  // a copy: the implicit copy constructor, not iter(int)
    --at_;
    return r;
  }
  iter twin() const {
    iter other(at_);
    iter same(other);  // a copy again
    return iter(same);
  }

 private:
  int at_;
};

template <typename T, int N>
struct convert {
  static int apply(T v) { return static_cast<int>(v) + N; }
};

template <typename T>
struct convert<T, 0> {
  static int apply(T) { return 0; }
};

template <typename T>
struct widen {
  static long apply(T v) { return v; }
};

// What a use of convert<...> reaches depends on its arguments: no edge; widen has no
// specialization.
inline long both(int v) { return convert<int, 2>::apply(v) + widen<int>::apply(v); }

}  // namespace seq

// tree-sitter sometimes loses a namespace around a definition (here it is just global).
inline void report(int code) { (void)code; }

# if 0
#   define SEQ_ENUM(count, macro) documentation only
# endif
# define SEQ_ENUM SEQ_ENUM_IMPL
# if 0
inline int ghost() { return 0; }
# else
inline int ghost() { return 1; }
# endif

namespace seq {
void report(int code);  // defined in report.cpp, which nobody includes
inline void fail() { seq::report(1); SEQ_ENUM(2, x); ghost(); }
}  // namespace seq
