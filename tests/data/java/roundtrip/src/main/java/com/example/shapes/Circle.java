package com.example.shapes;

/**
 * A circle.
 */
@SuppressWarnings({
    "unchecked",
    "rawtypes"})
public final class Circle implements Shape {
  private final double radius;

  public Circle(double radius) {
    this.radius = radius;
  }

  public Circle() {
    this(1.0);
  }

  @Override
  public double area() {
    return Math.PI * radius * radius;
  }

  /** A text block must never receive a tag line. */
  public String describe() {
    String text = """
        class NotAClass {
          void notAMethod() {}
        }
        """;
    return text + area();
  }

  public static final class Builder {
    private double radius;

    Builder radius(double r) { this.radius = r; return this; }

    Circle build() {
      return new Circle(radius);
    }
  }
}
