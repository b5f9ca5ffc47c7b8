package types;

class Mid extends Wide {
  void num(long l) {}

  void take(String s) {}

  void take(Animal a) {}

  void box(Integer i) {}

  void many(String first, Object... rest) {}

  void pair(String a, Object b) {}
}
