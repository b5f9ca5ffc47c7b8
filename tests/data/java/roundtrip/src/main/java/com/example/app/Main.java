package com.example.app;

import static com.example.shapes.Shape.total;

import com.example.shapes.*;
import com.example.shapes.Circle.Builder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Entry point. */
public class Main<T extends Shape> {
  @interface Marker {
    String value() default "";
  }

  private final List<T> items = new ArrayList<>();

  @Marker(
      value = "main")
  public static void main(String[] args) {
    var shapes = new ArrayList<Shape>();
    shapes.add(new Circle(2.0));
    shapes.add(new Builder().radius(3).build());
    shapes.add(new Square(1.5));
    Supplier<Shape> lazy = () -> new Circle();
    shapes.add(lazy.get());
    Runnable report = new Runnable() {
      @Override
      public void run() {
        System.out.println(total(shapes));
      }
    };
    report.run();
    class Local {
      double twice(Shape s) { return 2 * s.area(); }
    }
    Local local = new Local();
    System.out.println(local.twice(new Circle()) + Unit.FOOT.toMetres(3));
  }

  <U extends Comparable<U>> U max(U a, U b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
