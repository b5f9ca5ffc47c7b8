package types;

class Narrow extends Mid {
  void num(int i) {}

  void take(Dog d) {}

  void box(long l) {}

  void box(String s, int... more) {}
}
