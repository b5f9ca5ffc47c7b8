#include "vec.h"

namespace la {

Vec& Vec::add(const Vec& o) {
  x_ += o.x() + o.norm();
  return *this;
}

double sum(Vec&& a, const Vec& b) { return a.add(b).norm() + b.norm(); }

}  // namespace la
