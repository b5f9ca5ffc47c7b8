package calls;

class Use {
  static void main() {
    Printer plain = new Printer();
    plain.print(1);
    FancyPrinter fancy = new FancyPrinter();
    fancy.log("x");
    fancy.go();
    unknown.go();
  }
}
