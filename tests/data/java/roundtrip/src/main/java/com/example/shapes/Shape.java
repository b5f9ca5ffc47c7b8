// Licence header: comments may precede the package declaration.
package com.example.shapes;

import java.util.List;

/** A plane figure. */
public interface Shape extends Comparable<Shape> {
  double area();

  default int compareTo(Shape other) {
    return Double.compare(area(), other.area());
  }

  static double total(List<? extends Shape> shapes) {
    double sum = 0;
    for (Shape s : shapes) sum += s.area();
    return sum;
  }
}
