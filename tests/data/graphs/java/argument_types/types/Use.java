package types;

import java.util.List;

class Use {
  private final Narrow n = new Narrow();
  private long total;

  Dog pet() {
    return new Dog();
  }

  void intLiteral() {
    n.num(1);
  }

  void negativeInt() {
    n.num(-7);
  }

  void charWidensToInt() {
    n.num('c');
  }

  void longLiteral() {
    n.num(1L);
  }

  void doubleLiteral() {
    n.num(1.5);
  }

  void floatWidensToDouble() {
    n.num(2f);
  }

  void intParameter(int count) {
    n.num(count);
  }

  void fieldArgument() {
    n.num(this.total);
  }

  void callResultArgument() {
    n.take(pet());
  }

  void stringLiteral() {
    n.take("s");
  }

  void concatenation(int k) {
    n.take("k=" + k);
  }

  void objectArgument() {
    n.take(new Object());
  }

  void castToObject(String s) {
    n.take((Object) s);
  }

  void subclassArgument() {
    n.take(new Puppy());
  }

  void superclassArgument(Animal a) {
    n.take(a);
  }

  // The compiler rejects this call (take(Dog) and take(String) both fit, neither is more specific).
  void nullIsAmbiguous() {
    n.take(null);
  }

  void thisArgument() {
    n.take(this);
  }

  void wideningBeatsBoxing() {
    n.box(1);
  }

  void boxedArgument(Integer i) {
    n.box(i);
  }

  void booleanBoxesToObject() {
    n.box(true);
  }

  void varargsOnly() {
    n.many(new Object(), 2, 3);
  }

  void mostSpecificVarargs() {
    n.many("a", "b");
  }

  void arrayAsVarargs(Object[] all) {
    n.many(all);
  }

  void varargsAfterFixed() {
    n.box("s", 1, 2);
  }

  // The compiler rejects this call: pair(Object, String) and pair(String, Object) both fit.
  void ambiguousPair() {
    n.pair("a", "b");
  }

  // The compiler picks Mid.take(String); the argument's type is a library method's result.
  void unknownArgument(List<String> names) {
    n.take(names.get(0));
  }

  void undeclaredArgument() {
    n.num(missing);
  }
}
