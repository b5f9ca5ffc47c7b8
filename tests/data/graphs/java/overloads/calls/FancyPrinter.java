package calls;

public class FancyPrinter extends Printer {
  FancyPrinter() {
    super(null);
  }

  @Override
  void flush() {
    super.flush();
  }

  void go() {
    flush();
    run();
    Printer.helper();
  }
}
