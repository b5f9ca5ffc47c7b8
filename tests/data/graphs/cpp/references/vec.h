#pragma once

namespace la {

class Vec {
 public:
  Vec& add(const Vec& o);
  double norm() const { return x_ * x_; }
  const double& x() const { return x_; }

 private:
  double x_ = 0;
};

struct Holder {
  Vec& ref;
  double measure() const { return ref.norm(); }
};

template <typename T>
double generic(T& t) {
  return t.norm();
}

}  // namespace la
