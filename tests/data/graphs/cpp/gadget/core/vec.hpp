#pragma once

namespace gadget {

struct vec {
  double x, y;
  double length2() const { return dot(*this, *this); }
  static double dot(const vec& a, const vec& b) { return a.x * b.x + a.y * b.y; }
};

}  // namespace gadget
