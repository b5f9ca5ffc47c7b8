package com.example.shapes;

public enum Unit {
  METRE(1.0),
  FOOT(0.3048) {
    @Override
    double toMetres(double value) {
      return value * factor();
    }
  };

  private final double factor;

  Unit(double factor) {
    this.factor = factor;
  }

  double factor() { return factor; }

  double toMetres(double value) {
    return value;
  }
}
