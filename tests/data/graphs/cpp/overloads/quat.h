#pragma once

#include <cmath>

namespace m {

struct Quat {
  double w;
};

inline double sin(const Quat& q) { return q.w; }
double sin(const Quat& q, int n);

inline double cos(const Quat& q) {
  using std::sin;
  // std::sin through the using-declaration: `sin` names several functions, so no edge.
  return sin(q.w);
}

inline double tan(const Quat& q) { return m::sin(q) / cos(q); }

}  // namespace m
