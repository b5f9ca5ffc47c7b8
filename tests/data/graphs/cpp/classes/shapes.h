#pragma once

namespace geo {

/// A shape with an area.
class Shape {
 public:
  virtual ~Shape() = default;
  virtual double area() const = 0;
  double twice() const { return area() * 2; }
};

class Square : public Shape {
 public:
  explicit Square(double side);
  Square(double w, double h);
  double area() const override;
  double scale(double k) const;
  double scale(double k, double j) const;

 private:
  double side_;
};

double total(const Shape& a, const Shape& b);

template <typename T>
T larger(T a, T b) {
  return a < b ? b : a;
}

}  // namespace geo
