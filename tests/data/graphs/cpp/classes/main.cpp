#include <vector>

#include "shapes.h"

int main() {
  geo::Square s(2.0);
  geo::Square* r = new geo::Square(1.0, 2.0);
  double a = s.area() + r->scale(2.0);
  a += s.twice();
  a += geo::total(s, *r);
  std::vector<int> v;
  v.push_back(1);
  delete r;
  return static_cast<int>(a);
}
