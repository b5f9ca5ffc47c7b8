#pragma once

namespace geo {

struct side {
  explicit side(double v) : v_(v) {}
  double v_;
};

template <typename T>
class counted {
 public:
  counted() {}
  explicit counted(T start) : n_(start) {}

 private:
  T n_;
};

class shape {
 public:
  explicit shape(int sides) : sides_(sides) {}
  shape(int sides, int id) : shape(sides) { id_ = id; }

 private:
  int sides_;
  int id_ = 0;
};

class square : public shape, private counted<int> {
 public:
  // `side(s)` initializes the field: the class named side is not what it constructs.
  explicit square(double s) : shape(4, 1), counted<int>{7}, side(s) {}
  square() : square(1.0) {}

 private:
  double side;
};

}  // namespace geo
