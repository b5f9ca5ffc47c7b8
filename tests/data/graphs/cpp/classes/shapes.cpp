#include "shapes.h"

namespace geo {

Square::Square(double side) : side_(side) {}

Square::Square(double w, double h) : side_(larger(w, h)) {}

double Square::area() const { return side_ * side_; }

double Square::scale(double k) const { return area() * k + Shape::twice(); }

double Square::scale(double k, double j) const { return scale(k) * j; }

double total(const Shape& a, const Shape& b) { return a.area() + b.area(); }

}  // namespace geo
