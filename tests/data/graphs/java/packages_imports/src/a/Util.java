package a;

public class Util {
  public static int twice(int x) {
    return x * 2;
  }

  public static int half(int x) {
    return x / 2;
  }

  public static class Inner {
    public void ping() {}
  }
}
