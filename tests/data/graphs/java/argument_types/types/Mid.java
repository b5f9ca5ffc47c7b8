package types;

class Mid extends Wide {
  void num(long l) {}

  // Not accessible from Use: `n.num('c')` there widens to Narrow.num(int).
  private void num(char c) {}

  void take(String s) {}

  void take(Animal a) {}

  void box(Integer i) {}

  void many(String first, Object... rest) {}

  void pair(String a, Object b) {}
}
