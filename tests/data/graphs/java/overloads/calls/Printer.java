package calls;

public class Printer {
  private Printer next;

  public Printer() {}

  public Printer(Printer next) {
    this();
    this.next = next;
  }

  void print(String s) {}

  void print(int n) {}

  void print(String s, int times) {
    for (int i = 0; i < times; i++) {
      print(s);
    }
  }

  void log(String format, Object... args) {}

  void log(String message) {}

  void run() {
    log("a");
    log("a", 1, 2);
    print("x", 2);
    this.next.flush();
    helper();
  }

  void flush() {}

  static void helper() {}
}
