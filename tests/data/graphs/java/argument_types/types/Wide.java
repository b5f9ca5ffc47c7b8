package types;

/** Overloads of one name spread over a hierarchy, so each one has its own id. */
class Wide {
  void num(double d) {}

  void take(Object o) {}

  void box(Object o) {}

  void many(Object... all) {}

  void pair(Object a, String b) {}
}
