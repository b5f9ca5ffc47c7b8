package com.example.shapes;

public record Square(double side) implements Shape {
  public Square {
    if (side < 0) throw new IllegalArgumentException("negative side");
  }

  @Override public double area() { return side * side; }
}
