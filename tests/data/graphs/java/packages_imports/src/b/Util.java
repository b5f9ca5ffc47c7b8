package b;

public class Util {
  public static int twice(int x) {
    return x + x;
  }
}
