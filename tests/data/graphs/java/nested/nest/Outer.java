package nest;

public class Outer {
  private int count;

  void bump() {
    count++;
  }

  class Inner {
    void go() {
      bump();
      Outer.this.bump();
      deeper();
    }

    void deeper() {}
  }

  static class Nested {
    static Nested make() {
      return new Nested();
    }
  }

  Runnable task() {
    return new Runnable() {
      public void run() {
        bump();
        helper();
      }

      void helper() {}
    };
  }

  Base local() {
    class Impl extends Base {
      @Override
      void hook() {
        bump();
      }
    }
    return new Impl();
  }
}

abstract class Base {
  abstract void hook();

  void template() {
    hook();
  }
}

enum Op {
  PLUS {
    int apply(int a, int b) {
      return a + b;
    }
  },
  TIMES {
    int apply(int a, int b) {
      return twice(a) * b / 2;
    }
  };

  abstract int apply(int a, int b);

  static int twice(int x) {
    return 2 * x;
  }
}
